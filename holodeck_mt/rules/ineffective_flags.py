"""HMT200: a standard metric's flag that has no effect on the metric it sits on.

The platform accepts the equality flags and the numeric fields on every standard
metric, and ignores them where they do not apply. Which metric a flag applies to is
stated in the schema, on the flag (``x-holodeck-applies-to``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from holodeck_mt import layout
from holodeck_mt.contract.registry import METRIC, schema_files
from holodeck_mt.contract.walker import APPLIES_TO
from holodeck_mt.model import Fault, Remove, clip, marked
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule


@cache
def flags() -> dict[str, str]:
    """Each flag of a standard metric that applies to one metric only, with that metric."""
    properties = schema_files()[METRIC]["$defs"]["StandardMetric"]["properties"]
    return {name: str(p[APPLIES_TO]) for name, p in properties.items() if APPLIES_TO in p}


def check(context: Context) -> Iterator[Fault]:
    for parts, metric in context.walk(layout.metrics):
        name = metric.get("metric")
        if metric.get("type", "standard") != "standard" or not isinstance(name, str):
            continue
        for flag, owner in flags().items():
            if owner != name and flag in metric:
                shown = marked(clip(name), at=[(False, (*parts, "metric"))])
                yield Fault(
                    "HMT200",
                    f"`{flag}` has no effect on the `{shown}` metric (it applies to `{owner}`)",
                    (*parts, flag),
                    at="key",
                    fix=Remove(otherwise=f"use `metric: {owner}`"),
                )


RULE = Rule(
    code="HMT200",
    name="ineffective-flag",
    description=(
        "A metric flag that has no effect on its metric (e.g. absolute_tolerance on equality)."
    ),
    check=check,
)
