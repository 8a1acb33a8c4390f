"""The schema check (scripts/schema_check.py) passes, and catches what it is there to catch."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.contract import registry as schemas
from scripts import schema_check as sc

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, scope="module")
def _each_file_against_the_metaschema_once() -> Iterator[None]:
    """A file's verdict against the metaschema is its own (the check reads no other): here
    each file as written is judged once, not once per check that reads the whole set."""
    judged: dict[str, list[str]] = {}
    check = sc.check_metaschema

    def once(files: dict[str, dict[str, Any]]) -> list[str]:
        problems = []
        for file_id, schema in files.items():
            key = json.dumps([file_id, schema], sort_keys=True)
            if key not in judged:
                judged[key] = check({file_id: schema})
            problems += judged[key]
        return problems

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sc, "check_metaschema", once)
        yield


def _files() -> dict[str, dict[str, Any]]:
    return copy.deepcopy(schemas.schema_files())


def _contract() -> str | None:
    path: Path = sc.DEFAULT_CONTRACT
    return path.read_text(encoding="utf-8") if path.is_file() else None


def test_every_schema_file_is_valid_against_the_2020_12_metaschema() -> None:
    assert sc.check_metaschema(schemas.schema_files()) == []


def test_every_ref_resolves_offline_through_the_registry() -> None:
    problems, count = sc.check_refs(schemas.schema_files())
    assert problems == []
    assert count > 20


def test_every_property_has_description_markdown_and_examples() -> None:
    problems, count = sc.check_docs(schemas.schema_files())
    assert problems == []
    assert count > 50


def test_every_example_validates_against_its_own_subschema() -> None:
    problems, count = sc.check_examples(schemas.schema_files())
    assert problems == []
    assert count > 50


def test_every_default_snippet_validates_where_it_goes() -> None:
    problems, count = sc.check_snippets(schemas.schema_files())
    assert problems == []
    assert count >= 11


def test_every_contract_example_copy_validates_and_matches_the_contract() -> None:
    problems, count = sc.check_contract_examples(contract=_contract())
    assert problems == []
    assert count == 8


def test_schema_check_prints_one_summary_line_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert sc.main([]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert out.startswith("schema-check: ok:")


def test_a_missing_contract_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert sc.main(["--contract", str(tmp_path / "nope.md")]) == 2
    assert "no such file" in capsys.readouterr().err


# --- what the check catches --------------------------------------------------


def test_an_example_that_breaks_its_own_bound_is_caught() -> None:
    files = _files()
    tool = files[schemas.BASE_URI + "expected-tool.schema.json"]
    tool["$defs"]["ToolCall"]["properties"]["count"]["examples"].append(0)
    problems, _ = sc.check_examples(files, sc.registry_for(files))
    assert len(problems) == 1
    assert "ToolCall/properties/count: examples[2] 0 is invalid" in problems[0]


def test_an_example_of_a_ref_property_is_checked_against_the_referenced_def() -> None:
    files = _files()
    turn = files[schemas.BASE_URI + "turn.schema.json"]
    turn["$defs"]["Turn"]["properties"]["expected_tools"]["examples"].append([{"count": 2}])
    problems, _ = sc.check_examples(files, sc.registry_for(files))
    assert len(problems) == 1
    assert "Turn/properties/expected_tools" in problems[0]


def test_an_unresolvable_ref_is_caught() -> None:
    files = _files()
    turn = files[schemas.BASE_URI + "turn.schema.json"]
    turn["$defs"]["Turn"]["properties"]["input"]["$ref"] = "missing.schema.json#/$defs/Text"
    problems, _ = sc.check_refs(files, sc.registry_for(files))
    assert len(problems) == 1
    assert "missing.schema.json" in problems[0]


def test_a_schema_invalid_against_the_metaschema_is_caught() -> None:
    files = _files()
    files[schemas.BASE_URI + "turn.schema.json"]["$defs"]["Turn"]["required"] = "input"
    problems = sc.check_metaschema(files)
    assert len(problems) == 1
    assert problems[0].startswith("turn.schema.json: not a valid 2020-12 schema")


def test_a_snippet_invalid_where_it_goes_is_caught() -> None:
    files = _files()
    metric = files[schemas.BASE_URI + "metric.schema.json"]["$defs"]["Metric"]
    metric["defaultSnippets"].append(
        {"label": "broken", "description": "x", "body": {"type": "code", "grader": "${1:nocolon}"}}
    )
    problems, _ = sc.check_snippets(files, sc.registry_for(files))
    assert len(problems) == 1
    assert "snippet 'broken' is invalid here" in problems[0]


def test_an_undocumented_property_is_caught() -> None:
    files = _files()
    turn = files[schemas.BASE_URI + "turn.schema.json"]["$defs"]["Turn"]["properties"]
    del turn["turn_config"]["markdownDescription"]
    problems, _ = sc.check_docs(files)
    assert problems == [
        "turn.schema.json#/$defs/Turn/properties/turn_config: no `markdownDescription`"
    ]


def test_snippet_placeholders_expand_to_their_defaults_as_the_editor_writes_them() -> None:
    body = {"${1:a}": {"fuzzy": '^"${2:206588}"'}, "grader": "${3:mod}:${4:fn}", "n": 2}
    assert sc.expand_snippet(body) == {"a": {"fuzzy": "206588"}, "grader": "mod:fn", "n": 2}
    # Written as it stands, an unquoted number-like string is read back as a number.
    assert sc.expand_snippet({"fuzzy": "${1:206588}"}) == {"fuzzy": 206588}
    assert sc.expand_snippet({"flag": "true"}) == {"flag": "true"}
    with pytest.raises(ValueError):
        sc.expand_snippet({"name": "$1"})


def test_a_broken_contract_copy_is_caught(tmp_path: Path) -> None:
    for name in sc.CONTRACT_EXAMPLES.values():
        text = (sc.CONTRACT_EXAMPLES_DIR / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text, encoding="utf-8")
    broken = tmp_path / "section-8.1-minimal-multi-turn.yaml"
    broken.write_text(broken.read_text().replace('- input: "hi"', "- inputs: hi"))
    problems, _ = sc.check_contract_examples(tmp_path)
    assert len(problems) == 1
    assert "section-8.1-minimal-multi-turn.yaml: invalid" in problems[0]


def test_a_stale_contract_copy_is_caught() -> None:
    contract = (
        '# Contract\n\n## 1. Grammar\n\n```yaml\ntest_cases:\n  - name: "renamed"\n'
        '    input: "hello"\n```\n'
    )
    problems, _ = sc.check_contract_examples(contract=contract)
    assert any("section-1-grammar.yaml: stale" in p for p in problems)
    assert any("section 3 has no ```yaml block" in p for p in problems)


def test_a_block_indented_uniformly_still_counts_as_verbatim() -> None:
    block = "- a: 1\n\n  b: 2"
    assert sc.contains_block("x:\n    - a: 1\n\n      b: 2\n", block)
    assert not sc.contains_block("x:\n    - a: 1\n\n     b: 2\n", block)


def _sources() -> dict[str, dict[str, Any]]:
    return copy.deepcopy(schemas.source_files())


def test_the_files_as_written_are_valid_expandable_and_repeat_no_description() -> None:
    problems, count = sc.check_source(schemas.source_files())
    assert problems == []
    assert count > 150


def test_a_written_markdown_that_only_repeats_the_description_is_a_problem() -> None:
    files = _sources()
    node = files[schemas.BASE_URI + "turn.schema.json"]["$defs"]["Turn"]["properties"][
        "turn_config"
    ]
    node["markdownDescription"] = (
        "Free-form settings handed to code graders for this turn (any mapping). Default: none."
        '\n\n```yaml\nturn_config:\n  turn_program: "subtract(206588, 181001)"\n```'
    )
    problems, _ = sc.check_source(files)
    assert problems == [
        "turn.schema.json#/$defs/Turn/properties/turn_config: `markdownDescription` repeats "
        "`description` around its example: write the example as `x-holodeck-yaml` instead"
    ]


def test_a_written_markdown_that_says_more_than_the_description_is_no_problem() -> None:
    files = _sources()
    node = files[schemas.BASE_URI + "turn.schema.json"]["$defs"]["Turn"]["properties"][
        "turn_config"
    ]
    node["markdownDescription"] = (
        "**Free-form** settings handed to code graders for this turn (any mapping). Default: none."
        '\n\n```yaml\nturn_config:\n  turn_program: "subtract(206588, 181001)"\n```'
    )
    assert sc.check_source(files)[0] == []


def test_files_as_written_that_cannot_be_expanded_are_a_problem() -> None:
    files = _sources()
    turn = files[schemas.BASE_URI + "turn.schema.json"]["$defs"]["Turn"]
    turn["properties"]["files"] = {"type": "array"}
    problems, _ = sc.check_source(files)
    assert problems == [
        f"cannot expand: {schemas.BASE_URI}turn.schema.json#/$defs/Turn: ['files'] defined twice"
    ]
