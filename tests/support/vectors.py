"""Run the vector table (``vectors/runtime-semantics.jsonl``, described in docs/explain.md)
against the reference semantics: ``python -m tests.support.vectors [FILE]``.

The validator runs only part of the platform's semantics (how a matcher is read, how a
fuzzy value normalizes, how a tolerance is read: ``holodeck_mt/semantics/``); the rest,
how a turn's calls and response are judged, is written here, for the table alone.
"""

from __future__ import annotations

import json
import math
import re
import string
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from holodeck_mt.semantics.matchers import (
    Entry,
    classify,
    entry_of,
    fuzzy_normalize,
    fuzzy_number,
    regex_match,
)
from holodeck_mt.semantics.metrics import EQUALITY_DEFAULTS, NUMERIC_DEFAULTS, _flag, parse_number

#: Fuzzy numbers compare within this absolute distance.
FUZZY_TOLERANCE = 1e-9
_PUNCTUATION = str.maketrans("", "", string.punctuation)
_WHITESPACE_RUN = re.compile(r"\s+")

Judge = Callable[[Any, Any, dict[str, Any]], bool]


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


def fuzzy_match(pattern: str, actual: Any) -> bool:
    """Numbers within 1e-9 when both sides parse as numbers, else equal normalized strings.
    Both matchers see Python's ``str`` of the argument: a float is ``206588.0``."""
    left, right = fuzzy_normalize(pattern), fuzzy_normalize(str(actual))
    a, b = fuzzy_number(left), fuzzy_number(right)
    if a is not None and b is not None:
        return math.isclose(a, b, rel_tol=0.0, abs_tol=FUZZY_TOLERANCE)
    return left == right


def arg_matches(matcher: Any, actual: Any) -> bool:
    """One asserted argument (as written in `args`) against the value the call passed."""
    m = classify(matcher)
    if m.kind == "fuzzy":
        return fuzzy_match(m.value, actual)
    if m.kind == "regex":
        return regex_match(m.value, actual)
    return literal_equal(m.value, actual)


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


def equality_normalize(text: str, settings: Mapping[str, Any]) -> str:
    """casefold, then delete ASCII punctuation, then collapse whitespace runs and trim."""
    if _flag(settings, "case_insensitive", EQUALITY_DEFAULTS):
        text = text.casefold()
    if _flag(settings, "strip_punctuation", EQUALITY_DEFAULTS):
        text = text.translate(_PUNCTUATION)
    if _flag(settings, "strip_whitespace", EQUALITY_DEFAULTS):
        text = _WHITESPACE_RUN.sub(" ", text).strip()
    return text


def equality(response: str, ground_truth: str, settings: Mapping[str, Any]) -> bool:
    """Whether `equality` passes: both sides normalized alike, then compared exactly."""
    return equality_normalize(response, settings) == equality_normalize(ground_truth, settings)


def numeric(response: str, ground_truth: str, settings: Mapping[str, Any]) -> bool:
    """Whether `numeric` passes: within the absolute tolerance, or the relative one when > 0."""
    actual, expected = parse_number(response, settings), parse_number(ground_truth, settings)
    if actual is None or expected is None:
        return False
    difference = abs(actual - expected)
    if math.isnan(difference):
        return False
    absolute = float(_flag(settings, "absolute_tolerance", NUMERIC_DEFAULTS))
    relative = float(_flag(settings, "relative_tolerance", NUMERIC_DEFAULTS))
    return difference <= absolute or (relative > 0 and difference <= relative * abs(expected))


def _tools(expected: Any, actual: Any, options: dict[str, Any]) -> bool:
    """Every entry of an `expected_tools` list well formed and held on the turn's calls."""
    entries = [entry_of(item) for item in expected]
    return all(e is not None for e in entries) and expected_tools_hold(
        [e for e in entries if e is not None], actual
    )


#: What judges each kind of row: ``expected`` as written, ``actual``, the metric options.
_JUDGES: dict[str, Judge] = {
    "name": lambda expected, actual, _: expected in actual,
    "literal": lambda expected, actual, _: literal_equal(expected, actual),
    "fuzzy": lambda expected, actual, _: fuzzy_match(expected, actual),
    "regex": lambda expected, actual, _: regex_match(expected, actual),
    "arg": lambda expected, actual, _: arg_matches(expected, actual),
    "tools": _tools,
    "equality": lambda expected, actual, options: equality(actual, expected, options),
    "numeric": lambda expected, actual, options: numeric(actual, expected, options),
}


def judge(row: dict[str, Any]) -> bool:
    """What the reference semantics say for the row's expected and actual values."""
    kind, expected, actual = row["kind"], row["expected"], row["actual"]
    options: dict[str, Any] = row.get("options") or {}
    if not isinstance(kind, str) or kind not in _JUDGES:
        raise ValueError(f"unknown kind {kind!r}")
    return _JUDGES[kind](expected, actual, options)


def load(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    path = Path(args[0]) if args else Path("vectors/runtime-semantics.jsonl")
    failed = 0
    rows = load(path)
    for number, row in enumerate(rows, 1):
        got = judge(row)
        if got != row["result"]:
            failed += 1
            print(f"{path}:{number}: {row['rule']}: expected {row['result']}, got {got}")
    print(f"{len(rows) - failed} of {len(rows)} vectors agree")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
