"""The annotations the schema carries for the validator's messages are consistent.

``x-holodeck-choose`` names branches of its own ``oneOf``; ``x-holodeck-codes`` gives
catalogued codes to keywords the node has; every closed mapping is named in messages.
"""

from __future__ import annotations

from typing import Any

import pytest

from holodeck_mt.contract.registry import schema_files
from holodeck_mt.contract.walker import CHOOSE, NAME, subschemas
from holodeck_mt.contract.walker import CODES as CODES_KEYWORD
from holodeck_mt.rules.registry import CODES

NODES = [
    pytest.param(node, id=f"{uri.rsplit('/', 1)[-1]}#{pointer}")
    for uri, schema in schema_files().items()
    for pointer, node in subschemas(schema)
]


@pytest.mark.parametrize("node", NODES)
def test_a_choice_names_branches_of_its_own_one_of(node: dict[str, Any]) -> None:
    branches = {branch.get("$ref") for branch in node.get("oneOf", [])}
    for rule in node.get(CHOOSE, []):
        assert set(rule) == {"if", "then"}
        assert rule["then"] in branches


@pytest.mark.parametrize("node", NODES)
def test_a_code_is_catalogued_and_given_to_a_keyword_the_node_has(node: dict[str, Any]) -> None:
    for keyword, code in node.get(CODES_KEYWORD, {}).items():
        assert code in CODES
        assert keyword in node


@pytest.mark.parametrize("node", NODES)
def test_a_closed_mapping_is_named_in_messages(node: dict[str, Any]) -> None:
    if node.get("additionalProperties") is False:
        assert isinstance(node.get(NAME), str) and node[NAME]


def test_every_one_of_says_which_branch_was_meant_or_what_it_reports() -> None:
    undecided = [
        node.get("title")
        for _, schema in schema_files().items()
        for _, node in subschemas(schema)
        if "oneOf" in node and CHOOSE not in node and "oneOf" not in node.get(CODES_KEYWORD, {})
    ]
    assert undecided == []
