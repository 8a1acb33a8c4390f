"""HMT304: a metric that needs a ground truth, on a turn or test case without one.

In a multi-turn test case the platform skips such a metric on the turn, silently,
and averages over the turns that ran it; a single-turn test case runs it anyway,
and it cannot pass. Metrics needing one: equality, numeric, bleu, rouge, meteor,
contextual_precision, contextual_recall.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt.model import Fault, clip, marked, under
from holodeck_mt.rules import Context, runtime_plan
from holodeck_mt.rules.rule import Rule
from holodeck_mt.rules.runtime_plan import is_readable

#: Per status of a metric on a turn: the message (``{names}``, then the verb in the
#: singular or the plural), and the hint.
_SAYS = {
    "skipped-no-ground-truth": (
        "this turn has no `ground_truth`, so {names} {verb} skipped on it, silently "
        "(the test case's score averages over the turns that ran it)",
        ("is", "are"),
        "add a `ground_truth` to the turn, or give it its own `evaluations`",
    ),
    "no-ground-truth": (
        "this test case has no `ground_truth`, yet {names} {verb} the response with it: "
        "it cannot pass",
        ("compares", "compare"),
        "add a `ground_truth`, or give the test case its own `evaluations`",
    ),
}


def check(context: Context) -> Iterator[Fault]:
    plan = runtime_plan.plan(context)
    for turn in plan.turns():
        # Most turns run every metric they list (or none): nothing to say, nothing to look up.
        if all(a.status == "runs" for a in turn.metrics) or under(turn.path, context.reported):
            continue
        for status, (message, (one, many), hint) in _SAYS.items():
            told = (a for a in turn.metrics if a.status == status)
            named = list(dict.fromkeys(a.own.name for a in told if is_readable(context, a.own)))
            if named:
                at = [runtime_plan.origin(context, a.own) for a in turn.metrics]
                names = marked(clip(", ".join(f"`{n}`" for n in named)), at=at)
                verb = one if len(named) == 1 else many
                yield Fault("HMT304", message.format(names=names, verb=verb), turn.path, hint=hint)


RULE = Rule(
    code="HMT304",
    name="ground-truth-metric-without-ground-truth",
    description=(
        "A metric that needs a ground truth (equality, numeric, bleu, rouge, meteor, "
        "contextual_precision, contextual_recall) on a turn without `ground_truth`: "
        "skipped silently in a multi-turn test case, bound to fail in a single-turn "
        "one."
    ),
    check=check,
    runs="runtime",
)
