"""Where things stand in a text: offsets to lines and columns (YAML's line breaks, as the
parser's marks count them), and the index of a document."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from holodeck_mt import model as dg
from holodeck_mt.text.lines import LINE_BREAKS

Position = tuple[int, int]  # 1-based line and column


def line_column(text: str, offset: int) -> Position:
    """The 1-based line and column (in characters) of ``text[offset]``."""
    breaks = sum(text.count(brk, 0, offset) for brk in LINE_BREAKS) - text.count("\r\n", 0, offset)
    start = max(text.rfind(brk, 0, offset) for brk in LINE_BREAKS) + 1
    return breaks + 1, offset - start + 1


def line_column_after(text: str, anchor: int, at: Position, offset: int) -> Position:
    """:func:`line_column` of ``offset``, knowing that ``text[anchor]`` stands at ``at``: it
    reads ``text[anchor:offset]`` only, so many positions found in one pass cost that pass."""
    chunk = text[anchor:offset]
    breaks = sum(chunk.count(brk) for brk in LINE_BREAKS) - chunk.count("\r\n")
    if not breaks:
        return at[0], at[1] + len(chunk)
    start = max(chunk.rfind(brk) for brk in LINE_BREAKS) + 1
    return at[0] + breaks, len(chunk) - start + 1


def block_end(text: str, start: int, at: Position, end: int) -> tuple[int, int, int]:
    """Where a block scalar written from ``start`` (at ``at``) to ``end`` ends: after its
    last non-blank character, not its blank lines; the offset, line and column."""
    index = start + len(text[start:end].rstrip(" \t\r\n"))
    return index, *line_column_after(text, start, at, index)


def of_mark(mark: Any) -> Position:
    """The 1-based position of a parser mark (0-based line and column)."""
    return mark.line + 1, mark.column + 1


@dataclass
class Positions:
    """Where each key and value of a loaded document stands, by the identity of the mapping
    or list holding it: a lookup walks the data, no path is stored for every node."""

    root: Position = (1, 1)
    keys: dict[int, dict[str, Position]] = field(default_factory=dict)
    values: dict[int, Any] = field(default_factory=dict)
    #: Beside ``values``: each value's start offset and a record of the parser event
    #: that ended it (see :func:`holodeck_mt.locate.locate._value_end`); merged keys have none.
    value_ends: dict[int, Any] = field(default_factory=dict)

    def value(self, data: Any, parts: dg.JsonPath) -> Position:
        """Position of the value at ``parts``, or of its nearest located ancestor."""
        found, node = self.root, data
        for part in parts:
            located: Any = self.values.get(id(node))
            if isinstance(part, int):
                held = isinstance(located, list) and 0 <= part < len(located)
            else:
                held = isinstance(located, dict) and part in located
            if not held:
                break
            found = located[part]
            node = node_at(node, (part,))
        return found

    def key(self, data: Any, parts: dg.JsonPath) -> Position:
        """Position of the key at the end of ``parts`` (its value's for a list index)."""
        if parts and isinstance(parts[-1], str):
            located = self.keys.get(id(node_at(data, parts[:-1])))
            found = located.get(parts[-1]) if located is not None else None
            if found is not None:  # one lookup: a long key is compared once
                return found
        return self.value(data, parts)


def node_at(data: Any, parts: dg.JsonPath) -> Any:
    """The node of ``data`` at ``parts``; None when there is none."""
    for part in parts:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data
