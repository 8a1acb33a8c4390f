"""Short phrases shared by messages: how a value is shown, did-you-mean."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable
from typing import Any

from holodeck_mt.loader import YamlScalar, clip

_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


def type_name(schema_type: str) -> str:
    return _TYPE_NAMES.get(schema_type, schema_type)


def kind_of(value: Any) -> str:
    """What a YAML author would call the value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    if isinstance(value, YamlScalar):
        return "date" if value.kind == "timestamp" else value.kind
    return type(value).__name__


def show(value: Any, limit: int = 40) -> str:
    """A bounded rendering of a value, never the whole of a large instance."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10**60 else 61
        return str(value) if digits <= 40 else f"an integer of {digits}+ digits"
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 1] + "…"
        return repr(text.replace("\n", "\\n"))
    if isinstance(value, dict):
        return f"a mapping of {len(value)} key{'s' if len(value) != 1 else ''}"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    if isinstance(value, YamlScalar):
        return value.text[:limit]
    return type(value).__name__


def got(value: Any) -> str:
    """``integer 206588``, ``null``, ``a mapping of 2 keys``."""
    kind = kind_of(value)
    if isinstance(value, (dict, list)) or value is None:
        return show(value)
    return f"{kind} {show(value)}"


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The closest allowed name, if one is close enough to be a typo."""
    options = sorted(set(choices))
    matches = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not matches:
        lowered = {c.lower(): c for c in options}
        matches = [lowered[word.lower()]] if word.lower() in lowered else []
    return matches[0] if matches else None


def quote_hint(key: str | int | None, value: Any) -> str | None:
    """For a scalar that YAML read as a non-string where a string is required."""
    if isinstance(value, (bool, int, float, YamlScalar)):
        text = clip(value.text) if isinstance(value, YamlScalar) else show(value)
        if isinstance(value, float) and not math.isfinite(value):
            text = show(value)
        prefix = f"{key}: " if isinstance(key, str) else ""
        return f'quote it: {prefix}"{text}"'
    return None


#: Numbers every YAML version reads as numbers (no octal, no exponent without a dot).
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?\Z")


def unquote_hint(key: str | int | None, value: Any, *, integer: bool = False) -> str | None:
    """For a number written in quotes where a number (or an integer) is required."""
    if isinstance(value, str) and (_INTEGER if integer else _DECIMAL).match(value):
        prefix = f"{key}: " if isinstance(key, str) else ""
        return f"write it unquoted: {prefix}{value}"
    return None
