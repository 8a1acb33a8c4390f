"""HMT109: a metric's and the optimizer's numbers are finite (`.nan` and `.inf` are YAML,
not JSON, numbers: no comparison can use them)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from holodeck_mt import layout
from holodeck_mt.model import Fault, JsonPath, under
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule
from holodeck_mt.wording import hints


def _numbers(context: Context) -> Iterator[tuple[JsonPath, dict[str, Any]]]:
    yield from context.walk(layout.metrics)
    data = context.data
    evaluations = data.get("evaluations") if isinstance(data, dict) else None
    optimizer = evaluations.get("optimizer") if isinstance(evaluations, dict) else None
    if isinstance(optimizer, dict):
        yield ("evaluations", "optimizer"), optimizer
        if isinstance(optimizer.get("loss"), dict):
            yield ("evaluations", "optimizer", "loss"), optimizer["loss"]


def check(context: Context) -> Iterator[Fault]:
    for parts, metric in _numbers(context):
        for key, value in metric.items():
            if isinstance(value, float) and not math.isfinite(value):
                where = (*parts, key)
                if under(where, context.reported):
                    continue
                shown = hints.show(value, own=True)
                yield Fault("HMT109", f"`{key}` must be a finite number, got {shown}", where)


RULE = Rule(
    code="HMT109",
    name="non-finite-number",
    description=(
        "A metric's (or the optimizer's) number is `.nan` or `.inf`, which no comparison can use."
    ),
    check=check,
)
