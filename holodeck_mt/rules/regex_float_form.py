"""HMT305: a regex matcher that matches an integer's digits but not its float form.

A regex is matched against ``str(value)``, and a number argument may arrive as a
float: ``str(206588.0)`` is ``206588.0``, which ``^\\d+$`` and ``^206588$`` miss.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from holodeck_mt.model import Fault, derived
from holodeck_mt.rules import Context, matchers
from holodeck_mt.rules.rule import Rule
from holodeck_mt.semantics.matchers import regex_match
from holodeck_mt.wording.hints import quote

#: Integers tried besides the digit runs of the pattern itself.
_SAMPLES = ("206588", "2009", "42", "7", "0")
_DIGITS = re.compile(r"\d{1,15}")


def _integer_without_float(pattern: str) -> int | None:
    """An integer whose digits the pattern matches, not its float form (None: none, or no regex)."""
    try:
        for digits in dict.fromkeys([*_DIGITS.findall(pattern)[:8], *_SAMPLES]):
            number = int(digits)
            if regex_match(pattern, number) and not regex_match(pattern, float(number)):
                return number
    except (re.error, RecursionError, OverflowError):
        return None
    return None


def check(context: Context) -> Iterator[Fault]:
    for where, pattern, number in matchers(context, "regex", _integer_without_float):
        if number is None:
            continue
        matches = derived(f"{number} but not {float(number)!r}", "a number, not its float")
        yield Fault(
            "HMT305",
            f"the regex matches {matches}, and a number argument may arrive as a float: "
            f"{quote(pattern, 40)} is matched against str(value)",
            where,
            hint="accept the float form too"
            + derived(f', e.g. `^{number}(\\.0+)?$`, or use `{{fuzzy: "{number}"}}`'),
        )


RULE = Rule(
    code="HMT305",
    name="regex-misses-float-form",
    description=(
        "A regex matcher matches an integer's digits but not its float form (`^\\d+$`): "
        "a number argument may arrive as a float, and `str(206588.0)` is `206588.0`."
    ),
    check=check,
    runs="runtime",
)
