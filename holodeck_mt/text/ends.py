"""Where an indexed collection ends, from what the first reading already saw.

The builder notes, for each collection whose positions it keeps, the parser event
that ended its last node. A diagnostic on such a collection (the list of test cases
over the limit, a test case) then finds its end without parsing the text up to it
again; the answer is the one :func:`holodeck_mt.text.ranges.end_of` gives.
"""

from __future__ import annotations

from typing import Any

from holodeck_mt.model import JsonPath
from holodeck_mt.text.positions import Position, Positions, line_column_after


def collection_end(
    text: str, positions: Positions, data: Any, parts: JsonPath, at: Position
) -> Position | None:
    """The 1-based line and column just after the collection at ``parts``, written at
    ``at``; None when the reading did not note its end (not a collection, not indexed,
    an alias written there)."""
    value = _value_at(data, parts)
    if type(value) is not dict and type(value) is not list:
        return None
    noted = positions.ends.get(id(value))
    if noted is None or at == positions.root:
        return None
    start, event = noted
    if start != at:
        return None  # an alias to it stands there: its extent is the alias's
    end = event.end_mark
    if getattr(event, "style", None) in ("|", ">"):  # ends after its last non-blank line
        first = event.start_mark
        index = first.index + len(text[first.index : end.index].rstrip(" \t\r\n"))
        return line_column_after(text, first.index, (first.line + 1, first.column + 1), index)
    return end.line + 1, end.column + 1


def _value_at(data: Any, parts: JsonPath) -> Any:
    node = data
    for part in parts:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node
