"""node_span's lazy reading ends every node where one whole parse (tests.support.whole_parse)
ends it.

It reads a text's events only as far as the node asked about (and keeps them for the next
question), so a fault near the top of a large file does not cost a parse of the file. For
every node of every fixture and golden input, in order and backwards, both give the same
end, outermost and innermost; a diagnostic's range on the document's root spans its text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt import layout
from holodeck_mt.read import loader
from holodeck_mt.text import ranges
from tests.conftest import ROOT, sample_files
from tests.support import corpus as gen
from tests.support import whole_parse

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow


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
    spans = whole_parse.spans(text)
    ranges._events.cache_clear()  # questions in this order, from a fresh reading
    for (line, column), found in sorted(spans.items(), reverse=backwards):
        for key, span in ((False, found[0]), (True, found[-1])):
            if span.end_offset == span.start_offset:
                continue
            assert ranges.node_span(text, line, column, innermost=key) == span, (line, column)
            got = ranges.end_of(text, line, column, key=key)
            if not key and (line, column) == ranges.root_position(text):
                continue  # a diagnostic on the root spans the whole text
            assert got == (span.end_line, span.end_column), (line, column, key)


def _texts_with_test_cases() -> list[tuple[str, str]]:
    named = []
    for path in [*FILES, *sample_files("*.y*ml")]:
        try:
            named.append((str(path), path.read_bytes().decode("utf-8").removeprefix("\ufeff")))
        except UnicodeDecodeError:
            continue
    for seed in range(3):
        cases, _ = gen.corpus(40, errors=10, seed=seed)
        named.append((f"generated list {seed}", gen.dump(cases)))
        named.append((f"generated agent {seed}", gen.dump(gen.agent_yaml(12, errors=4, seed=seed))))
    return named


def test_a_test_cases_own_lines_end_every_node_as_the_whole_text_does() -> None:
    """Locating from a test case's lines alone (``within``) changes no range."""
    checked = 0
    for name, text in _texts_with_test_cases():
        doc = loader.load(text)
        found = layout.test_case_list(doc.data) if doc.loaded else None
        if found is None or doc.positions is None:
            continue
        cases, base = found
        spans = whole_parse.spans(text)
        for index in range(len(cases)):
            item = doc.positions.value(doc.data, (*base, index))
            following = (
                doc.positions.value(doc.data, (*base, index + 1))
                if index + 1 < len(cases)
                else None
            )
            within = ranges.item_lines(text, item, following)
            if within is None:
                continue
            _, after = within
            for (line, column), nodes in spans.items():
                if (line, column) < item or (after is not None and line >= after):
                    continue  # the list itself, or the next test case
                for key, span in ((False, nodes[0]), (True, nodes[-1])):
                    if span.end_offset == span.start_offset:
                        continue
                    got = ranges.end_of(text, line, column, key=key, within=within)
                    assert got == (span.end_line, span.end_column), (name, line, column, key)
                    checked += 1
    assert checked > 10_000
