"""Where one key's value decides a branch, the schema says so with ``if``/``then``.

A metric's `type` picks its kind: every validator (jsonschema, jsonschema-rs, an editor)
then reports only that kind's faults, at the key at fault, with no annotation of ours.
``x-holodeck-choose`` stays on the ``oneOf``s no single key decides (a test case's shape,
an argument matcher, an expected tool).
"""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from holodeck_mt.contract.registry import BASE_URI, METRIC, registry, schema_files
from holodeck_mt.contract.walker import CHOOSE, subschemas

METRIC_DEFS = schema_files()[METRIC]["$defs"]
#: The metric's ``if``s on its `type`, one per kind.
TYPED = [
    rule for rule in METRIC_DEFS["Metric"]["allOf"] if "type" in rule["if"].get("required", [])
]


def _definition(ref: str) -> dict[str, Any]:
    definition: dict[str, Any] = METRIC_DEFS[ref.removeprefix("#/$defs/")]
    return definition


def _agent(metric: dict[str, Any]) -> dict[str, Any]:
    return {"name": "a", "evaluations": {"metrics": [metric]}, "test_cases": [{"input": "hi"}]}


def test_the_metric_kind_is_decided_by_if_then_not_by_a_one_of() -> None:
    metric = METRIC_DEFS["Metric"]
    assert "oneOf" not in metric and CHOOSE not in metric
    assert [rule["if"]["properties"]["type"]["const"] for rule in TYPED] == metric["properties"][
        "type"
    ]["enum"]
    for rule in TYPED:
        kind = _definition(rule["then"]["$ref"])["properties"]["type"]["const"]
        assert kind == rule["if"]["properties"]["type"]["const"]


def test_no_choice_of_ours_is_decided_by_one_keys_value() -> None:
    """A rule ``{required: [k], properties: {k: {const: ...}}}`` belongs in the schema."""
    for _, schema in schema_files().items():
        for _, node in subschemas(schema):
            for rule in node.get(CHOOSE, []):
                consts = [
                    key
                    for key, sub in rule["if"].get("properties", {}).items()
                    if isinstance(sub, dict) and "const" in sub
                ]
                assert not consts, (node.get("title"), rule["if"])


def test_a_node_whose_if_takes_a_mapping_branch_is_typed_itself() -> None:
    """An ``if`` of ``required``/``properties`` holds on a value that is not a mapping; the
    node then reports the wrong type once (schema_errors drops its branches' ``type``)."""
    files = schema_files()
    for uri, schema in files.items():
        for pointer, node in subschemas(schema):
            for rule in node.get("allOf", []):
                then = rule.get("then", {}) if isinstance(rule, dict) else {}
                if "$ref" not in then:
                    continue
                target, _, fragment = then["$ref"].partition("#")
                definitions = files[BASE_URI + target if target else uri]["$defs"]
                branch = definitions[fragment.removeprefix("/$defs/")]
                if branch.get("type") == "object":
                    assert node.get("type") == "object", f"{uri}#{pointer}"


FAULTY = {
    "an unknown key": (
        {"type": "rag", "metric_type": "faithfulness", "criteria": "x"},
        "additionalProperties",
        "criteria",
    ),
    "a missing key": ({"type": "geval", "name": "x"}, "required", "criteria"),
    "a misspelt kind": ({"type": "stndard", "metric": "numeric"}, "enum", "stndard"),
}
AGENT = BASE_URI + "agent.schema.json"


@pytest.mark.parametrize("case", sorted(FAULTY))
def test_jsonschema_names_the_fault_of_the_kind_type_chose(case: str) -> None:
    """What check-jsonschema prints: jsonschema's best match, in its own words."""
    metric, keyword, word = FAULTY[case]
    plain = Draft202012Validator(schema_files()[AGENT], registry=registry())
    error = best_match(plain.iter_errors(_agent(metric)))
    assert error is not None
    assert (error.validator, word in error.message) == (keyword, True), error.message
    assert list(error.absolute_path)[:3] == ["evaluations", "metrics", 0]


@pytest.mark.parametrize("case", sorted(FAULTY))
def test_jsonschema_rs_names_the_fault_of_the_kind_type_chose(case: str) -> None:
    metric, _, word = FAULTY[case]
    files = schema_files()
    rs = jsonschema_rs.validator_for(
        files[AGENT], registry=jsonschema_rs.Registry(list(files.items()))
    )
    messages = [error.message for error in rs.iter_errors(_agent(metric))]
    assert len(messages) == 1, messages
    assert word in messages[0] and "oneOf" not in messages[0], messages
