"""What the chores, the benchmarks and the test support share: where the repository is,
and the CLI run in it (``scripts.repo``, imported from the repository's root)."""

from __future__ import annotations

import contextlib
import io
import os
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


def replace_section(
    document: Path, section: str, begin: str, end: str, before: str | None = None
) -> None:
    """Write ``section`` (which opens with ``begin`` and closes with ``end``) into the
    Markdown ``document``: over the part between those markers, else just before the
    marker ``before`` where the document holds it, else at its end."""
    text = document.read_text(encoding="utf-8") if document.exists() else "# Performance\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + section + tail
    elif before is not None and before in text:
        head, tail = text.split(before, 1)
        text = head + section + "\n\n" + before + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    document.write_text(text, encoding="utf-8")
