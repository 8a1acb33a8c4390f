"""HMT115: a float or int optimizer axis whose `range` the platform refuses to load.

The platform's `NumericAxis` compares the bounds of a `float` or `int` axis with
Python's `low >= high` while it loads the agent: bounds that are not in order
(`[1.0, 0.0]`, `[0.0, false]`, `[low, high]`) refuse the file, and bounds Python
cannot compare (`[0.0, "1.0"]`, `[null, 1]`, `[0, 1e3]`, where `1e3` is a string
to YAML 1.1) make its load fail with a TypeError. The bounds are compared here as
the platform compares them, as it reads them; a pair it loads (`[a, b]`, compared as
text) is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from holodeck_mt.model import Fault, under
from holodeck_mt.read.scalars import YamlScalar
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule
from holodeck_mt.wording import hints

#: The axis types whose `range` is `[low, high]`.
_BOUNDED = ("float", "int")
#: The longest text of a date read back as the platform reads it.
_LONGEST_DATE = 64


def check(context: Context) -> Iterator[Fault]:
    numeric = context.data
    for key in ("evaluations", "optimizer", "axes", "numeric"):
        numeric = numeric.get(key) if isinstance(numeric, dict) else None
    if not isinstance(numeric, list):
        return
    for i, axis in enumerate(numeric):
        if not isinstance(axis, dict) or axis.get("type") not in _BOUNDED:
            continue
        bounds = axis.get("range")
        where = ("evaluations", "optimizer", "axes", "numeric", i, "range")
        if not isinstance(bounds, list) or len(bounds) != 2 or under(where, context.reported):
            continue
        fault = _check_order(bounds[0], bounds[1], where)
        if fault is not None:
            yield fault


def _check_order(low: Any, high: Any, where: tuple[str | int, ...]) -> Fault | None:
    try:
        in_order = not (_load(low) >= _load(high))
    except TypeError:
        return Fault(
            "HMT115",
            f"the platform cannot compare the range's bounds, {hints.show_with_kind(low)} and "
            f"{hints.show_with_kind(high)}: its load fails with a TypeError",
            where,
            hint="write both bounds as numbers, low below high",
        )
    if in_order:
        return None
    return Fault(
        "HMT115",
        f"the range's low bound ({hints.show_with_kind(low)}) must be below its high bound "
        f"({hints.show_with_kind(high)}): the platform refuses the axis",
        where,
        hint="write `range: [low, high]` with numbers, low below high",
    )


def _load(value: Any) -> Any:
    """The value the platform compares: a date as the date it loads, a list item by item."""
    if isinstance(value, YamlScalar):
        if value.kind != "timestamp" or len(value.text) > _LONGEST_DATE:
            raise TypeError(value.kind)
        import yaml

        return yaml.safe_load(value.text)
    if isinstance(value, list):
        return [_load(item) for item in value]
    return value


RULE = Rule(
    code="HMT115",
    name="axis-range",
    description=(
        "A float or int optimizer axis whose `range` bounds are not in order (`[1.0, 0.0]`, "
        '`[0.0, false]`) or cannot be compared (`[0.0, "1.0"]`): the platform refuses the '
        "file, or its load fails with a TypeError."
    ),
    check=check,
)
