"""HMT109: a metric's numbers are finite (`.nan` and `.inf` are YAML, not JSON, numbers)."""

from __future__ import annotations

import math
from collections.abc import Iterator

from holodeck_mt import walk
from holodeck_mt.checks import Context
from holodeck_mt.diagnostics import Fault


def check(context: Context) -> Iterator[Fault]:
    for parts, metric in walk.metrics(context.data):
        for key, value in metric.items():
            if isinstance(value, float) and not math.isfinite(value):
                where = (*parts, key)
                if context.already_reported(where):
                    continue
                shown = ".nan" if math.isnan(value) else ".inf" if value > 0 else "-.inf"
                yield Fault("HMT109", f"`{key}` must be a finite number, got {shown}", where)
