"""Where each YAML node stands in its text, and its characters exactly as written (``14.10``,
not ``14.1``): the extent the loader does not keep, read from the parser's events only as
far as the node asked about."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import yaml

from holodeck_mt.text.positions import Position, block_end

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
