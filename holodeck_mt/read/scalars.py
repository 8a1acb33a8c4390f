"""What a YAML scalar means: the platform's YAML 1.1 reading (:func:`resolve`, :func:`construct`;
see docs/architecture.md), and the editors' YAML 1.2 one (:func:`editor_reading`)."""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(slots=True, eq=False, repr=False)
class YamlScalar:
    """A scalar YAML can hold but JSON cannot (a timestamp, binary data), kept as text:
    the schema rejects it wherever a JSON type is required."""

    kind: str
    text: str

    def __repr__(self) -> str:
        return f"{self.kind} {self.text}"


@dataclass(slots=True, eq=False)
class Unconstructible:
    """A scalar whose type the platform fails to construct (``2024-02-30``, ``0x_``)."""

    text: str
    why: str


class TooLong(ValueError):
    """An integer literal too long to be read as a number (see ``MAX_INT_DIGITS``)."""


@dataclass(slots=True, eq=False, repr=False)
class _Marker:
    name: str

    def __repr__(self) -> str:
        return self.name


#: The merge key ``<<`` (or ``!!merge``).
MERGE = _Marker("MERGE")
#: ``=`` (or ``!!value``): a string as a key, a failed load anywhere else.
VALUE = _Marker("VALUE")
#: An explicit tag that is not one of the standard scalar types.
UNKNOWN_TAG = _Marker("UNKNOWN_TAG")

#: The longest integer literal read as a number: Python refuses to print one of more
#: than 4,300 digits, and messages print the values they reject (3,000 hex: 3,600).
MAX_INT_DIGITS = 4000
MAX_HEX_DIGITS = 3000

TAG_PREFIX = "tag:yaml.org,2002:"

# YAML 1.1 (the platform). ``$`` rather than ``\Z``, as the platform's resolver matches.

#: Null to YAML 1.1 and 1.2 alike.
NULL = frozenset({"", "~", "null", "Null", "NULL"})
_BOOL_11 = {
    word: truth
    for truth, words in ((True, "yes true on"), (False, "no false off"))
    for lower in words.split()
    for word in (lower, lower.capitalize(), lower.upper())
}
_INT_11 = re.compile(
    r"""[-+]?(?: 0b[01_]+
              | 0x[0-9a-fA-F_]+
              | 0[0-7_]+
              | 0
              | [1-9][0-9_]*(?::[0-5]?[0-9])* )$""",
    re.X,
)
_FLOAT_11 = re.compile(
    r"""(?: [-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?
          | \.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
          | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
          | [-+]?\.(?:inf|Inf|INF)
          | \.(?:nan|NaN|NAN) )$""",
    re.X,
)
_TIME = (
    r"(?:[Tt]|[ \t]+)(?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})"
    r"(?:\.(?P<fraction>[0-9]*))?"
    r"(?:[ \t]*(?P<zone>Z|(?P<sign>[-+])(?P<tzh>[0-9]{1,2})(?::(?P<tzm>[0-9]{2}))?))?"
)
_TIMESTAMP = re.compile(
    rf"(?P<year>[0-9]{{4}})-(?P<month>[0-9]{{1,2}})-(?P<day>[0-9]{{1,2}})(?:{_TIME})?$"
)
#: First characters of the scalars YAML 1.1 gives a type other than string.
TYPED_FIRST = "yYnNtTfFoO~<=-+.0123456789"


def resolve(text: str) -> Any:
    """The platform's reading of an untagged plain scalar (raises :class:`TooLong`)."""
    if not text:
        return None
    first = text[0]
    if first not in TYPED_FIRST:
        return text
    if text in NULL:
        return None
    truth = _BOOL_11.get(text)
    if truth is not None:
        return truth
    if text == "<<":
        return MERGE
    if text == "=":
        return VALUE
    if first not in "-+.0123456789":
        return text
    if _FLOAT_11.match(text):
        return _float_11(text)
    if _INT_11.match(text):
        return _int_11(text)
    match = _TIMESTAMP.match(text)
    # An untagged date needs two-digit months and days; with a time, or tagged, one will do.
    if match is None or (match["hour"] is None and len(match["month"] + match["day"]) != 4):
        return text
    return _timestamp(text, match)


def _int_11(text: str) -> int | Unconstructible:
    """An integer in any YAML 1.1 notation: sign, ``_`` separators, 0b, 0x, 0 (octal), a:b."""
    digits = text.replace("_", "")
    sign = -1 if digits[:1] == "-" else 1
    if digits[:1] in ("-", "+"):
        digits = digits[1:]
    base, body = 10, digits
    if digits[:2] == "0b":
        base, body = 2, digits[2:]
    elif digits[:2] == "0x":
        base, body = 16, digits[2:]
    elif digits[:1] == "0" and len(digits) > 1:
        base = 8  # Python reads a leading 0o as well: ``!!int 0o17`` is 15
    if len(body) > (MAX_HEX_DIGITS if base == 16 else MAX_INT_DIGITS):
        raise TooLong(text)
    try:
        if base == 10 and ":" in body:
            return sign * int(_base60([int(part) for part in body.split(":")]))
        return sign * int(body, base)
    except ValueError:
        return Unconstructible(text, "it reads as an integer with no digits")


def _float_11(text: str) -> float | Unconstructible:
    """A float in YAML 1.1 notation: sign, ``_`` separators, a:b.c, .inf, .nan."""
    digits = text.replace("_", "").lower()
    sign = -1.0 if digits[:1] == "-" else 1.0
    if digits[:1] in ("-", "+"):
        digits = digits[1:]
    if digits == ".inf":
        return sign * math.inf
    if digits == ".nan":
        return math.nan
    try:
        if ":" in digits:
            return sign * float(_base60([float(part) for part in digits.split(":")]))
        return sign * float(digits)
    except ValueError:
        return Unconstructible(text, "it is not a number")
    except OverflowError:  # PyYAML's sum of sexagesimal digits leaves the float range
        return Unconstructible(text, "it is too large for a float")


def _base60(parts: list[Any]) -> Any:
    """Sexagesimal digits summed lowest first, as PyYAML sums them (``inf:5`` is inf)."""
    return sum(part * 60**power for power, part in enumerate(reversed(parts)))


def _timestamp(text: str, match: re.Match[str]) -> YamlScalar | Unconstructible:
    """A date or a date and time; kept as text once the calendar accepts it."""
    group = match.groupdict()
    year, month, day = (int(group[unit]) for unit in ("year", "month", "day"))
    try:
        if group["hour"] is None:
            datetime.date(year, month, day)
        else:
            zone = None
            if group["sign"]:
                offset = datetime.timedelta(hours=int(group["tzh"]), minutes=int(group["tzm"] or 0))
                zone = datetime.timezone(-offset if group["sign"] == "-" else offset)
            fraction = int((group["fraction"] or "0")[:6].ljust(6, "0"))
            hour, minute, second = (int(group[unit]) for unit in ("hour", "minute", "second"))
            datetime.datetime(year, month, day, hour, minute, second, fraction, zone)
    except ValueError as e:
        return Unconstructible(text, f"it reads as a date, and {e}")
    return YamlScalar("timestamp", text)


def construct(tag: str, text: str) -> Any:
    """A scalar with an explicit tag as the platform constructs it (else :data:`UNKNOWN_TAG`)."""
    name = tag[len(TAG_PREFIX) :] if tag.startswith(TAG_PREFIX) else None
    if name == "str":
        return text
    if name in _CONSTANT_TAGS:
        return _CONSTANT_TAGS[name]
    if name == "bool":
        truth = _BOOL_11.get(text.lower())
        if truth is None:
            return Unconstructible(text, "!!bool takes yes/no/true/false/on/off")
        return truth
    if name in _NUMBER_TAGS:
        return _tagged_number(text, _NUMBER_TAGS[name], f"!!{name}")
    if name == "timestamp":
        match = _TIMESTAMP.match(text)
        if match is None:
            return Unconstructible(text, "!!timestamp takes a date, or a date and time")
        return _timestamp(text, match)
    if name == "binary":
        return YamlScalar("binary", text)
    if name in ("map", "seq", "omap", "pairs", "set"):
        return Unconstructible(text, f"!!{name} cannot tag a scalar")
    return UNKNOWN_TAG


_CONSTANT_TAGS = {"null": None, "merge": MERGE, "value": VALUE}
_NUMBER_TAGS = {"int": _int_11, "float": _float_11}


def _tagged_number(text: str, read: Any, tag: str) -> Any:
    if not text.strip():
        return Unconstructible(text, f"{tag} needs digits")
    value = read(text)
    if isinstance(value, Unconstructible):
        value.why = f"{tag} cannot read it as a number"
    return value


_BOOL_12 = {
    word: word.lower() == "true" for word in ("true", "True", "TRUE", "false", "False", "FALSE")
}
#: YAML 1.2 core-schema numbers, in the order they are tried, each with its reading.
_NUMBERS_12: tuple[tuple[re.Pattern[str], Callable[[str], Any]], ...] = (
    (re.compile(r"[-+]?[0-9]+\Z"), int),
    (re.compile(r"0o[0-7]+\Z"), lambda text: int(text[2:], 8)),
    (re.compile(r"0x[0-9a-fA-F]+\Z"), lambda text: int(text[2:], 16)),
    (re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z"), float),
    (
        re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z"),
        lambda text: -math.inf if text[0] == "-" else math.inf,
    ),
    (re.compile(r"\.(?:nan|NaN|NAN)\Z"), lambda text: math.nan),
)


def editor_reading(text: str) -> Any:
    """How a YAML 1.2 core-schema reader (an editor) reads an untagged plain scalar."""
    if text in NULL:
        return None
    if text in _BOOL_12:
        return _BOOL_12[text]
    if len(text) <= MAX_INT_DIGITS:
        for pattern, read in _NUMBERS_12:
            if pattern.match(text):
                return read(text)
    return text


def readings_differ(platform: Any, editor: Any) -> bool:
    """Whether the two readings of one scalar differ in type or value."""
    if type(platform) is not type(editor):
        return True
    if isinstance(platform, float) and math.isnan(platform):
        return not math.isnan(editor)
    return bool(platform != editor)
