"""How a schema error reads: each keyword's phrase, and the hints the schema's rules add.

The fixture corpus pins each rule of our schema on a real file. The phrases themselves
are built for any keyword on any node, so the first test runs them on small schemas
of its own (a bound alone, two bounds, a type list, a pattern with and without an
${ENV_VAR} form), where the fixtures meet only the combinations our schema has today.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from holodeck_mt.contract import messages
from holodeck_mt.model import Fault
from holodeck_mt.model import unmarked as plain
from holodeck_mt.pipeline import validate_text


def faults_of(errors: Any) -> list[Fault]:
    """The faults' words as a file without a reference shows them (their marks out)."""
    found = messages.faults_of(errors)
    return [
        dataclasses.replace(f, message=plain(f.message), hint=f.hint and plain(f.hint), fix=None)
        for f in found
    ]


ENV = r"^\$\{[A-Za-z_][A-Za-z0-9_]*\}$"


def _k(schema: dict[str, Any]) -> dict[str, Any]:
    """A mapping whose key ``k`` must satisfy ``schema``."""
    return {"properties": {"k": schema}}


@pytest.mark.parametrize(
    ("schema", "instance", "fault"),
    [
        (
            _k({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            {"k": 1.5},
            Fault("HMT103", "`k` has an unexpected form", ("k",)),
        ),
        (
            _k({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
            {"k": 1.5},
            Fault("HMT103", "`k` has an unexpected form", ("k",)),
        ),
        (
            {"additionalProperties": False},
            {"x": 1},
            Fault("HMT100", "unknown key 'x' in mapping", ("x",), at="key"),
        ),
        (_k({"maximum": 5}), {"k": 6}, Fault("HMT103", "`k` must be a number <= 5, got 6", ("k",))),
        (
            _k({"type": "integer", "exclusiveMaximum": 1}),
            {"k": 1},
            Fault("HMT103", "`k` must be an integer < 1, got 1", ("k",)),
        ),
        (
            _k({"exclusiveMinimum": 0, "exclusiveMaximum": 1}),
            {"k": 1},
            Fault("HMT103", "`k` must be a number > 0 and < 1, got 1", ("k",)),
        ),
        (
            _k({"minimum": 0, "maximum": 1}),
            {"k": 2},
            Fault("HMT103", "`k` must be a number from 0 to 1, got 2", ("k",)),
        ),
        (_k({"minItems": 2}), {"k": [1]}, Fault("HMT103", "`k` needs at least 2 items", ("k",))),
        (_k({"minItems": 1}), {"k": []}, Fault("HMT103", "`k` needs at least 1 item", ("k",))),
        (
            _k({"type": ["number", "string"]}),
            {"k": True},
            Fault(
                "HMT102",
                "`k` must be a number or a string, got boolean true",
                ("k",),
                hint='quote it: k: "true"',
            ),
        ),
        (
            {"type": "string"},
            3,
            Fault(
                "HMT102", "the document must be a string, got integer 3", (), hint='quote it: "3"'
            ),
        ),
        (
            {"items": {"items": {"type": "string"}}},
            [["a", 1]],
            Fault(
                "HMT102", "`[0][1]` must be a string, got integer 1", (0, 1), hint='quote it: "1"'
            ),
        ),
        (
            _k({"type": "integer"}),
            {"k": "2.5"},
            Fault("HMT102", "`k` must be an integer, got string '2.5'", ("k",)),
        ),
        (
            _k({"type": "integer"}),
            {"k": "2"},
            Fault(
                "HMT102",
                "`k` must be an integer, got string '2'",
                ("k",),
                hint="write it unquoted: k: 2",
            ),
        ),
        (
            _k({"type": "number"}),
            {"k": "2.5"},
            Fault(
                "HMT102",
                "`k` must be a number, got string '2.5'",
                ("k",),
                hint="write it unquoted: k: 2.5",
            ),
        ),
        (
            _k({"type": "string"}),
            {"k": None},
            Fault(
                "HMT102",
                "`k` must be a string, got null",
                ("k",),
                hint="give it a value, or remove the key",
            ),
        ),
        (
            _k({"type": "string", "pattern": "^a$"}),
            {"k": "b"},
            Fault("HMT103", "`k` must be text matching ^a$, got 'b'", ("k",)),
        ),
        (
            _k({"type": ["number", "string"], "pattern": ENV}),
            {"k": "2.5"},
            Fault(
                "HMT103",
                "`k` must be a number or an ${ENV_VAR} reference, got '2.5'",
                ("k",),
                hint="write it unquoted: k: 2.5",
            ),
        ),
        (
            _k({"type": ["integer", "string"], "pattern": ENV}),
            {"k": "2.5"},
            Fault("HMT103", "`k` must be an integer or an ${ENV_VAR} reference, got '2.5'", ("k",)),
        ),
        (
            _k({"type": ["integer", "string"], "pattern": ENV}),
            {"k": "2"},
            Fault(
                "HMT103",
                "`k` must be an integer or an ${ENV_VAR} reference, got '2'",
                ("k",),
                hint="write it unquoted: k: 2",
            ),
        ),
        (
            _k({"type": ["boolean", "string"], "pattern": ENV}),
            {"k": "2.5"},
            Fault(
                "HMT103",
                "`k` must be a number or an ${ENV_VAR} reference, got '2.5'",
                ("k",),
                hint="write it unquoted: k: 2.5",
            ),
        ),
        (
            _k({"type": "string", "pattern": ENV}),
            {"k": "2.5"},
            Fault(
                "HMT103",
                "`k` must be a number or an ${ENV_VAR} reference, got '2.5'",
                ("k",),
                hint="write it unquoted: k: 2.5",
            ),
        ),
        (
            {"items": {"type": "number"}},
            ["2.5"],
            Fault(
                "HMT102",
                "`[0]` must be a number, got string '2.5'",
                (0,),
                hint="write it unquoted: 2.5",
            ),
        ),
        (
            {"type": "string", "pattern": ENV},
            "2.5",
            Fault(
                "HMT103",
                "the document must be a number or an ${ENV_VAR} reference, got '2.5'",
                (),
                hint="write it unquoted: 2.5",
            ),
        ),
        (
            {"enum": ["10", "20"]},
            1,
            Fault(
                "HMT103",
                "the document must be one of 10, 20, got integer 1",
                (),
                hint='quote it: "1"',
            ),
        ),
        (
            _k({"enum": ["1", "2"]}),
            {"k": 3},
            Fault("HMT103", "`k` must be one of 1, 2, got integer 3", ("k",), hint='quote it: "3"'),
        ),
    ],
    ids=lambda value: "" if not isinstance(value, Fault) else value.message,
)
def test_each_keyword_reads_as_one_sentence_on_any_node(
    schema: dict[str, Any], instance: object, fault: Fault
) -> None:
    assert faults_of(Draft202012Validator(schema).iter_errors(instance)) == [fault]


def _seen(source: str) -> list[tuple[str, str | None, str, int, int, str, str | None]]:
    return [
        (d.code, d.test_case, d.path, d.line, d.column, d.message, d.hint)
        for d in validate_text(source).diagnostics
    ]


def test_an_agent_metric_without_type_is_hinted_the_kind_its_fields_name() -> None:
    source = (
        "evaluations:\n"
        "  metrics:\n"
        "    - metric: bleu\n"
        "    - name: Judge\n"
        "      criteria: correct\n"
        '    - grader: "mod:fn"\n'
        "    - metric_type: faithfulness\n"
        "test_cases:\n"
        "  - input: hi\n"
    )
    message = "an agent-level metric needs `type`; the platform selects the kind by `type` alone"
    assert [(d[2], d[5], d[6]) for d in _seen(source)] == [
        ("evaluations.metrics[0]", message, "add `type: standard`"),
        ("evaluations.metrics[1]", message, "add `type: geval`"),
        ("evaluations.metrics[2]", message, "add `type: code`"),
        ("evaluations.metrics[3]", message, "add `type: rag`"),
    ]


def test_an_unknown_metric_type_with_no_close_kind_has_no_hint() -> None:
    source = "evaluations:\n  metrics:\n    - type: zzz\ntest_cases:\n  - input: hi\n"
    assert _seen(source) == [
        (
            "HMT103",
            None,
            "evaluations.metrics[0].type",
            3,
            13,
            "metric `type` must be one of standard, geval, rag, code, got string 'zzz'",
            None,
        )
    ]


def test_an_expected_tool_of_neither_form_is_hinted_as_a_quoted_name() -> None:
    source = "test_cases:\n  - name: t\n    input: hi\n    expected_tools:\n      - 5\n"
    assert _seen(source) == [
        (
            "HMT102",
            "t",
            "expected_tools[0]",
            5,
            9,
            "an expected tool must be a tool name or a mapping {name, args, count}, got integer 5",
            'quote it: "5"',
        )
    ]


def test_a_key_beside_a_matcher_is_reported_at_the_key() -> None:
    source = (
        "test_cases:\n"
        "  - name: t\n"
        "    input: hi\n"
        "    expected_tools:\n"
        "      - name: x\n"
        '        args: {a: {fuzzy: "1", extra: 1}}\n'
    )
    assert _seen(source) == [
        (
            "HMT106",
            "t",
            "expected_tools[0].args.a.extra",
            6,
            32,
            "unknown key 'extra' beside the `fuzzy` matcher; a matcher mapping holds nothing else",
            "to compare a whole mapping literally, drop the matcher key",
        )
    ]


def test_a_key_a_multi_turn_test_case_refuses_is_never_suggested() -> None:
    """`ground_truth` belongs on a turn: a near miss of it is not hinted back onto the case."""
    source = "test_cases:\n  - name: t\n    turns:\n      - input: q\n    ground_truht: x\n"
    assert _seen(source) == [
        (
            "HMT100",
            "t",
            "ground_truht",
            5,
            5,
            "unknown key 'ground_truht' in multi-turn test case",
            "allowed keys: name, turns, evaluations",
        )
    ]


def test_binary_data_where_text_is_required_is_named_and_quoted_to_60_characters() -> None:
    data = "QUJD" * 20
    source = f"test_cases:\n  - name: t\n    input: !!binary {data}\n"
    assert _seen(source) == [
        (
            "HMT102",
            "t",
            "input",
            3,
            12,
            f"`input` must be a string, got binary {data[:40]}",
            f'quote it: input: "{data[:59]}…"',
        )
    ]


def test_a_long_integer_where_text_is_required_is_quoted_digit_for_digit_or_not_at_all() -> None:
    """Its value shows as "an integer of N+ digits": a hint must never ask to quote that."""
    digits = "1" * 60
    source = (
        f"test_cases:\n  - name: t\n    input: -{digits}\n"
        f"  - name: u\n    input: 1{'0' * 61}\n"
        f"  - name: v\n    input: 1{'0' * 60}\n"
    )
    assert [(d.path, d.line, d.message, d.hint) for d in validate_text(source).diagnostics] == [
        (
            "input",
            3,
            "`input` must be a string, got integer an integer of 60+ digits",
            f'quote it: input: "-{digits}"',
        ),
        ("input", 5, "`input` must be a string, got integer an integer of 61+ digits", None),
        ("input", 7, "`input` must be a string, got integer an integer of 61+ digits", None),
    ]


def test_a_metric_that_is_no_mapping_is_told_so_once_and_an_empty_one_is_standard() -> None:
    source = "evaluations:\n  metrics:\n    - 5\n    - {}\ntest_cases:\n  - input: hi\n"
    assert [(d[0], d[2], d[5], d[6]) for d in _seen(source)] == [
        ("HMT102", "evaluations.metrics[0]", "a metric must be a mapping, got integer 5", None),
        (
            "HMT108",
            "evaluations.metrics[1]",
            "an agent-level metric needs `type`; the platform selects the kind by `type` alone",
            "add `type: standard`",
        ),
        (
            "HMT108",
            "evaluations.metrics[1]",
            "cannot tell this metric's kind: it has no `type` and none of `metric`, "
            "`metric_type`, `criteria` or `grader`",
            "add `type: standard` (with `metric`), `geval`, `rag` or `code`",
        ),
    ]


def test_the_metric_kinds_are_the_values_of_type_in_the_order_messages_list_them() -> None:
    from tests.strategies import KINDS

    assert KINDS == ["standard", "geval", "rag", "code"]


def test_faults_validates_the_data_it_is_given() -> None:
    validator = Draft202012Validator(_k({"type": "string"}))
    assert faults_of(validator.iter_errors({"k": 3})) == [
        Fault("HMT102", "`k` must be a string, got integer 3", ("k",), hint='quote it: k: "3"')
    ]
