"""Where each YAML node stands in its text, and its characters exactly as written.

A loaded document keeps only the 1-based line and column where each key and
value starts. Messages that quote a value as the author wrote it (``14.10``, not
the float ``14.1``), and editors that underline a whole value, need its extent
too. That is computed here, lazily: the first question about a text parses it
once with PyYAML's C parser (events only, nothing is constructed) and records
the span of every node; later questions about the same text are dictionary
look-ups.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import yaml

from holodeck_mt.text.positions import line_column_after

try:  # the C parser (libyaml); PyYAML without it parses the same, only slower
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - exercised only without libyaml
    from yaml import SafeLoader as _Parser  # type: ignore[assignment]


@dataclass(frozen=True)
class Span:
    """The extent of one node: 1-based lines and columns, offsets into the text.

    The end is exclusive: ``text[start_offset:end_offset]`` is the node, and
    ``end_line``/``end_column`` name the position just after its last character.
    """

    start_line: int
    start_column: int
    end_line: int
    end_column: int
    start_offset: int
    end_offset: int


Position = tuple[int, int]

#: Texts whose spans are kept; a validation run asks about one text at a time.
_CACHED_TEXTS = 8


def node_span(text: str, line: int, column: int, *, innermost: bool = False) -> Span | None:
    """The node (scalar, alias, flow or block collection) starting at ``line``:``column``.

    Positions are 1-based, as the loader reports them. A node's position is that
    of its first character, anchor and tag included. A block mapping starts
    where its first key does: the mapping is returned, as the loader reports the
    mapping's value position there; ``innermost=True`` returns the key instead.
    None when no node starts there (or the text is not YAML up to that point).
    """
    events = _events(text)
    if not innermost and (line, column) == events.root_position():
        found = _spans(text).get((line, column))  # the document: read to its end
        return None if found is None else found[0]
    return events.at(line, column, innermost=innermost)


def root_position(text: str) -> Position | None:
    """Where the document's root node starts (None for a text with no node)."""
    return _events(text).root_position()


def source_text(text: str, span: Span) -> str:
    """The node's characters exactly as they are written in ``text``."""
    return text[span.start_offset : span.end_offset]


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def _spans(text: str) -> dict[Position, tuple[Span, ...]]:
    """Every node's span, by start position, outermost first."""
    spans = _Spans(text)
    parser = _Parser(text)
    try:
        while True:
            event: Any = parser.get_event()
            if event is None or type(event) is yaml.StreamEndEvent:
                break
            spans.read(event)
    except yaml.YAMLError:
        pass  # the nodes read before the error keep their spans
    return spans.outermost_first()


class _Spans:
    """The spans of one text's nodes, gathered from its parser events in order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[Position, list[Span]] = {}
        #: Open collections: [start mark, flow style, end of the last child].
        self.open: list[list[Any]] = []

    def read(self, event: Any) -> None:
        kind = type(event)
        if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
            self._leaf(event)
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            mark = event.end_mark
            self.open.append([event.start_mark, event.flow_style, _end(mark)])
        elif (kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent) and self.open:
            start, flow, last = self.open.pop()
            if flow:  # ends with its closing bracket
                last = _end(event.end_mark)
            self._add(start, *last)

    def _leaf(self, event: Any) -> None:
        """A scalar or an alias; a block scalar ends after its last non-blank character."""
        end, kind = event.end_mark, type(event)
        index, line, column = _end(end)
        if kind is yaml.ScalarEvent and event.style in ("|", ">"):
            index, line, column = _trim_trailing_space(self.text, event.start_mark.index, end)
        self._add(event.start_mark, index, line, column)

    def _add(self, start: Any, end_index: int, end_line: int, end_column: int) -> None:
        span = Span(
            start.line + 1,
            start.column + 1,
            end_line + 1,
            end_column + 1,
            start.index,
            end_index,
        )
        if self.open:  # the parent extends at least to the end of this child
            self.open[-1][2] = (end_index, end_line, end_column)
        spans = self.found.setdefault((span.start_line, span.start_column), [])
        if spans and spans[-1].start_offset == spans[-1].end_offset:
            spans.pop()  # an empty (null) node gives way to a node written there
        if not spans or span.end_offset > span.start_offset:
            spans.append(span)

    def outermost_first(self) -> dict[Position, tuple[Span, ...]]:
        """Of the nodes starting at one place, the longer holds the shorter: it comes first."""
        return {
            position: tuple(sorted(spans, key=lambda s: s.start_offset - s.end_offset))
            for position, spans in self.found.items()
        }


def _end(mark: Any) -> tuple[int, int, int]:
    """A parser mark as an end: offset, 0-based line and column."""
    return mark.index, mark.line, mark.column


def _trim_trailing_space(text: str, start: int, end: Any) -> tuple[int, int, int]:
    """A block scalar's end after its last non-blank character, not after its blank lines."""
    index = end.index
    while index > start and text[index - 1] in " \t\r\n":
        index -= 1
    line_start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
    line = end.line - _line_breaks(text, index, end.index)
    return index, line, index - line_start


def _line_breaks(text: str, start: int, end: int) -> int:
    """Line breaks in ``text[start:end]``, a CR LF pair counting once."""
    chunk = text[start:end]
    return chunk.count("\n") + chunk.count("\r") - chunk.count("\r\n")


End = tuple[int, int, int]  # offset, 1-based line and column


class _Lazy:
    """One text's parser events, read on demand: the ends of the nodes met so far.

    A question about a node near the top of an 11 MB file reads a few lines, not
    the file; the next question about the same text goes on from there.
    """

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
        while not self.done and not self._settled(where, innermost):
            self._step()
        found = [n for n in self.nodes.get(where, []) if n[1][0] > n[0]]
        if not found:
            found = self.nodes.get(where, [])[:1]
        if not found:
            return None
        offset, (end, end_line, end_column) = found[-1] if innermost else found[0]
        return Span(line, column, end_line, end_column, offset, end)

    def root_position(self) -> Position | None:
        while self.root is None and not self.done:
            self._step()
        return self.root

    def _settled(self, where: Position, key: bool) -> bool:
        """Whether every node starting at ``where`` has been read to its end."""
        if where == self.root and not key:
            return True
        if any(entry[0] == where for entry in self.open):
            return False
        return where in self.nodes or self.last > where

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
        end: Any = event.end_mark
        if isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            finished: End = (end.index, end.line + 1, end.column + 1)
            if isinstance(event, yaml.ScalarEvent) and event.style in ("|", ">"):
                index = len(self.text[start.index : end.index].rstrip(" \t\r\n")) + start.index
                finished = (index, *line_column_after(self.text, start.index, where, index))
            self._close(where, start.index, finished)
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if not self.open and self.root is None:
                self.root = where
            self.open.append(
                [where, start.index, event.flow_style, (end.index, end.line + 1, end.column + 1)]
            )
        elif self.open:  # a collection's end
            at, offset, flow, last = self.open.pop()
            if flow:
                last = (end.index, end.line + 1, end.column + 1)
            self._close(at, offset, last)

    def _close(self, where: Position, offset: int, end: End) -> None:
        if self.open:  # the parent reaches at least to the end of this child
            self.open[-1][3] = end
        self.nodes.setdefault(where, []).insert(0, (offset, end))


@functools.lru_cache(maxsize=2)
def _events(text: str) -> _Lazy:
    return _Lazy(text)
