"""The vector table pins every rule of the runtime's tool-call assertions and metrics.

``vectors/runtime-semantics.jsonl`` is data, so another implementation can run the
same rows; here the reference semantics (``tests.support.vectors``) must agree with
every row, and the table must cover every rule with a reason for each row.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ROOT
from tests.support import vectors

TABLE = ROOT / "vectors" / "runtime-semantics.jsonl"
ROWS = vectors.load(TABLE)

#: Every rule of the "Tool-call assertions" and "Deterministic metrics" sections.
RULES = {
    # A bare string: case-sensitive substring of the called name; "" matches every tool.
    "name.substring",
    "name.case-sensitive",
    "name.empty",
    # {name, args, count}: name and every asserted argument; others ignored; at least count;
    # entries judged independently; only the turn's calls count.
    "entry.name-and-args",
    "entry.missing-arg",
    "entry.extra-args-ignored",
    "entry.count",
    "entry.independent",
    "entry.turn-only",
    # Literal.
    "literal.list-order",
    "literal.list-length",
    "literal.mapping-keys",
    "literal.mapping-recursive",
    "literal.int-float",
    "literal.bool",
    "literal.string-exact",
    "literal.null",
    # Fuzzy.
    "fuzzy.strip",
    "fuzzy.case",
    "fuzzy.deleted-chars",
    "fuzzy.whitespace-collapse",
    "fuzzy.numeric",
    "fuzzy.percent",
    "fuzzy.inner-spaces",
    "fuzzy.string-equal",
    "fuzzy.not-normalised",
    # Regex.
    "regex.fullmatch",
    "regex.str-float",
    "regex.str-bool",
    "regex.str-mapping",
    # Which matcher an args value is.
    "matcher.dispatch",
    # equality.
    "equality.exact",
    "equality.case_insensitive",
    "equality.strip_punctuation",
    "equality.strip_whitespace",
    "equality.order",
    # numeric.
    "numeric.whole-response",
    "numeric.percent",
    "numeric.thousands",
    "numeric.thousands-off",
    "numeric.absolute",
    "numeric.relative",
    "numeric.relative-zero",
    "numeric.nan",
    "numeric.tolerance-swallows",
}


def _id(row: dict[str, Any]) -> str:
    return f"{row['rule']}:{str(row['expected'])[:20]}~{str(row['actual'])[:20]}"


def test_the_table_has_at_least_80_rows_each_with_a_one_line_reason() -> None:
    assert len(ROWS) >= 80
    for row in ROWS:
        assert set(row) == {"rule", "kind", "expected", "actual", "options", "result", "reason"}
        assert isinstance(row["result"], bool)
        assert row["reason"].strip() and "\n" not in row["reason"]


def test_the_table_covers_every_runtime_rule() -> None:
    assert {row["rule"] for row in ROWS} == RULES


def test_no_two_rows_are_the_same_case() -> None:
    keys = [(r["kind"], repr(r["expected"]), repr(r["actual"]), repr(r["options"])) for r in ROWS]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_reference_semantics_agree_with_the_row(row: dict[str, Any]) -> None:
    assert vectors.judge(row) is row["result"], row["reason"]


def test_the_table_runs_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert vectors.main([str(TABLE)]) == 0
    assert capsys.readouterr().out == f"{len(ROWS)} of {len(ROWS)} vectors agree\n"


def _platform_judge(row: dict[str, Any]) -> bool:
    """The platform's own functions on the row (holodeck-ai, the test-only oracle)."""
    import asyncio
    import importlib
    import re

    from tests import platform_oracle

    why = platform_oracle.available()
    if why is not None:
        pytest.skip(f"the platform oracle is not installed ({why})")
    platform_oracle._evaluators_without_init()  # its __init__ imports deepeval
    matcher = importlib.import_module("holodeck.lib.test_runner.tool_arg_matcher")
    evaluators = importlib.import_module("holodeck.lib.evaluators.deterministic")
    models = importlib.import_module("holodeck.models.test_case")
    results = importlib.import_module("holodeck.models.test_result")
    kind, expected, actual = row["kind"], row["expected"], row["actual"]
    options = row["options"]
    if kind == "name":
        return bool(matcher.tool_name_matches(expected, actual))
    if kind == "literal":
        return bool(matcher.match_literal(expected, actual))
    if kind == "fuzzy":
        return bool(matcher.match_fuzzy(expected, actual))
    if kind == "regex":
        return bool(matcher.match_regex(re.compile(expected), actual))
    if kind == "arg":
        (coerced,) = models.ExpectedTool(name="t", args={"v": expected}).args.values()
        return bool(matcher.match_arg(coerced, actual)[0])
    if kind == "tools":
        calls = [
            results.ToolInvocation(name=c["name"], args=c.get("args") or {}, bytes=0)
            for c in actual
        ]
        objects = [models.ExpectedTool(**e) for e in expected if isinstance(e, dict)]
        # Bare names, and name-only entries, take the runner's name-only path: each must
        # be a substring of some call's name (the executor is not importable without its
        # dependencies, so its one-line rule is applied through the platform's own matcher).
        simple = [o.name for o in objects if o.args is None and o.count == 1]
        bare = [e for e in expected if isinstance(e, str)] + simple
        names = [c.name for c in calls]
        fast = all(any(matcher.tool_name_matches(e, n) for n in names) for e in bare)
        return fast and bool(matcher.evaluate_expected_tools(objects, calls)[0])
    metric = {"equality": evaluators.EqualityEvaluator, "numeric": evaluators.NumericEvaluator}
    scored = asyncio.run(
        metric[kind](**options)._evaluate_impl(response=actual, ground_truth=expected)
    )
    return bool(scored["passed"])


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_the_platform_agrees_with_the_row(row: dict[str, Any]) -> None:
    """The platform's own matchers and evaluators (skipped when the oracle is not installed)."""
    assert _platform_judge(row) is row["result"], row["reason"]
