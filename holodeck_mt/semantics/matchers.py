"""How the platform judges a turn's tool calls against its `expected_tools`: reference
semantics over plain data, written from the facts recorded for the platform's runner."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

MatcherKind = Literal["literal", "fuzzy", "regex"]

#: The characters the fuzzy matcher deletes: comma, underscore, narrow no-break space.
FUZZY_DELETED = (",", "_", "\u202f")
#: Fuzzy numbers compare within this absolute distance.
FUZZY_TOLERANCE = 1e-9
_WHITESPACE_RUN = re.compile(r"\s+")


@dataclass(frozen=True)
class Matcher:
    """One asserted argument: its kind and its payload (the literal, or the pattern)."""

    kind: MatcherKind
    value: Any


def classify(value: Any) -> Matcher:
    """What an `args` value means: a one-key `fuzzy`/`regex` mapping is a matcher, else a
    literal (the schema refuses a matcher key beside another key)."""
    if isinstance(value, dict) and len(value) == 1:
        ((key, payload),) = value.items()
        if key in ("fuzzy", "regex") and isinstance(payload, str):
            return Matcher(key, payload)
    return Matcher("literal", value)


def literal_equal(expected: Any, actual: Any) -> bool:
    """Literal equality: lists in order, mappings by key set, int == float, bool only bool."""
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            literal_equal(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, dict) and isinstance(actual, dict):
        return set(expected) == set(actual) and all(
            literal_equal(expected[k], actual[k]) for k in expected
        )
    return _scalar_equal(expected, actual)


def _scalar_equal(expected: Any, actual: Any) -> bool:
    """A boolean equals only a boolean, null only null; numbers compare as floats."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if expected is None or actual is None:
        return expected is None and actual is None
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return float(expected) == float(actual)
    return bool(expected == actual)


def fuzzy_normalize(text: str) -> str:
    """Strip, lower-case, delete `,` `_` U+202F, collapse whitespace runs to one space."""
    text = text.strip().lower()
    for deleted in FUZZY_DELETED:
        text = text.replace(deleted, "")
    return _WHITESPACE_RUN.sub(" ", text)


def fuzzy_number(normalized: str) -> float | None:
    """The number a normalized fuzzy string stands for (trailing `%` divides by 100), or None."""
    percent = normalized.endswith("%")
    if percent:
        normalized = normalized[:-1].strip()
    try:
        number = float(normalized.replace(" ", ""))
    except ValueError:
        return None
    return number / 100 if percent else number


def fuzzy_match(pattern: str, actual: Any) -> bool:
    """Numbers within 1e-9 when both sides parse as numbers, else equal normalized strings.
    Both matchers see Python's ``str`` of the argument: a float is ``206588.0``."""
    left, right = fuzzy_normalize(pattern), fuzzy_normalize(str(actual))
    a, b = fuzzy_number(left), fuzzy_number(right)
    if a is not None and b is not None:
        return math.isclose(a, b, rel_tol=0.0, abs_tol=FUZZY_TOLERANCE)
    return left == right


def regex_match(pattern: str, actual: Any) -> bool:
    """``re.fullmatch`` of the pattern against ``str(actual)``."""
    return re.fullmatch(pattern, str(actual)) is not None


def arg_matches(matcher: Any, actual: Any) -> bool:
    """One asserted argument (as written in `args`) against the value the call passed."""
    m = classify(matcher)
    if m.kind == "fuzzy":
        return fuzzy_match(m.value, actual)
    if m.kind == "regex":
        return regex_match(m.value, actual)
    return literal_equal(m.value, actual)


@dataclass(frozen=True)
class Entry:
    """An `expected_tools` element in one form: a bare name is ``Entry(name)``."""

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    count: int = 1


def entry_of(item: Any) -> Entry | None:
    """The entry an `expected_tools` element states, or None for a malformed one."""
    if isinstance(item, str):
        return Entry(item)
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        args = item.get("args")
        count = item.get("count", 1)
        if args is not None and not isinstance(args, dict):
            return None
        if isinstance(count, bool) or not isinstance(count, int):
            return None
        return Entry(item["name"], dict(args or {}), count)
    return None


def _satisfies(entry: Entry, call: Mapping[str, Any]) -> bool:
    # A bare name, or an entry's `name`, is a case-sensitive substring of the call's name.
    if entry.name not in call["name"]:
        return False
    args = call.get("args") or {}
    return all(key in args and arg_matches(m, args[key]) for key, m in entry.args.items())


def expected_tools_hold(entries: Sequence[Entry], calls: Sequence[Mapping[str, Any]]) -> bool:
    """Every entry holds on the turn's calls (``{name, args}``), each judged on its own (one
    call may satisfy several): at least ``count`` calls match its name and every argument
    it asserts (the others are ignored)."""
    return all(sum(_satisfies(entry, call) for call in calls) >= entry.count for entry in entries)
