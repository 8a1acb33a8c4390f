"""Every node's span from one whole parse of a text: the oracle the lazy reading of
:mod:`holodeck_mt.text.ranges` is checked against, node by node."""

from __future__ import annotations

import functools
from typing import Any

import yaml

from holodeck_mt.text.positions import Position
from holodeck_mt.text.ranges import Span

try:
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - exercised only without libyaml
    from yaml import SafeLoader as _Parser  # type: ignore[assignment]


@functools.lru_cache(maxsize=8)
def spans(text: str) -> dict[Position, tuple[Span, ...]]:
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
