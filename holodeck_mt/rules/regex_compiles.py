"""HMT104: every `regex` matcher compiles with Python's re (the platform uses re.fullmatch)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

from holodeck_mt import walk
from holodeck_mt.model import Fault
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule


def check(context: Context) -> Iterator[Fault]:
    for parts, value in context.walked(walk.arg_values):
        if not (isinstance(value, dict) and set(value) == {"regex"}):
            continue
        pattern = value["regex"]
        where = (*parts, "regex")
        if not isinstance(pattern, str) or context.already_reported(where):
            continue
        try:
            with warnings.catch_warnings():  # "possible nested set" etc.: not the file's error
                warnings.simplefilter("ignore")
                re.compile(pattern)
        except re.error as e:
            cause = e.msg if e.pos is None else f"{e.msg} at position {e.pos}"
            yield Fault("HMT104", f"cannot compile regex: {cause}", where)
        except (RecursionError, OverflowError, MemoryError) as e:  # pathological patterns
            yield Fault("HMT104", f"cannot compile regex: {type(e).__name__}", where)


RULE = Rule(
    code="HMT104",
    name="regex-compile",
    severity="error",
    description=("A `regex` matcher does not compile with Python's re."),
    check=check,
)
