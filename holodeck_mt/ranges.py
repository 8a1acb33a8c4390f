"""Where a diagnostic ends: the extent of the offending key or value in the text.

A diagnostic is located at the first character of its node (the loader's
positions). Editors underline, and SARIF regions span, the whole node: its end
comes from :func:`holodeck_mt.source.node_span`; the document's root spans its
whole text. Where no node starts at the position (a syntax error, a file too large to
parse), the range covers the token written there, or is empty at the end of a line.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from holodeck_mt import source
from holodeck_mt.diagnostics import Diagnostic
from holodeck_mt.positions import line_column

#: A token as the text renderer underlines it: a quoted scalar or a run of plain characters.
_TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[^\s:,\]}#]+(?::[^\s,\]}]+)*""")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def end_of(text: str, line: int, column: int, *, key: bool = False) -> tuple[int, int]:
    """The 1-based line and column just after the node at ``line``:``column``.

    ``key`` asks for the key written there rather than the block mapping that
    starts with it (both start at the first key of a block mapping).
    """
    try:
        if not key and (line, column) == source.root_position(text):  # the document: its text
            return line_column(text, len(text.rstrip()))
        span = source.node_span(text, line, column, innermost=key)
    except UnicodeError:  # a lone surrogate (API text): the parser cannot take the text
        span = None
    if span is not None and span.end_offset > span.start_offset:
        return span.end_line, span.end_column
    return line, column + _token_width(text, line, column)


def with_range(text: str | None, diagnostic: Diagnostic, *, key: bool = False) -> Diagnostic:
    """The diagnostic with its end line and column filled in from ``text``."""
    if text is None:
        end_line, end_column = diagnostic.line, diagnostic.column
    else:
        end_line, end_column = end_of(text, diagnostic.line, diagnostic.column, key=key)
    return dataclasses.replace(diagnostic, end_line=end_line, end_column=end_column)


def with_ranges(text: str | None, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic that has no end yet, ranged over the innermost node at its start."""
    return [d if d.end_line is not None else with_range(text, d, key=True) for d in diagnostics]


def _token_width(text: str, line: int, column: int) -> int:
    source_line = _line(text, line)
    if source_line is None or column < 1:
        return 0
    match = _TOKEN.match(source_line, column - 1)
    return len(match.group(0)) if match else 0


def _line(text: str, line: int) -> str | None:
    """The ``line``-th line (1-based) without its break; None past the end."""
    start = 0
    for _ in range(line - 1):
        found = _LINE_BREAK.search(text, start)
        if found is None:
            return None
        start = found.end()
    found = _LINE_BREAK.search(text, start)
    return text[start : found.start() if found else len(text)]
