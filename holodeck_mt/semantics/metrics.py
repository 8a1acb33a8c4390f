"""The deterministic metrics, `equality` and `numeric`, as the platform scores them: the
response against the turn's `ground_truth`, pass or fail, with the platform's defaults."""

from __future__ import annotations

import math
import re
import string
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

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_WHITESPACE_RUN = re.compile(r"\s+")


def _flag(settings: Mapping[str, Any], name: str, defaults: Mapping[str, Any]) -> Any:
    value = settings.get(name)
    return defaults[name] if value is None else value


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


def passing_interval(expected: float, settings: Mapping[str, Any]) -> tuple[float, float]:
    """Every number `numeric` accepts against ``expected``: the wider of the two tolerances."""
    absolute = float(_flag(settings, "absolute_tolerance", NUMERIC_DEFAULTS))
    relative = float(_flag(settings, "relative_tolerance", NUMERIC_DEFAULTS))
    width = max(absolute, relative * abs(expected) if relative > 0 else 0.0)
    return expected - width, expected + width
