"""The hand-written pages (README.md and docs/*.md) and their code blocks.

A snippet is tested where it lives: the tests that hold a set-up snippet to what the
repository ships find it by its content in whichever page holds it, so moving a snippet
from one page to another keeps its test.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from tests.conftest import ROOT

#: Pages written by scripts (gen_docs.py, bench.py), not by hand: no set-up snippet lives there.
GENERATED = frozenset({"docs/diagnostics.md", "docs/reference.md", "docs/performance.md"})


@cache
def pages(root: Path = ROOT) -> dict[str, str]:
    """Every hand-written page of ``root`` by its path: README.md, then docs/*.md."""
    paths = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    found = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in paths}
    return {name: text for name, text in found.items() if name not in GENERATED}


def page(name: str) -> str:
    """One page's text, by its path (``"docs/editors.md"``)."""
    return pages()[name]


def blocks(language: str, text: str | None = None) -> list[str]:
    """The fenced ``language`` blocks of ``text``, or of every page."""
    texts = [text] if text is not None else list(pages().values())
    return [b for t in texts for b in re.findall(rf"```{language}\n(.*?)```", t, re.S)]


def block(language: str, marker: str) -> str:
    """The one ``language`` block, of all the pages, that holds ``marker``."""
    (found,) = [b for b in blocks(language) if marker in b]
    return found


def section(name: str, start: str, end: str) -> str:
    """The text of page ``name`` from ``start`` up to the next ``end`` after it."""
    text = page(name)
    first = text.index(start)
    return text[first : text.index(end, first)]
