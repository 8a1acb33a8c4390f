"""The single-file bundle validates exactly like the schema files, and is up to date."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT202012

from holodeck_mt.contract.keywords import extend
from holodeck_mt.contract.registry import DOCUMENT, validator
from holodeck_mt.read.loader import load
from scripts import bundle_schema

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "schema" / "bundle" / "holodeck-mt.schema.json"

#: Small documents, valid and not, so the comparison never runs on an empty corpus.
INLINE: dict[str, str] = {
    "single-turn": 'test_cases:\n  - name: g\n    input: hello\n    ground_truth: "hi"\n',
    "multi-turn": "test_cases:\n  - turns:\n      - input: hi\n      - input: ho\n",
    "input-and-turns": "test_cases:\n  - input: x\n    turns:\n      - input: hi\n",
    "ground-truth-and-turns": "test_cases:\n  - ground_truth: x\n    turns:\n      - input: y\n",
    "empty-turns": "test_cases:\n  - name: e\n    turns: []\n",
    "neither": "test_cases:\n  - name: n\n",
    "files-beside-turns": (
        "test_cases:\n  - files: [{path: a.png, type: image}]\n    turns:\n      - input: hi\n"
    ),
    "fuzzy-and-regex": (
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n"
        "          - name: t\n            args: {a: {fuzzy: '1', regex: '1'}, b: {fuzzy: 2}}\n"
    ),
    "literal-args": (
        "test_cases:\n  - input: hi\n    expected_tools:\n      - lookup\n"
        "      - {name: subtract, args: {a: 1, items: [1, 2], opts: {mode: fast}}, count: 0}\n"
    ),
    "negative-tolerance": (
        "evaluations:\n  metrics:\n"
        "    - {type: standard, metric: numeric, absolute_tolerance: -1}\n"
        "    - {metric: numeric}\n"
        "test_cases:\n  - input: x\n    evaluations:\n      - {type: code, grader: 'm:f'}\n"
        "      - {metric_type: faithfulness, threshold: 2}\n"
    ),
    "both-test-cases-and-file": "test_cases_file: t.yaml\ntest_cases:\n  - input: x\n",
    "test-cases-file-list": "- input: x\n- turns: [{input: y, turn_config: {p: 1}}]\n- 3\n",
    "test-cases-file-mapping": "test_cases:\n  - input: x\nextra: 1\n",
    "scalar-document": "just text\n",
}


@cache
def _corpus() -> list[tuple[str, Any]]:
    """Each fixture, example and inline document that loads into JSON data, and its data:
    one that does not is the loader's to report, not the schema's, and is left out here."""
    files = [
        path
        for folder in (ROOT / "tests" / "fixtures", ROOT / "examples")
        if folder.is_dir()
        for path in sorted(folder.rglob("*"))
        if path.suffix in {".yaml", ".yml"}
    ]
    # A file that is not UTF-8 (the encoding fixture) is judged on its replaced text.
    cases = [
        (str(path.relative_to(ROOT)), path.read_bytes().decode("utf-8", errors="replace"))
        for path in files
    ]
    loaded = [(name, load(text, positions=False)) for name, text in cases + sorted(INLINE.items())]
    return [(name, d.data) for name, d in loaded if d.loaded and not d.has_non_json]


#: A document of more test cases than this is compared in the slow suite (a thousand faulty
#: test cases take each validator most of a second).
MOST_FAST_CASES = 100


def corpus_params() -> list[Any]:
    """The corpus as parameters, each named, the largest documents marked slow."""
    return [
        pytest.param(
            name,
            data,
            id=name,
            marks=[pytest.mark.slow] if _test_cases(data) > MOST_FAST_CASES else [],
        )
        for name, data in _corpus()
    ]


def _test_cases(data: Any) -> int:
    found = data.get("test_cases") if isinstance(data, dict) else data
    return len(found) if isinstance(found, list) else 0


def _refuse(uri: str) -> Resource[Any]:
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]


@cache
def _bundle_validator() -> Draft202012Validator:
    schema = json.loads(BUNDLE.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    resource = Resource.from_contents(schema, default_specification=DRAFT202012)
    registry: Registry[Any] = Registry(retrieve=_refuse).with_resource(  # type: ignore[call-arg]
        schema["$id"], resource
    )
    # The keywords the validator applies (a pattern's `$` is the end of the text): the
    # bundle is compared with the schema files, not one engine with another.
    return extend(Draft202012Validator)(schema, registry=registry)  # type: ignore[return-value]


def _error_paths(checker: Draft202012Validator, data: Any) -> set[tuple[str | int, ...]]:
    return {tuple(error.absolute_path) for error in checker.iter_errors(data)}


def test_the_bundle_is_up_to_date_with_the_schema_files(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = bundle_schema.main(["--check"])
    assert code == 0, capsys.readouterr().err


def test_the_bundle_refers_only_to_its_own_definitions() -> None:
    text = BUNDLE.read_text(encoding="utf-8")
    refs = {part.split('"', 1)[0] for part in text.split('"$ref": "')[1:]}
    assert refs, "the bundle holds no $ref at all"
    assert all(ref.startswith("#/$defs/") for ref in refs), sorted(refs)


def test_the_corpus_holds_every_inline_document_and_leaves_out_what_does_not_load() -> None:
    names = [name for name, _ in _corpus()]
    assert set(INLINE) <= set(names)
    assert "tests/fixtures/invalid/loading/unclosed-quote.yaml" not in names
    assert len(names) > 200
    slow = [p.id for p in corpus_params() if p.marks]
    assert slow == ["tests/fixtures/invalid/platform/1001-test-cases.yaml"]


@pytest.mark.parametrize(("name", "data"), corpus_params())
def test_the_bundle_judges_every_document_like_the_schema_files(name: str, data: Any) -> None:
    # The same paths in error: the same verdict too (none, or some).
    assert _error_paths(_bundle_validator(), data) == _error_paths(validator(DOCUMENT), data)
