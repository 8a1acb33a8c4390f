"""HMT304: a metric that needs a ground truth, on a turn or test case without one.

In a multi-turn test case the platform skips such a metric on the turn, silently,
and averages over the turns that ran it; a single-turn test case runs it anyway,
and it cannot pass. Metrics needing one: equality, numeric, bleu, rouge, meteor,
contextual_precision, contextual_recall.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt.checks import Context, runtime_plan
from holodeck_mt.diagnostics import Fault
from holodeck_mt.safe_text import clip


def check(context: Context) -> Iterator[Fault]:
    plan = runtime_plan.plan(context)
    for turn in plan.turns():
        skipped = [a.own.name for a in turn.metrics if a.status == "skipped-no-ground-truth"]
        failing = [a.own.name for a in turn.metrics if a.status == "no-ground-truth"]
        if context.already_reported(turn.path):
            continue
        if skipped:
            names = clip(", ".join(f"`{n}`" for n in dict.fromkeys(skipped)))
            yield Fault(
                "HMT304",
                f"this turn has no `ground_truth`, so {names} "
                f"{'is' if len(set(skipped)) == 1 else 'are'} skipped on it, silently "
                "(the test case's score averages over the turns that ran it)",
                turn.path,
                hint="add a `ground_truth` to the turn, or give it its own `evaluations`",
            )
        if failing:
            names = clip(", ".join(f"`{n}`" for n in dict.fromkeys(failing)))
            yield Fault(
                "HMT304",
                f"this test case has no `ground_truth`, yet {names} "
                f"{'compares' if len(set(failing)) == 1 else 'compare'} the response with it: "
                "it cannot pass",
                turn.path,
                hint="add a `ground_truth`, or give the test case its own `evaluations`",
            )
