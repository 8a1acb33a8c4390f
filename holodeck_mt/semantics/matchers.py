"""How the platform reads a turn's `expected_tools` and their argument matchers, written from
the facts recorded for its runner (how it judges the calls: tests/support/vectors.py)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

MatcherKind = Literal["literal", "fuzzy", "regex"]

#: The characters the fuzzy matcher deletes: comma, underscore, narrow no-break space.
FUZZY_DELETED = (",", "_", "\u202f")
_WHITESPACE_RUN = re.compile(r"\s+")


@dataclass(frozen=True)
class Matcher:
    """One asserted argument: its kind and its payload (the literal, or the pattern)."""

    kind: MatcherKind
    value: Any


def classify(value: Any) -> Matcher:
    """An `args` value: a one-key `fuzzy`/`regex` mapping is a matcher, anything else a literal."""
    if isinstance(value, dict) and len(value) == 1:
        ((key, payload),) = value.items()
        if key in ("fuzzy", "regex") and isinstance(payload, str):
            return Matcher(key, payload)
    return Matcher("literal", value)


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


def regex_match(pattern: str, actual: Any) -> bool:
    """``re.fullmatch`` of the pattern against ``str(actual)``."""
    return re.fullmatch(pattern, str(actual)) is not None


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
