"""The schema files as written say each fact once; expanded, they judge every document alike.

holodeck_mt/contract/expansion.py writes out what the source says once (the turn fields,
the fields a multi-turn test case refuses, the markdown around a YAML example); the
validators, the bundle and the docs read the expanded files. Here: the source is plain
JSON Schema that accepts and refuses exactly what the expanded files do, the turn fields
are written in one place of it, and an expansion that cannot be made is refused.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from holodeck_mt.contract import registry
from holodeck_mt.contract.expansion import ExpansionError, expand, markdown
from holodeck_mt.contract.keywords import extend
from holodeck_mt.contract.walker import REFUSES, YAML, subschemas
from tests.contract.test_bundle import corpus_params

TURN = registry.BASE_URI + "turn.schema.json"
TEST_CASE = registry.BASE_URI + "test-case.schema.json"
#: The fields both kinds of test case take, as the schema writes them (``TurnFields``): a
#: field added there is checked here with no edit of this file.
SHARED = list(registry.source_files()[TURN]["$defs"]["TurnFields"]["properties"])


@cache
def _as_written() -> Draft202012Validator:
    files = registry.source_files()
    checker = extend(Draft202012Validator)
    written = registry.registry_for(files)
    return checker(files[registry.DOCUMENT], registry=written)  # type: ignore[return-value]


@pytest.mark.parametrize(("name", "data"), corpus_params())
def test_the_files_as_written_judge_every_document_like_the_expanded_ones(
    name: str, data: Any
) -> None:
    expanded = registry.validator(registry.DOCUMENT)
    assert _as_written().is_valid(data) == expanded.is_valid(data)


def _property_keys(files: dict[str, dict[str, Any]], names: list[str]) -> list[str]:
    """Where each of ``names`` is a key of a ``properties`` (file#pointer/name)."""
    return [
        f"{uri.rsplit('/', 1)[-1]}#{pointer}/properties/{key}"
        for uri in (TURN, TEST_CASE)
        for pointer, node in subschemas(files[uri])
        for key in node.get("properties") or {}
        if key in names
    ]


def test_the_turn_fields_are_written_once_and_expanded_into_three_definitions() -> None:
    written = _property_keys(registry.source_files(), SHARED)
    assert written == [f"turn.schema.json#/$defs/TurnFields/properties/{k}" for k in SHARED]
    expanded = _property_keys(registry.schema_files(), SHARED)
    for definition in ("SingleTurnTestCase", "MultiTurnTestCase"):
        assert [p for p in expanded if f"/{definition}/" in p] == [
            f"test-case.schema.json#/$defs/{definition}/properties/{k}" for k in SHARED
        ]
    assert [p for p in expanded if "/Turn/" in p] == [
        f"turn.schema.json#/$defs/Turn/properties/{k}" for k in SHARED
    ]


def test_the_expanded_definitions_are_closed_as_editors_read_them() -> None:
    files = registry.schema_files()
    single = files[TEST_CASE]["$defs"]["SingleTurnTestCase"]
    turn = files[TURN]["$defs"]["Turn"]
    multi = files[TEST_CASE]["$defs"]["MultiTurnTestCase"]
    for definition in (single, turn, multi):
        assert definition["additionalProperties"] is False
        assert "unevaluatedProperties" not in definition and "allOf" not in definition
        assert definition["required"] in (["input"], ["turns"])
    assert list(single["properties"]) == ["name", *SHARED, "evaluations"]
    assert list(turn["properties"]) == [*SHARED, "evaluations", "turn_config"]
    assert list(multi["properties"]) == ["name", "turns", "evaluations", *SHARED]
    assert all(multi["properties"][k]["doNotSuggest"] is True for k in SHARED)
    assert {"input", "ground_truth", "expected_tools"} <= set(SHARED)
    assert multi["propertyNames"]["pattern"] == f"^(?!(?:{'|'.join(SHARED)})$)"
    named = f"{', '.join(SHARED[:-1])} and {SHARED[-1]}"
    assert multi["propertyNames"]["patternErrorMessage"] == (
        f"Not allowed on a multi-turn test case: {named} go on its turns."
    )


def test_no_expanded_file_holds_an_annotation_the_expansion_consumed() -> None:
    for schema in registry.schema_files().values():
        for _, node in subschemas(schema):
            assert YAML not in node and REFUSES not in node


def test_the_markdown_is_the_description_around_the_example_with_the_pointer_last() -> None:
    written = markdown(
        "Files sent with the input. More: the contract, section 6 (files). Default: none.",
        "files: []",
    )
    assert written == (
        "Files sent with the input. Default: none.\n\n```yaml\nfiles: []\n```"
        "\n\nMore: the contract, section 6 (files)."
    )
    assert markdown("Retrieved passages.", "x: 1") == "Retrieved passages.\n\n```yaml\nx: 1\n```"


def _sources() -> dict[str, dict[str, Any]]:
    return copy.deepcopy(registry.source_files())


def test_a_field_both_taken_and_shared_cannot_be_expanded() -> None:
    files = _sources()
    files[TURN]["$defs"]["Turn"]["properties"]["input"] = {"type": "string"}
    with pytest.raises(ExpansionError, match=r"Turn: \['input'\] defined twice"):
        expand(files)


def test_shared_fields_that_constrain_more_than_fields_cannot_be_expanded() -> None:
    files = _sources()
    files[TURN]["$defs"]["TurnFields"]["minProperties"] = 1
    with pytest.raises(ExpansionError, match=r"holds more than fields: \['minProperties'\]"):
        expand(files)


def test_an_all_of_beside_unevaluated_properties_holding_more_than_refs_cannot_be_expanded() -> (
    None
):
    files = _sources()
    files[TURN]["$defs"]["Turn"]["allOf"].append({"required": ["ground_truth"]})
    with pytest.raises(ExpansionError, match="holds more than \\$refs"):
        expand(files)


def test_refused_fields_must_name_a_definition_of_the_schema_files() -> None:
    files = _sources()
    files[TEST_CASE]["$defs"]["MultiTurnTestCase"][REFUSES]["fields"] = "turn.schema.json#/x"
    with pytest.raises(ExpansionError, match="is not a definition of the schema files"):
        expand(files)
