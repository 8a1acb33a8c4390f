"""Where a value ends, from the record of the parser event that ended it the builder noted
(:func:`holodeck_mt.read.builder.end_record`): no second parse; the answer
:func:`holodeck_mt.text.ranges.end_of` gives, or None where that needs the text."""

from __future__ import annotations

from typing import Any

from holodeck_mt.model import JsonPath
from holodeck_mt.text.positions import Position, Positions, block_end, node_at


def value_end(
    text: str, positions: Positions, data: Any, parts: JsonPath, at: Position
) -> Position | None:
    """The 1-based line and column just after the value at ``parts``, written at ``at``;
    None when the reading did not note it."""
    if not parts:
        return None  # the document: its text, trailing space aside (see ranges)
    parent = node_at(data, parts[:-1])
    noted = positions.value_ends.get(id(parent))
    if noted is None or positions.values.get(id(parent)) is None:
        return None
    part = parts[-1]
    try:
        start, record = noted[part]
        written = positions.values[id(parent)][part]
    except (KeyError, IndexError, TypeError):
        return None
    if written != at or record is None:
        return None
    first_index, first_line, first_column, index, line, column, style = record
    line, column = line + 1, column + 1
    if style is not None:
        index, line, column = block_end(
            text, first_index, (first_line + 1, first_column + 1), index
        )
    return (line, column) if index > start else None
