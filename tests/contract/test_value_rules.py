"""The value rules a schema cannot state: HMT104 (a regex compiles), HMT109 (numbers are
finite, the optimizer's too) and HMT113 (a count is no float), entry after entry.

Each document puts a value the rule skips (the schema already reported it) or cannot
fault before one it must: a rule that stopped at the first would lose the second.
"""

from __future__ import annotations

import dataclasses

import pytest

from holodeck_mt.pipeline import validate_text

Seen = tuple[str, str | None, str, int, str, str | None]


def _seen(source: str) -> list[Seen]:
    """(code, test case, path, line, message, hint) of each diagnostic, in order."""
    return [
        (d.code, d.test_case, d.path, d.line, d.message, d.hint)
        for d in validate_text(source).diagnostics
    ]


def test_a_regex_python_cannot_build_names_the_error_and_later_regexes_are_checked() -> None:
    source = (
        "test_cases:\n"
        "  - name: t\n"
        "    input: hi\n"
        "    expected_tools:\n"
        "      - name: lookup\n"
        "        args:\n"
        "          a: {regex: 3}\n"
        '          b: {regex: "a{4294967296}"}\n'
        '          c: {regex: "(x"}\n'
    )
    assert _seen(source) == [
        (
            "HMT102",
            "t",
            "expected_tools[0].args.a.regex",
            7,
            "`regex` must be a string, got integer 3",
            'quote it: regex: "3"',
        ),
        (
            "HMT104",
            "t",
            "expected_tools[0].args.b.regex",
            8,
            "cannot compile regex: OverflowError",
            None,
        ),
        (
            "HMT104",
            "t",
            "expected_tools[0].args.c.regex",
            9,
            "cannot compile regex: missing ), unterminated subpattern at position 0",
            None,
        ),
    ]


def test_the_optimizers_loss_weights_and_min_delta_must_be_finite() -> None:
    source = (
        "name: a\n"
        "evaluations:\n"
        "  metrics:\n"
        "    - type: standard\n"
        "      metric: numeric\n"
        "  optimizer:\n"
        "    loss:\n"
        "      numeric: .inf\n"
        "      other: .nan\n"
        "    min_delta: .inf\n"
        "test_cases:\n"
        "  - name: t\n"
        "    input: hi\n"
        "    ground_truth: hello\n"
    )
    assert _seen(source) == [
        (
            "HMT109",
            None,
            "evaluations.optimizer.loss.numeric",
            8,
            "`numeric` must be a finite number, got .inf",
            None,
        ),
        (
            "HMT109",
            None,
            "evaluations.optimizer.loss.other",
            9,
            "`other` must be a finite number, got .nan",
            None,
        ),
        (
            "HMT109",
            None,
            "evaluations.optimizer.min_delta",
            10,
            "`min_delta` must be a finite number, got .inf",
            None,
        ),
    ]


def test_a_metric_number_after_one_the_schema_refused_is_still_checked() -> None:
    source = (
        "test_cases:\n"
        "  - name: t\n"
        "    input: hi\n"
        '    ground_truth: "1"\n'
        "    evaluations:\n"
        "      - metric: numeric\n"
        "        relative_tolerance: -.inf\n"
        "        absolute_tolerance: .inf\n"
    )
    assert _seen(source) == [
        (
            "HMT103",
            "t",
            "evaluations[0].relative_tolerance",
            7,
            "`relative_tolerance` must be a number >= 0, got -.inf",
            None,
        ),
        (
            "HMT109",
            "t",
            "evaluations[0].absolute_tolerance",
            8,
            "`absolute_tolerance` must be a finite number, got .inf",
            None,
        ),
    ]


def test_a_float_count_hints_the_integer_only_from_1_to_below_1e16() -> None:
    source = (
        "test_cases:\n"
        "  - name: t\n"
        "    input: hi\n"
        "    expected_tools:\n"
        "      - lookup\n"
        "      - name: a\n"
        "        count: 0.5\n"
        "      - name: b\n"
        "        count: 1.0\n"
        "      - name: c\n"
        "        count: 1.0e+16\n"
        "      - name: d\n"
        "        count: 1.0e+20\n"
    )
    refuses = "the platform refuses a float count"
    assert _seen(source) == [
        (
            "HMT102",
            "t",
            "expected_tools[1].count",
            7,
            "`count` must be an integer, got number 0.5",
            None,
        ),
        (
            "HMT103",
            "t",
            "expected_tools[1].count",
            7,
            "`count` must be an integer >= 1, got 0.5",
            None,
        ),
        (
            "HMT113",
            "t",
            "expected_tools[2].count",
            9,
            f"`count` must be an integer, got the float 1.0; {refuses}",
            "write count: 1",
        ),
        (
            "HMT113",
            "t",
            "expected_tools[3].count",
            11,
            f"`count` must be an integer, got the float 1e+16; {refuses}",
            None,
        ),
        (
            "HMT113",
            "t",
            "expected_tools[4].count",
            13,
            f"`count` must be an integer, got the float 1e+20; {refuses}",
            None,
        ),
    ]


def test_past_the_most_nodes_a_walk_keeps_every_check_still_sees_every_argument(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file of more arguments than the checks share a list of: each check walks it
    again, and the last arguments are checked by every check that walks them (the bound
    lowered to 100: past it, a walk is the same at any size)."""
    from pathlib import Path

    from holodeck_mt import rules
    from holodeck_mt.model import Fault, unmarked
    from holodeck_mt.rules import Context, literal_like_matcher, regex_compiles

    monkeypatch.setattr(rules, "MOST_KEPT", 100)
    args: dict[str, object] = {f"a{i}": {"regex": "a"} for i in range(rules.MOST_KEPT)}
    args["last"] = {"regex": "("}
    args["after"] = {"regexp": "x"}
    data = {"test_cases": [{"input": "x", "expected_tools": [{"name": "t", "args": args}]}]}
    context = Context(data=data, base_dir=Path("."))
    where = ("test_cases", 0, "expected_tools", 0, "args")
    found = regex_compiles.check(context)
    assert [dataclasses.replace(f, message=unmarked(f.message)) for f in found] == [
        Fault(
            "HMT104",
            "cannot compile regex: missing ), unterminated subpattern at position 0",
            (*where, "last", "regex"),
        )
    ]
    assert [f.parts for f in literal_like_matcher.check(context)] == [(*where, "after", "regexp")]
