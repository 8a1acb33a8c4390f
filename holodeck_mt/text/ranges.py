"""Where each YAML node stands in its text and where a diagnostic ends: a node's extent and
its characters exactly as written (``14.10``, not ``14.1``), read from the parser's events
only as far as the node asked about; just after its node (the root: its whole text), or
where no node starts there (a syntax error, a file too large to parse), after the token."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import yaml

from holodeck_mt.model import Diagnostic
from holodeck_mt.text import lines
from holodeck_mt.text.positions import Position, block_end, line_column
from holodeck_mt.text.quoting import TOKEN

#: What stands before a block sequence item's node on its first line: the dash.
_DASH = re.compile(r" *- +")

#: A run of whole lines: the first (1-based) and the one after the last (None: the text's end).
Lines = tuple[int, int | None]


try:  # the C parser (libyaml); PyYAML without it parses the same, only slower
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - exercised only without libyaml
    from yaml import SafeLoader as _Parser  # type: ignore[assignment]


@dataclass(frozen=True)
class Span:
    """The extent of one node: 1-based lines and columns, offsets into the text; the end
    is exclusive (``text[start_offset:end_offset]`` is the node)."""

    start_line: int
    start_column: int
    end_line: int
    end_column: int
    start_offset: int
    end_offset: int


def node_span(text: str, line: int, column: int, *, innermost: bool = False) -> Span | None:
    """The node starting at ``line``:``column`` (anchor and tag included): of a block mapping
    and its first key, the mapping, or the key with ``innermost``. None when no node starts
    there (or the text is not YAML up to that point)."""
    return _events(text).at(line, column, innermost=innermost)


def root_position(text: str) -> Position | None:
    """Where the document's root node starts (None for a text with no node)."""
    return _events(text).root_position()


def source_text(text: str, span: Span) -> str:
    """The node's characters exactly as they are written in ``text``."""
    return text[span.start_offset : span.end_offset]


End = tuple[int, int, int]  # offset, 1-based line and column


class _Lazy:
    """One text's parser events, read on demand: the ends of the nodes met so far."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.parser: Any = _Parser(text)
        #: Start position -> (start offset, end) of each node starting there, outermost first.
        self.nodes: dict[Position, list[tuple[int, End]]] = {}
        #: Open collections: [start position, start offset, flow, end of the last child].
        self.open: list[list[Any]] = []
        self.root: Position | None = None
        self.last: Position = (0, 0)
        self.done = False

    def at(self, line: int, column: int, *, innermost: bool) -> Span | None:
        """The node at ``line``:``column``, read as far as its end and no further."""
        where = (line, column)
        while not self.done and not self._settled(where):
            self._step()
        nodes = self.nodes.get(where, [])
        found = [n for n in nodes if n[1][0] > n[0]] or nodes[:1]
        if not found:
            return None
        offset, (end, end_line, end_column) = found[-1] if innermost else found[0]
        return Span(line, column, end_line, end_column, offset, end)

    def root_position(self) -> Position | None:
        while self.root is None and not self.done:
            self._step()
        return self.root

    def _settled(self, where: Position) -> bool:
        """Whether every node starting at ``where`` has been read to its end."""
        opened = any(entry[0] == where for entry in self.open)
        return not opened and (where in self.nodes or self.last > where)

    def _step(self) -> None:
        event: Any
        try:
            event = self.parser.get_event()
        except yaml.YAMLError:
            event = None
        if event is None or isinstance(event, yaml.StreamEndEvent):
            self.done = True
            return
        start: Any = event.start_mark
        if isinstance(event, (yaml.StreamStartEvent, yaml.DocumentStartEvent)):
            return
        if isinstance(event, yaml.DocumentEndEvent):
            self.done = True  # a second document is the loader's fault to report
            return
        where = (start.line + 1, start.column + 1)
        self.last = max(self.last, where)
        mark = event.end_mark
        end = mark.index, mark.line + 1, mark.column + 1
        if isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            finished = end
            if isinstance(event, yaml.ScalarEvent) and event.style in ("|", ">"):
                finished = block_end(self.text, start.index, where, end[0])
            self._close(where, start.index, finished)
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if not self.open and self.root is None:
                self.root = where
            self.open.append([where, start.index, event.flow_style, end])
        elif self.open:  # a collection's end
            at, offset, flow, last = self.open.pop()
            self._close(at, offset, end if flow else last)

    def _close(self, where: Position, offset: int, end: End) -> None:
        if self.open:  # the parent reaches at least to the end of this child
            self.open[-1][3] = end
        self.nodes.setdefault(where, []).insert(0, (offset, end))


@functools.lru_cache(maxsize=2)
def _events(text: str) -> _Lazy:
    return _Lazy(text)


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
            if not key and (line, column) == root_position(text):  # the document
                return line_column(text, len(text.rstrip()))
            span = node_span(text, line, column, innermost=key)
        except UnicodeError:  # a lone surrogate (API text): the parser cannot take the text
            span = None
    if span is not None and span.end_offset > span.start_offset:
        return span.end_line, span.end_column
    return line, column + _token_width(text, line, column)


def span_at(
    text: str, line: int, column: int, *, innermost: bool = False, within: Lines | None = None
) -> Span | None:
    """:func:`holodeck_mt.text.node_span`, read from the lines ``within`` alone when
    they tell (a fault deep in a large file does not cost a reading up to it)."""
    found = _span_within(text, line, column, innermost, within)
    return found or node_span(text, line, column, innermost=innermost)


def _span_within(
    text: str, line: int, column: int, innermost: bool, within: Lines | None
) -> Span | None:
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
        span = node_span(text[base:end], line - first + 1, column, innermost=innermost)
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
