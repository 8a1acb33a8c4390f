"""HMT302: `enabled: false` on a metric that is not `type: code`.

The platform reads `enabled` only on code metrics; any other metric still runs.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import layout
from holodeck_mt.model import Fault, marked, under
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule
from holodeck_mt.semantics import precedence


def check(context: Context) -> Iterator[Fault]:
    for parts, metric in context.walk(layout.metrics):
        kind = precedence.kind_of(metric)
        off = metric.get("enabled") is False and kind not in (None, "code")
        if not off or under((*parts, "enabled"), context.reported):
            continue
        name = precedence.display_name(metric)
        yield Fault(
            "HMT302",
            f"`enabled: false` has no effect on a `{kind}` metric: only code metrics can be "
            f"switched off, so `{marked(name)}` still runs",
            (*parts, "enabled"),
            at="key",
            hint="remove the metric from the list to stop it running",
        )


RULE = Rule(
    code="HMT302",
    name="enabled-false-ignored",
    description=(
        "`enabled: false` on a metric that is not `type: code`: only code metrics can "
        "be switched off; this one still runs."
    ),
    check=check,
    runs="runtime",
)
