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

try:  # the C parser (libyaml); PyYAML without it parses the same, only slower
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - exercised only without libyaml
    from yaml.parser import Parser as _PyParser
    from yaml.reader import Reader as _Reader
    from yaml.scanner import Scanner as _Scanner

    class _Parser(_Reader, _Scanner, _PyParser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            _Reader.__init__(self, stream)
            _Scanner.__init__(self)
            _PyParser.__init__(self)


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
    found = _spans(text).get((line, column))
    if found is None:
        return None
    return found[-1] if innermost else found[0]


def source_text(text: str, span: Span) -> str:
    """The node's characters exactly as they are written in ``text``."""
    return text[span.start_offset : span.end_offset]


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def _spans(text: str) -> dict[Position, tuple[Span, ...]]:
    """Every node's span, by start position, outermost first."""
    found: dict[Position, list[Span]] = {}
    # Open collections: (start mark, flow style, end mark of the last child)
    open_nodes: list[list[Any]] = []

    def add(start: Any, end_index: int, end_line: int, end_column: int) -> None:
        span = Span(
            start.line + 1,
            start.column + 1,
            end_line + 1,
            end_column + 1,
            start.index,
            end_index,
        )
        if open_nodes:  # the parent extends at least to the end of this child
            open_nodes[-1][2] = (end_index, end_line, end_column)
        spans = found.setdefault((span.start_line, span.start_column), [])
        if spans and spans[-1].start_offset == spans[-1].end_offset:
            spans.pop()  # an empty (null) node gives way to a node written there
        if not spans or span.end_offset > span.start_offset:
            spans.append(span)

    parser = _Parser(text)
    try:
        while True:
            event: Any = parser.get_event()
            kind = type(event)
            if event is None or kind is yaml.StreamEndEvent:
                break
            if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
                end = event.end_mark
                index, line, column = end.index, end.line, end.column
                if kind is yaml.ScalarEvent and event.style in ("|", ">"):
                    index, line, column = _trim_trailing_space(text, event.start_mark.index, end)
                add(event.start_mark, index, line, column)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                mark = event.end_mark
                open_nodes.append(
                    [event.start_mark, event.flow_style, (mark.index, mark.line, mark.column)]
                )
            elif (kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent) and open_nodes:
                start, flow, last = open_nodes.pop()
                if flow:  # ends with its closing bracket
                    mark = event.end_mark
                    last = (mark.index, mark.line, mark.column)
                add(start, *last)
    except yaml.YAMLError:
        pass  # the nodes read before the error keep their spans
    # Outermost first: of the nodes starting at one place, the longer holds the shorter.
    return {
        position: tuple(sorted(spans, key=lambda s: s.start_offset - s.end_offset))
        for position, spans in found.items()
    }


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
