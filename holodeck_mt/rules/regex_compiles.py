"""HMT104: every `regex` matcher compiles with Python's re (the platform uses re.fullmatch)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

from holodeck_mt.model import Fault, derived
from holodeck_mt.rules import Context, matchers
from holodeck_mt.rules.rule import Rule


def _compile_error(pattern: str) -> str | None:
    try:
        with warnings.catch_warnings():  # "possible nested set" etc.: not the file's error
            warnings.simplefilter("ignore")
            re.compile(pattern)
    except re.error as e:
        return e.msg if e.pos is None else f"{e.msg} at position {e.pos}"
    except (RecursionError, OverflowError, MemoryError) as e:  # pathological patterns
        return type(e).__name__
    return None


def check(context: Context) -> Iterator[Fault]:
    for where, _, cause in matchers(context, "regex", _compile_error):
        if cause is not None:
            shown = derived(cause, "a syntax error in its pattern")
            yield Fault("HMT104", f"cannot compile regex: {shown}", where)


RULE = Rule(
    code="HMT104",
    name="regex-compile",
    description=("A `regex` matcher does not compile with Python's re."),
    check=check,
)
