"""The benchmarks and the fuzzer: figures about the validator, not checks of it.

Each is a module run from the repository's root (``make bench``, ``make bench-limits``,
``make fuzz``): ``python -m bench.speed``, ``bench.stages``, ``bench.lsp``, ``bench.limits``,
``bench.fuzz``. Their inputs come from the test suite's generators (``tests.support``).
"""

from __future__ import annotations

from pathlib import Path

from scripts.repo import write_atomically


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
    write_atomically(document, text)
