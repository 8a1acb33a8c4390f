"""The benchmark corpus generator: deterministic, valid when clean, faulty where told."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from holodeck_mt import pipeline as validate
from holodeck_mt.contract import registry as schemas
from holodeck_mt.read import loader
from tests.support import corpus as gen

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def _generate(tmp_path: Path, *args: str) -> bytes:
    out = tmp_path / "out.yaml"
    assert gen.main([*args, "--out", str(out)]) == 0
    return out.read_bytes()


def _load(text: str) -> Any:
    document = loader.load(text)
    assert document.diagnostics == []
    return document.data


def _schema_errors(data: Any, root: str = schemas.TEST_CASES_FILE) -> list[Any]:
    return list(schemas.validator(root).iter_errors(data))


def _walk(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_same_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    first = _generate(tmp_path, "--conversations", "40", "--seed", "7", "--errors", "5")
    again = _generate(tmp_path, "--conversations", "40", "--seed", "7", "--errors", "5")
    other = _generate(tmp_path, "--conversations", "40", "--seed", "8", "--errors", "5")
    assert first == again
    assert first != other


@pytest.mark.parametrize("layout", ["list", "mapping"])
def test_a_clean_corpus_is_valid(tmp_path: Path, layout: str) -> None:
    text = _generate(tmp_path, "--conversations", "150", "--format", layout).decode()
    data = _load(text)
    assert _schema_errors(data) == []
    cases = data if layout == "list" else data["test_cases"]
    assert len(cases) == 150


def test_a_clean_corpus_draws_no_diagnostic_at_all(tmp_path: Path) -> None:
    """The benchmark's valid file has nothing to report, not even a run-time warning:
    a metric name keeps its settings wherever it recurs, and each regex accepts the
    float form of the number it matches."""
    out = tmp_path / "clean.yaml"
    assert gen.main(["--conversations", "400", "--seed", "5", "--out", str(out)]) == 0
    (result,) = validate.validate_file(out)
    assert [(d.code, d.line, d.message) for d in result.diagnostics] == []


def test_a_clean_agent_yaml_is_valid(tmp_path: Path) -> None:
    data = _load(_generate(tmp_path, "--agent-yaml", "--conversations", "8").decode())
    assert _schema_errors(data, schemas.DOCUMENT) == []
    assert len(data["test_cases"]) == 8


def test_the_corpus_holds_every_construct_of_the_schema() -> None:
    cases, _ = gen.corpus(400, seed=3)
    nodes = [node for node in _walk(cases) if isinstance(node, dict)]
    metrics = [m for case in nodes for m in case.get("evaluations", [])]
    regexes = [node["regex"] for node in nodes if "regex" in node]
    assert any(node.get("fuzzy") for node in nodes)
    assert any("(?P<" in regex for regex in regexes)
    for regex in regexes:
        re.compile(regex)
    args = [value for node in nodes for value in node.get("args", {}).values()]
    assert any(isinstance(value, (int, float)) for value in args)
    assert any(isinstance(value, list) for value in args)
    assert any(
        isinstance(value, dict) and "fuzzy" not in value and "regex" not in value for value in args
    )
    assert any(node.get("count") for node in nodes if "args" in node)
    kinds = {m.get("type") for m in metrics}
    assert kinds == {None, "standard", "geval", "rag", "code"}
    standard = {m["metric"] for m in metrics if "metric" in m}
    assert {"equality", "numeric"} <= standard
    assert any(m.get("accept_percent") for m in metrics)
    assert any(m.get("case_insensitive") for m in metrics)
    assert any("grader" in m and "type" not in m for m in metrics)
    turns = [turn for case in cases for turn in case.get("turns", [])]
    assert any("files" in turn for turn in turns)
    assert any("retrieval_context" in turn for turn in turns)
    assert any("evaluations" in case and "turns" in case for case in cases)
    single = sum("input" in case for case in cases)
    assert 0.02 * len(cases) <= single <= 0.08 * len(cases)
    counts = [len(case["turns"]) for case in cases if "turns" in case]
    assert min(counts) == 2 and max(counts) == 5
    assert 3.5 <= sum(counts) / len(counts) <= 4.3


def test_first_turns_carry_a_filing_excerpt_with_a_markdown_table() -> None:
    cases, _ = gen.corpus(100, seed=0)
    firsts = [case["turns"][0]["input"] for case in cases if "turns" in case]
    excerpts = [text for text in firsts if text.startswith("Filing excerpt:")]
    assert len(excerpts) >= 0.8 * len(firsts)
    for text in excerpts:
        assert 2000 <= len(text.encode()) <= 3200
        assert "\n|---|" in text
    names = [case["name"] for case in cases]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"(Double|Single)_[A-Z]+/\d{4}/page_\d+\.pdf(-\d+)*", n) for n in names)


@pytest.mark.parametrize("layout", ["list", "mapping"])
def test_each_planted_fault_makes_its_own_test_case_invalid(tmp_path: Path, layout: str) -> None:
    errors = 2 * len(gen.FAULT_KINDS)
    text = _generate(
        tmp_path,
        "--conversations",
        "60",
        "--errors",
        str(errors),
        "--format",
        layout,
        "--seed",
        "5",
    ).decode()
    data = _load(text)
    faults = gen.plan_faults(60, errors, 5)
    assert len({index for index, _ in faults}) == errors
    assert {kind for _, kind in faults} == set(gen.FAULT_KINDS)

    depth = 0 if layout == "list" else 1
    invalid = {error.absolute_path[depth] for error in _schema_errors(data)}
    schema_faults = {index for index, kind in faults if kind not in gen.SEMANTIC_ONLY}
    assert invalid == schema_faults

    cases = data if layout == "list" else data["test_cases"]
    for index, kind in faults:
        if kind in gen.SEMANTIC_ONLY:
            regexes = [
                n["regex"] for n in _walk(cases[index]) if isinstance(n, dict) and "regex" in n
            ]
            broken = []
            for regex in regexes:
                try:
                    re.compile(regex)
                except re.error:
                    broken.append(regex)
            assert broken, f"test case {index} holds no regex that fails to compile"


def test_a_fault_changes_nothing_but_its_test_case() -> None:
    clean, _ = gen.corpus(50, seed=1)
    faulty, faults = gen.corpus(50, errors=1, seed=1)
    ((index, _),) = faults
    differing = [i for i, (a, b) in enumerate(zip(clean, faulty, strict=True)) if a != b]
    assert differing == [index]


def test_errors_beyond_the_test_cases_are_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        gen.main(["--conversations", "3", "--errors", "4", "--out", str(tmp_path / "x.yaml")])
    assert exit_info.value.code == 2


def test_size_is_about_3_kb_per_conversation_and_grows_linearly() -> None:
    small = len(gen.dump(gen.corpus(200, seed=0)[0]).encode())
    large = len(gen.dump(gen.corpus(400, seed=0)[0]).encode())
    assert 2600 <= small / 200 <= 3500
    assert 1.9 <= large / small <= 2.1


# --- the YAML writer -------------------------------------------------------------

_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(list(" \n\t'\"\\#:-?,[]{}&*!|>%@`abcXYZ019.")),
        st.characters(exclude_categories=["Cs"]),
    ),
    max_size=300,
)


def _roundtrip(document: Any) -> None:
    text = gen.dump(document)
    assert YAML(typ="safe").load(text) == document
    assert _load(text) == document


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_any_string_reads_back_as_written(value: str) -> None:
    _roundtrip({"key": value, "list": [value, {"nested": value}]})


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(["word", "it's", "a", "b:c", "#x", "-", "\n", "  ", "yes", "\t", "x" * 90]),
        max_size=120,
    )
)
def test_long_folded_strings_read_back_as_written(words: list[str]) -> None:
    _roundtrip([" ".join(words), {"input": " ".join(words)}])


@pytest.mark.parametrize(
    "value",
    [
        "206588",
        "0.05995",
        "true",
        "yes",
        "null",
        "~",
        "2014-12-31",
        "1e3",
        "-",
        "a: b",
        "a #b",
        "",
        "x",
    ],
)
def test_strings_that_look_like_other_scalars_stay_strings(value: str) -> None:
    _roundtrip({"ground_truth": value})


@pytest.mark.parametrize("value", [0, -3, 0.5, 1e-6, 31903.61446, True, False, None])
def test_numbers_booleans_and_null_keep_their_type(value: Any) -> None:
    _roundtrip({"value": value})
