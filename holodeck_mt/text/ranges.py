"""Where a diagnostic ends: just after its node (the document's root: its whole text), or
where no node starts there (a syntax error, a file too large to parse), after the token
written there."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from holodeck_mt.model import Diagnostic
from holodeck_mt.text import lines, source
from holodeck_mt.text.positions import line_column
from holodeck_mt.text.quoting import TOKEN

#: What stands before a block sequence item's node on its first line: the dash.
_DASH = re.compile(r" *- +")

#: A run of whole lines: the first (1-based) and the one after the last (None: the text's end).
Lines = tuple[int, int | None]


def item_lines(text: str, item: tuple[int, int], following: tuple[int, int] | None) -> Lines | None:
    """The lines of a block sequence item whose node starts at ``item``, on its dash's line,
    up to the next item's at ``following`` (None: the last); None when its lines are not
    its own (a flow sequence, a node below a bare dash)."""
    starts = lines.starts(text)
    line, column = item
    if not 0 < line <= len(starts):
        return None
    if not _DASH.fullmatch(text, starts[line - 1], starts[line - 1] + column - 1):
        return None
    if following is None:
        return line, None
    return (line, following[0]) if following[0] > line else None


def end_of(
    text: str, line: int, column: int, *, key: bool = False, within: Lines | None = None
) -> tuple[int, int]:
    """The 1-based line and column just after the node at ``line``:``column`` (with ``key``,
    the key there, not the block mapping it starts). Only the lines ``within`` (a test
    case's, from :func:`item_lines`) are parsed when they hold the whole node: the same
    answer, cheap for many diagnostics in a large file."""
    span = _span_within(text, line, column, key, within)
    if span is None or span.end_offset <= span.start_offset:
        try:
            if not key and (line, column) == source.root_position(text):  # the document
                return line_column(text, len(text.rstrip()))
            span = source.node_span(text, line, column, innermost=key)
        except UnicodeError:  # a lone surrogate (API text): the parser cannot take the text
            span = None
    if span is not None and span.end_offset > span.start_offset:
        return span.end_line, span.end_column
    return line, column + _token_width(text, line, column)


def span_at(
    text: str, line: int, column: int, *, innermost: bool = False, within: Lines | None = None
) -> source.Span | None:
    """:func:`holodeck_mt.text.source.node_span`, read from the lines ``within`` alone when
    they tell (a fault deep in a large file does not cost a reading up to it)."""
    found = _span_within(text, line, column, innermost, within)
    return found or source.node_span(text, line, column, innermost=innermost)


def _span_within(
    text: str, line: int, column: int, innermost: bool, within: Lines | None
) -> source.Span | None:
    """The node at ``line``:``column`` read from the lines ``within``, in the whole
    text's lines and offsets; None when they cannot tell."""
    if within is None:
        return None
    first, after = within
    starts = lines.starts(text)
    if not first <= line < (after or len(starts) + 1):
        return None
    base = starts[first - 1]
    end = starts[after - 1] if after is not None and after <= len(starts) else len(text)
    try:
        span = source.node_span(text[base:end], line - first + 1, column, innermost=innermost)
    except UnicodeError:
        return None
    if span is None:
        return None
    return dataclasses.replace(
        span,
        start_line=span.start_line + first - 1,
        end_line=span.end_line + first - 1,
        start_offset=span.start_offset + base,
        end_offset=span.end_offset + base,
    )


def with_range(
    text: str | None, diagnostic: Diagnostic, *, key: bool = False, within: Lines | None = None
) -> Diagnostic:
    """The diagnostic with its end line and column filled in from ``text``."""
    line, column = diagnostic.line, diagnostic.column
    end_line, end_column = (
        (line, column) if text is None else end_of(text, line, column, key=key, within=within)
    )
    return dataclasses.replace(diagnostic, end_line=end_line, end_column=end_column)


def with_ranges(text: str | None, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic that has no end yet, ranged over the innermost node at its start."""
    return [d if d.end_line is not None else with_range(text, d, key=True) for d in diagnostics]


def _token_width(text: str, line: int, column: int) -> int:
    """The width of the token at ``line``:``column``, lines broken at CR, LF and CR LF."""
    starts = lines.starts(text, lines.CR_LF_BREAKS)
    if line - 1 >= len(starts) or column < 1:
        return 0
    start = starts[max(line - 1, 0)]
    found = lines.CR_LF_BREAKS.search(text, start)
    match = TOKEN.match(text[start : found.start() if found else len(text)], column - 1)
    return len(match.group(0)) if match else 0
