"""node_span/source_text: every node's extent, and its characters exactly as written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.read import loader
from holodeck_mt.text import ranges
from holodeck_mt.text.ranges import Span, node_span, source_text
from tests.conftest import FIXTURES, sample_files, slow_if_long

TEXT = """\
a: &x 14.10
é: [1, {b: 0x1F}]   # comment
s: |
  line one
  line two

t: 2001-12-14
  21:59:43.10-05:00
n:
k:
- "yes"
- 'it''s'
"""


def _text_at(text: str, line: int, column: int, **kwargs: Any) -> str | None:
    span = node_span(text, line, column, **kwargs)
    return None if span is None else source_text(text, span)


def test_a_scalar_is_its_characters_as_written_not_its_value() -> None:
    assert _text_at(TEXT, 2, 12) == "0x1F"
    assert _text_at(TEXT, 11, 3) == '"yes"'
    assert _text_at(TEXT, 12, 3) == "'it''s'"


def test_an_anchored_scalar_starts_at_its_anchor_as_the_loader_reports_it() -> None:
    assert _text_at(TEXT, 1, 4) == "&x 14.10"


def test_a_flow_collection_runs_to_its_closing_bracket() -> None:
    assert _text_at(TEXT, 2, 4) == "[1, {b: 0x1F}]"
    assert _text_at(TEXT, 2, 8) == "{b: 0x1F}"


def test_offsets_count_characters_not_bytes() -> None:
    span = node_span(TEXT, 2, 4)
    assert span is not None
    assert span.start_offset == TEXT.index("[1,")


def test_a_multi_line_plain_scalar_keeps_its_line_break() -> None:
    span = node_span(TEXT, 7, 4)
    assert span == Span(7, 4, 8, 20, TEXT.index("2001"), TEXT.index("\nn:"))
    assert source_text(TEXT, span) == "2001-12-14\n  21:59:43.10-05:00"


def test_a_block_scalar_ends_with_its_last_character_not_its_blank_lines() -> None:
    span = node_span(TEXT, 3, 4)
    assert span is not None
    assert source_text(TEXT, span) == "|\n  line one\n  line two"
    assert (span.end_line, span.end_column) == (5, 11)


def test_a_block_collection_ends_with_its_last_item() -> None:
    assert _text_at(TEXT, 11, 1) == "- \"yes\"\n- 'it''s'"


def test_a_block_mapping_and_its_first_key_start_together_the_mapping_comes_first() -> None:
    assert _text_at(TEXT, 1, 1) == TEXT.rstrip("\n")
    assert _text_at(TEXT, 1, 1, innermost=True) == "a"


def test_an_empty_value_is_an_empty_span() -> None:
    assert _text_at(TEXT, 9, 3) == ""


def test_nothing_starts_there_is_none() -> None:
    assert node_span(TEXT, 1, 2) is None
    assert node_span(TEXT, 99, 1) is None


def test_crlf_line_endings_count_as_one_break() -> None:
    text = "a: 1\r\nb: |\r\n  x\r\n\r\nc: 2\r\n"
    assert _text_at(text, 2, 4) == "|\r\n  x"
    span = node_span(text, 2, 4)
    assert span is not None and (span.end_line, span.end_column) == (3, 4)
    assert _text_at(text, 5, 4) == "2"


def test_the_nodes_before_a_syntax_error_keep_their_spans() -> None:
    text = "a: 14.10\nb: [1, 2\n"
    assert _text_at(text, 1, 4) == "14.10"
    assert node_span(text, 2, 4) is None  # never closed


def test_a_text_is_parsed_once_however_often_it_is_asked() -> None:
    text = "fresh: [1, 2]\nother: 3\n"
    before = ranges._events.cache_info().misses
    for _ in range(3):
        node_span(text, 1, 8)
        node_span(text, 2, 8)
    assert ranges._events.cache_info().misses == before + 1


def _values(data: Any, located: Any, positions: loader.Positions) -> Any:
    """(value, position) of every node the loader located, depth first."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield value, located[key]
            yield from _values(value, positions.values.get(id(value)), positions)
    elif isinstance(data, list):
        for value, position in zip(data, located, strict=True):
            yield value, position
            yield from _values(value, positions.values.get(id(value)), positions)


def _corpus() -> list[Any]:
    files = sorted((FIXTURES / "valid").rglob("*.yaml"))
    files += sample_files("*.yaml")
    return [pytest.param(p, id=p.name, marks=slow_if_long(p.stat().st_size)) for p in files]


@pytest.mark.parametrize("path", _corpus())
def test_every_value_the_loader_locates_has_a_span_that_reads_back_as_that_value(
    path: Path,
) -> None:
    text = path.read_text(encoding="utf-8")
    doc = loader.load(text)
    assert doc.positions is not None
    positions = doc.positions
    for value, (line, column) in _values(doc.data, positions.values.get(id(doc.data)), positions):
        span = node_span(text, line, column)
        assert span is not None, (path, line, column)
        written = source_text(text, span)
        if isinstance(value, (str, int, float, bool)) and not written.startswith(("&", "!", "*")):
            # Written where it stands, the node's own text reads back as the same value.
            # (A block scalar's span stops at its last character, before its line break.)
            ending = "\n" if written.startswith(("|", ">")) else ""
            assert loader.load(written + ending).data == value, (path, line, column, written)
