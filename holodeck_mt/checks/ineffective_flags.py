"""HMT200: a standard metric's flag that has no effect on the metric it sits on.

The platform accepts the equality flags and the numeric fields on every standard
metric, and ignores them where they do not apply.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import walk
from holodeck_mt.checks import Context
from holodeck_mt.diagnostics import Fault
from holodeck_mt.safe_text import clip

FLAGS = {
    "equality": ("case_insensitive", "strip_whitespace", "strip_punctuation"),
    "numeric": (
        "absolute_tolerance",
        "relative_tolerance",
        "accept_percent",
        "accept_thousands_separators",
    ),
}


def check(context: Context) -> Iterator[Fault]:
    for parts, metric in walk.metrics(context.data):
        name = metric.get("metric")
        if metric.get("type", "standard") != "standard" or not isinstance(name, str):
            continue
        for owner, flags in FLAGS.items():
            if owner == name:
                continue
            for flag in flags:
                if flag in metric:
                    yield Fault(
                        "HMT200",
                        f"`{flag}` has no effect on the `{clip(name)}` metric "
                        f"(it applies to `{owner}`)",
                        (*parts, flag),
                        at="key",
                        hint=f"remove it, or use `metric: {owner}`",
                    )
