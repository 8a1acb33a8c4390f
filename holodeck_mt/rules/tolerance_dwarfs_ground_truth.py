"""HMT301: a numeric `absolute_tolerance` at least as large as a ground truth it applies to.

With `absolute_tolerance: 0.5` against a ground truth of 0.05995, an answer of
13.7% (0.137) passes: the tolerance is wider than the number itself. The
tolerance that applies is the shared evaluator's (the last definition of `numeric`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from holodeck_mt.model import Fault, JsonPath, Origin, marked, unmarked
from holodeck_mt.rules import Context, runtime_plan
from holodeck_mt.rules.rule import Rule
from holodeck_mt.semantics import metrics, precedence
from holodeck_mt.semantics.precedence import Plan
from holodeck_mt.wording.hints import plural, quote


def check(context: Context) -> Iterator[Fault]:
    plan = runtime_plan.plan(context)
    winner = plan.evaluators.get("numeric")
    if winner is None or winner.kind != "standard" or not runtime_plan.is_readable(context, winner):
        return
    settings = precedence.settings(winner.metric)
    tolerance = settings["absolute_tolerance"]
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
        return
    dwarfed = _find_dwarfed(plan, settings, tolerance)
    if not dwarfed:
        return
    first_path, first_truth, first_value, first_case = dwarfed[0]
    low, high = metrics.passing_interval(first_value, settings)
    where = runtime_plan.say_turn_where(context, first_case, first_path)
    # Each number shown is marked with the nodes it came from: the metric, the ground truth.
    metric = runtime_plan.origin(context, winner, "")[0], winner.path
    truth: Origin = (False, (*first_path, "ground_truth"))
    shown = marked(unmarked(quote(first_truth, 30)), at=[truth])
    interval = marked(f"{low:.6g} to {high:.6g}", at=[metric, truth])
    message = (
        f"`absolute_tolerance: {marked(str(tolerance), at=[metric])}` is at least the size of "
        f"the ground truth on {plural(len(dwarfed), 'turn')} running `numeric` (first: "
        f"{where}, ground truth {shown}): any answer from {interval} passes there"
    )
    hint = "use relative_tolerance (e.g. 0.01) for answers of mixed size, or a far smaller "
    hint += "absolute_tolerance"
    parts = (*first_path, "ground_truth")
    if runtime_plan.is_here(context, winner) and "absolute_tolerance" in winner.metric:
        parts = (*winner.path, "absolute_tolerance")
    yield Fault("HMT301", message, parts, at="key", hint=hint)


def _find_dwarfed(
    plan: Plan, settings: dict[str, Any], tolerance: float
) -> list[tuple[JsonPath, str, float, int | None]]:
    """Each turn running `numeric` whose ground truth is a number the tolerance dwarfs."""
    dwarfed: list[tuple[JsonPath, str, float, int | None]] = []
    for turn in plan.turns():
        truth = turn.scope.get("ground_truth")
        runs = any(a.own.key == "numeric" and a.status == "runs" for a in turn.metrics)
        if not runs or not isinstance(truth, str):
            continue
        value = metrics.parse_number(truth, settings)
        if value is None or value == 0 or abs(value) > tolerance:
            continue
        dwarfed.append((turn.path, truth, value, turn.case_index))
    return dwarfed


RULE = Rule(
    code="HMT301",
    name="tolerance-dwarfs-ground-truth",
    description=(
        "The `absolute_tolerance` of `numeric` is at least as large as a numeric ground"
        " truth it applies to: nearly any answer passes there."
    ),
    check=check,
    runs="runtime",
)
