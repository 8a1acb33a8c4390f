"""HMT303: `evaluations: []` on a test case or turn, where another level's metrics run.

An empty list counts as absent: the turn falls through to the test case's list,
then the agent's. It cannot switch metrics off.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt.model import Fault, clip, marked
from holodeck_mt.rules import Context, runtime_plan
from holodeck_mt.rules.rule import Rule
from holodeck_mt.semantics.precedence import TurnPlan

_WORDS = {"test case": "the test case's", "agent": "the agent's"}


def check(context: Context) -> Iterator[Fault]:
    plan = runtime_plan.plan(context)
    for case in plan.cases:
        if case.case.get("evaluations") == []:
            fallen = [t for t in case.turns if t.source == "agent"]
            if fallen:
                yield _fault(context, (*case.path, "evaluations"), fallen[0])
        for turn in case.turns:
            empty = turn.turn_index is not None and turn.scope.get("evaluations") == []
            if empty and turn.source is not None:
                yield _fault(context, (*turn.path, "evaluations"), turn)


def _fault(context: Context, parts: tuple[str | int, ...], turn: TurnPlan) -> Fault:
    names = ", ".join(dict.fromkeys(a.own.name for a in turn.metrics))
    source = _WORDS.get(turn.source or "", "another level's")
    return Fault(
        "HMT303",
        f"`evaluations: []` counts as absent and cannot switch metrics off: "
        f"{source} metrics run here instead "
        f"({marked(clip(names), at=[runtime_plan.origin(context, a.own) for a in turn.metrics])})",
        parts,
        at="key",
        hint="remove it; an empty list never stops the test case's or the agent's metrics",
    )


RULE = Rule(
    code="HMT303",
    name="empty-evaluations-fall-through",
    description=(
        "`evaluations: []` on a test case or turn counts as absent: the next level's "
        "metrics run instead; an empty list cannot switch metrics off."
    ),
    check=check,
    runs="runtime",
)
