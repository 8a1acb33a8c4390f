"""The deterministic metrics, `equality` and `numeric`, as the platform reads their settings:
the defaults, a number as `numeric` parses it, the interval it passes (how the platform
scores a response: tests/support/vectors.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

EQUALITY_DEFAULTS: dict[str, Any] = {
    "case_insensitive": False,
    "strip_whitespace": False,
    "strip_punctuation": False,
}
NUMERIC_DEFAULTS: dict[str, Any] = {
    "absolute_tolerance": 1e-6,
    "relative_tolerance": 0.0,
    "accept_percent": False,
    "accept_thousands_separators": False,
}
#: Removed before parsing with ``accept_thousands_separators``, an error without it.
THOUSANDS_SEPARATORS = (",", "_", "\u00a0", "\u202f")


def _flag(settings: Mapping[str, Any], name: str, defaults: Mapping[str, Any]) -> Any:
    value = settings.get(name)
    return defaults[name] if value is None else value


def parse_number(text: str, settings: Mapping[str, Any]) -> float | None:
    """The whole (trimmed) text as a number, under the percent and separator flags (None: it
    is not one, or needs a flag that is off)."""
    raw = text.strip()
    percent = raw.endswith("%")
    if percent:
        if not _flag(settings, "accept_percent", NUMERIC_DEFAULTS):
            return None
        raw = raw[:-1].strip()
    if _flag(settings, "accept_thousands_separators", NUMERIC_DEFAULTS):
        for separator in THOUSANDS_SEPARATORS:
            raw = raw.replace(separator, "")
    elif any(separator in raw for separator in THOUSANDS_SEPARATORS):
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return value / 100 if percent else value


def passing_interval(expected: float, settings: Mapping[str, Any]) -> tuple[float, float]:
    """Every number `numeric` accepts against ``expected``: the wider of the two tolerances."""
    absolute = float(_flag(settings, "absolute_tolerance", NUMERIC_DEFAULTS))
    relative = float(_flag(settings, "relative_tolerance", NUMERIC_DEFAULTS))
    width = max(absolute, relative * abs(expected) if relative > 0 else 0.0)
    return expected - width, expected + width
