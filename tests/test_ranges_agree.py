"""node_span's lazy reading ends every node where the whole parse (source._spans) ends it.

It reads a text's events only as far as the node asked about (and keeps them for the next
question), so a fault near the top of a large file does not cost a parse of the file. For
every node of every fixture and golden input, in order and backwards, both give the same
end, outermost and innermost; a diagnostic's range on the document's root spans its text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt import ranges, source
from tests.conftest import ROOT

FILES = sorted(
    p
    for folder in ("tests/fixtures", "tests/golden/inputs", "tests/fix/inputs", "examples")
    for p in (ROOT / folder).rglob("*.y*ml")
)


@pytest.mark.parametrize("backwards", [False, True], ids=["in-order", "backwards"])
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_node_ends_where_source_ends_it(path: Path, backwards: bool) -> None:
    try:
        text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8")
    spans = source._spans(text)
    source._events.cache_clear()  # questions in this order, from a fresh reading
    for (line, column), found in sorted(spans.items(), reverse=backwards):
        for key, span in ((False, found[0]), (True, found[-1])):
            if span.end_offset == span.start_offset:
                continue
            assert source.node_span(text, line, column, innermost=key) == span, (line, column)
            got = ranges.end_of(text, line, column, key=key)
            if not key and (line, column) == source.root_position(text):
                continue  # a diagnostic on the root spans the whole text
            assert got == (span.end_line, span.end_column), (line, column, key)
