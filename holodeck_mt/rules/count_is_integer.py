"""HMT113: an expected tool's `count` is an integer, not a float with no fraction.

JSON Schema's `integer` takes `2.0`; the platform checks `count` with
`isinstance(count, int)` and refuses a float, whatever its value.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from holodeck_mt import layout
from holodeck_mt.model import OWN, Fault, Rewrite, marked, under
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule


def check(context: Context) -> Iterator[Fault]:
    for parts, tools in context.walk(layout.expected_tool_lists):
        for i, tool in enumerate(tools):
            if not isinstance(tool, dict):
                continue
            count = tool.get("count")
            where = (*parts, i, "count")
            if not isinstance(count, float) or under(where, context.reported):
                continue
            whole = math.isfinite(count) and count.is_integer() and abs(count) < 1e16
            yield Fault(
                "HMT113",
                f"`count` must be an integer, got the float {marked(repr(count), OWN)}; "
                "the platform refuses a float count",
                where,
                fix=Rewrite(str(int(count)), key="count") if whole and count >= 1 else None,
            )


RULE = Rule(
    code="HMT113",
    name="count-not-integer",
    description=(
        "An expected tool's `count` is a float (`2.0`, `1.0e+3`): the platform requires"
        " an integer there."
    ),
    check=check,
)
