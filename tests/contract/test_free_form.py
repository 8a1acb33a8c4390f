"""A non-string key is an error where the platform's model checks the key, and a warning
(HMT216) nested below, in a free-form value the platform loads whatever its keys."""

from __future__ import annotations

import pytest

from holodeck_mt import validate_text
from holodeck_mt.model import Role

AGENT = "name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: hi}\n"
TOOL = "tools:\n  - {name: f, type: function, description: d, file: f.py, function: f,\n"


@pytest.mark.parametrize(
    ("text", "code", "path", "line"),
    [
        (AGENT + "response_format:\n  properties:\n    on: {type: string}\n", "HMT216",
         "response_format.properties", 6),
        (AGENT + "response_format:\n  on: 1\n", "HMT003", "response_format", 5),
        (AGENT + TOOL + "     parameters: {x: {properties: {yes: {}}}}}\n", "HMT216",
         "tools[0].parameters.x.properties", 6),
        (AGENT + TOOL + "     parameters: {x: {yes: {}}}}\n", "HMT003",
         "tools[0].parameters.x", 6),
        (AGENT + TOOL + "     parameters: {no: {}}}\n", "HMT003", "tools[0].parameters", 6),
        ("- turns:\n    - input: q\n      turn_config: {program: {1: x}}\n", "HMT216",
         "turns[0].turn_config.program", 3),
        ("- turns:\n    - input: q\n      turn_config: {off: x}\n", "HMT003",
         "turns[0].turn_config", 3),
        ("- input: q\n  expected_tools: [{name: f, args: {a: {1: 2}}}]\n", "HMT003",
         "expected_tools[0].args.a", 2),
    ],
)  # fmt: skip
def test_a_non_string_key_is_judged_where_it_stands(
    text: str, code: str, path: str, line: int
) -> None:
    role: Role = "document" if text.startswith("name") else "test-cases-file"
    result = validate_text(text, role=role)
    assert [(d.code, d.severity, d.path, d.line) for d in result.diagnostics] == [
        (code, "warning" if code == "HMT216" else "error", path, line)
    ]
