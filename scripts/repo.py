"""What the chores, the benchmarks and the test support share: where the repository is,
and the CLI run in it, and writing a file atomically (``scripts.repo``, imported from the
repository's root)."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from holodeck_mt.app import cli

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def working_in(folder: Path) -> Iterator[None]:
    """Work from ``folder`` for a while (paths in outputs are relative to it)."""
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def run_cli(argv: Sequence[str], folder: Path = ROOT) -> tuple[int, str]:
    """``holodeck-mt ARGV`` run in this process from ``folder`` (the repository's root):
    the exit code and what it printed on stdout (not a terminal: no colour)."""
    out = io.StringIO()
    with working_in(folder), contextlib.redirect_stdout(out):
        code = cli.main(list(argv))
    return code, out.getvalue()


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path``'s content with ``text``: a reader sees the old file or the new one."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        os.chmod(temporary, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
