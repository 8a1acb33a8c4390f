"""What the scripts share: where the repository is, its modules, and the CLI run in it.

Every script is a thin command line over functions that the tests import as well
(``tests/conftest.py``'s ``load_script``); a script reaches this module as a sibling,
since running ``python scripts/NAME.py`` puts scripts/ on ``sys.path``.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

from holodeck_mt.app import cli

ROOT = Path(__file__).resolve().parent.parent


def import_from_root(name: str) -> ModuleType:
    """Import the module ``name`` (``tests.editor.lsp_client``) as the test suite does:
    from the repository's root, put first on ``sys.path``."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module(name)


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
