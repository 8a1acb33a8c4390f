"""Locating a fault without the whole index of positions gives the same line and column.

The validator reads a file with the positions of its two top levels only, and reads a
test case's own lines again (or the whole text) when a fault needs locating (see
holodeck_mt.locate.locate). For every key and value of every fixture, golden input, example,
real sample and generated corpus, the answer is the one a reading with every position
gives (the long texts in the slow suite).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holodeck_mt.limits import Limits
from holodeck_mt.locate import locate
from holodeck_mt.model import MESSAGE, Fault, JsonPath, format_path
from holodeck_mt.read import loader
from holodeck_mt.text import ranges
from tests.conftest import ROOT, need_samples, sample_files, slow_if_long
from tests.strategies import documents, emit
from tests.support import corpus as gen

FILES = sorted(
    p
    for folder in ("tests/fixtures", "tests/golden/inputs", "tests/fix/inputs", "examples")
    for p in (ROOT / folder).rglob("*.y*ml")
)


def _texts() -> Iterator[tuple[str, str]]:
    for path in [*FILES, *sample_files("*.y*ml")]:
        try:
            yield str(path), path.read_bytes().decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            continue
    for seed in range(3):
        cases, _ = gen.corpus(40, errors=10, seed=seed)
        yield f"generated list {seed}", gen.dump(cases)
        yield f"generated agent {seed}", gen.dump(gen.agent_yaml(12, errors=4, seed=seed))


def _paths(data: Any, parts: JsonPath = ()) -> Iterator[JsonPath]:
    pending = [(data, parts)]
    while pending:
        node, at = pending.pop()
        yield at
        if isinstance(node, dict):
            pending.extend((value, (*at, key)) for key, value in node.items())
        elif isinstance(node, list):
            pending.extend((value, (*at, i)) for i, value in enumerate(node))


TEXTS = list(_texts())

#: Each text, and the slow suite's mark on a long one.
CASES = [pytest.param(name, text, id=name, marks=slow_if_long(len(text))) for name, text in TEXTS]


@pytest.mark.parametrize(("name", "text"), CASES)
def test_every_key_and_value_is_located_as_a_full_reading_locates_it(name: str, text: str) -> None:
    _locates_as_a_full_reading(text)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_a_generated_document_is_located_as_a_full_reading_locates_it(data: Any) -> None:
    _locates_as_a_full_reading(emit(data).text)


@pytest.mark.slow  # the fast suite draws ten documents
@settings(
    max_examples=int(os.environ.get("HOLODECK_MT_PROPERTY_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(documents())
def test_many_generated_documents_are_located_as_a_full_reading_locates_them(data: Any) -> None:
    _locates_as_a_full_reading(emit(data).text)


def _locates_as_a_full_reading(text: str) -> None:
    whole = loader.load(text, positions="all")
    top = loader.load(text, positions="top")
    if not whole.loaded or whole.diagnostics or whole.dialect:
        return  # the validator reads such a file with every position at once
    assert locate.is_same(top.data, whole.data)
    locator = locate.Locator(top, Limits())
    assert whole.positions is not None
    for parts in _paths(whole.data):
        for key in (False, True):
            expected = (
                whole.positions.key(whole.data, parts)
                if key
                else whole.positions.value(whole.data, parts)
            )
            assert locator.position(parts, key=key) == expected, (parts, key)


@pytest.mark.parametrize(("name", "text"), CASES)
def test_every_value_ends_where_the_text_says_it_ends(name: str, text: str) -> None:
    """The end found from a reading's own notes is the one parsing the text gives."""
    top = loader.load(text, positions="top")
    if not top.loaded or top.diagnostics or top.dialect or not isinstance(top.data, dict | list):
        return
    locator = locate.Locator(top, Limits())
    for parts in list(_paths(top.data))[:400]:
        for at in ("value", "key"):
            found = locator.diagnostic(Fault("HMT100", "m", parts, at=at))
            expected = ranges.end_of(text, found.line, found.column, key=at == "key")
            assert (found.end_line, found.end_column) == expected, (parts, at)


def test_a_block_scalar_ends_after_its_last_line_not_its_blank_lines() -> None:
    text = "name: a\ntest_cases:\n  - input: |\n      two\n      lines\n\n\n    name: b\n"
    top = loader.load(text, positions="top")
    found = locate.Locator(top, Limits()).diagnostic(Fault("HMT100", "m", ("test_cases", 0)))
    assert (found.end_line, found.end_column) == (8, 12)
    found = locate.Locator(top, Limits()).diagnostic(
        Fault("HMT100", "m", ("test_cases", 0, "input"))
    )
    assert (found.line, found.end_line, found.end_column) == (3, 5, 12)


def test_a_test_case_is_read_again_alone_and_only_once() -> None:
    cases, _ = gen.corpus(30, seed=4)
    text = gen.dump(cases)
    top = loader.load(text, positions="top")
    locator = locate.Locator(top, Limits())
    assert locator.position((7, "turns", 1, "input")) > (2, 0)
    assert locator.position((7, "turns", 0)) > (2, 0)
    assert list(locator._cases) == [7]
    assert locator._whole is None


def test_a_test_case_using_an_anchor_outside_its_lines_is_located_from_the_whole_text() -> None:
    text = (
        "- name: a\n  input: &q what was the revenue?\n  ground_truth: '1'\n"
        "- name: b\n  turns:\n  - input: *q\n    ground_truth: '2'\n"
    )
    locator = locate.Locator(loader.load(text, positions="top"), Limits())
    assert locator.position((1, "turns", 0, "ground_truth")) == (7, 19)
    assert locator._cases[1] is None
    assert locator._whole is not None


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ({"a": [1, 2.0]}, {"a": [1, 2.0]}, True),
        ({"a": 1}, {"a": 1.0}, False),
        ({"a": 1}, {"a": True}, False),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, False),
        ([math.nan], [math.nan], True),
        ([math.nan], [-math.nan], True),
        ({"a": 0.0}, {"a": -0.0}, True),
        ([1, [2]], [1, [2, 3]], False),
        ([1, 0], [True, False], False),
        ([None], [""], False),
        (["é", 2**70], ["é", 2**70], True),
    ],
)
def test_same_data_means_same_types_and_key_order(a: Any, b: Any, same: bool) -> None:
    assert locate.is_same(a, b) is same


def test_a_deep_document_does_not_exhaust_the_stack() -> None:
    deep: Any = []
    other: Any = []
    for _ in range(10 * sys.getrecursionlimit()):  # a recursive walk fails a tenth of the way
        deep, other = [deep], [other]
    assert locate.is_same(deep, other)


def test_the_fixture_set_is_not_empty() -> None:
    assert ROOT.is_dir()
    assert len(FILES) > 50


def test_the_real_samples_are_among_the_texts() -> None:
    samples = need_samples()
    assert any(Path(name).is_relative_to(samples) for name, _ in TEXTS)


_KEYS = st.one_of(
    st.integers(0, 12),
    st.text(alphabet='ab_"\\. 1', min_size=1, max_size=12),
    st.builds(lambda c, n: c * n, st.sampled_from(["k", "k.", '"', "\\"]), st.integers(1, 500)),
    st.builds(lambda n, tail: "k" * n + tail, st.integers(390, 410), st.sampled_from(["", "-"])),
)


@given(st.lists(_KEYS, max_size=4))
def test_a_path_with_its_keys_clipped_is_the_same_for_keys_that_fit(parts: list[Any]) -> None:
    # The located path clips each key first: a key of a megabyte is not copied or read
    # whole per diagnostic. Keys that fit are written as before; a path is as long as
    # its keys clipped, escaped, make it.
    path = format_path(parts, limit=MESSAGE)
    if all(isinstance(p, int) or len(p) <= MESSAGE for p in parts):
        assert path == format_path(parts)
    assert len(path) <= sum(2 * MESSAGE + 4 for _ in parts)


def test_a_long_key_is_written_as_its_shown_part_reads() -> None:
    key = "k" * 500 + "-x"  # not an identifier, but its first 399 characters are
    assert format_path(["turns", 0, key], limit=MESSAGE) == "turns[0]." + "k" * 399 + "…"
    assert format_path(["turns", 0, key]) == 'turns[0]["' + key + '"]'
