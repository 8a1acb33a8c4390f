"""Run the vector table (``vectors/runtime-semantics.jsonl``, described in docs/explain.md)
against the reference semantics: ``python -I -m holodeck_mt.semantics.vectors [FILE]``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from holodeck_mt.semantics import matchers, metrics

Judge = Callable[[Any, Any, dict[str, Any]], bool]


def _tools(expected: Any, actual: Any, options: dict[str, Any]) -> bool:
    """Every entry of an `expected_tools` list well formed and held on the turn's calls."""
    entries = [matchers.entry_of(item) for item in expected]
    return all(e is not None for e in entries) and matchers.expected_tools_hold(
        [e for e in entries if e is not None], actual
    )


#: What judges each kind of row: ``expected`` as written, ``actual``, the metric options.
_JUDGES: dict[str, Judge] = {
    "name": lambda expected, actual, _: expected in actual,
    "literal": lambda expected, actual, _: matchers.literal_equal(expected, actual),
    "fuzzy": lambda expected, actual, _: matchers.fuzzy_match(expected, actual),
    "regex": lambda expected, actual, _: matchers.regex_match(expected, actual),
    "arg": lambda expected, actual, _: matchers.arg_matches(expected, actual),
    "tools": _tools,
    "equality": lambda expected, actual, options: metrics.equality(actual, expected, options),
    "numeric": lambda expected, actual, options: metrics.numeric(actual, expected, options),
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
