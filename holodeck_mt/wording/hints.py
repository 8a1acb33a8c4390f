"""Short phrases shared by messages; whatever shows the input (a value, a key) is marked
(``model.marked``), for a report to show it or name the ``${NAME}`` it came from."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from holodeck_mt.model import OWN, VALUE, Quote, Unquote, clip, marked
from holodeck_mt.read.scalars import YamlScalar
from holodeck_mt.text.safe_text import escape_as_json as safe

#: What a YAML author calls a value of each Python type (``bool`` before ``int``), and the
#: schema's name for that type.
_KINDS: tuple[tuple[type, str, str], ...] = (
    (bool, "boolean", "boolean"),
    (int, "integer", "integer"),
    (float, "number", "number"),
    (str, "string", "string"),
    (dict, "mapping", "object"),
    (list, "list", "array"),
)


def type_name(schema_type: str) -> str:
    """``an integer``, ``a mapping``: the schema's type as a YAML author would say it."""
    kind = next((kind for _, kind, named in _KINDS if named == schema_type), None)
    return schema_type if kind is None else f"{'an' if kind == 'integer' else 'a'} {kind}"


def kind_of(value: Any) -> str:
    """What a YAML author would call the value's type."""
    if value is None:
        return "null"
    if isinstance(value, YamlScalar):
        return "date" if value.kind == "timestamp" else value.kind
    return next((kind for t, kind, _ in _KINDS if isinstance(value, t)), type(value).__name__)


def _show_number(value: int | float) -> str:
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10**60 else 61
        return str(value) if digits <= 40 else f"an integer of {digits}+ digits"
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    return repr(value)


def plural(n: int, noun: str, *, grouped: bool = False) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1 (``grouped``: thousands separated)."""
    shown = f"{n:,}" if grouped else str(n)
    return f"{shown} {noun}{'s' if n != 1 else ''}"


def show(value: Any, limit: int = 40, *, given: bool = True, own: bool = False) -> str:
    """A bounded rendering of a value, never the whole of a large instance; a value of the
    input (``given``, not the schema's) marked (``own``: the diagnostic's own node's)."""
    shown = _show_plain(value, limit)
    return marked(shown, OWN if own else VALUE) if given else shown


def _show_plain(value: Any, limit: int) -> str:
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, (int, float)):
        return _show_number(value)
    if isinstance(value, str):
        return repr(clip(value, limit))
    if isinstance(value, dict):
        return f"a mapping of {plural(len(value), 'key')}"
    if isinstance(value, list):
        return f"a list of {plural(len(value), 'item')}"
    if isinstance(value, YamlScalar):
        return value.text[:limit]
    return type(value).__name__


def platform_reads(parts: Sequence[str | int], shown: str) -> str:
    """``the platform reads threshold "0.5"``; a list item by its index (``tools[2]``)."""
    name = next((p for p in reversed(parts) if isinstance(p, str)), "")
    label = f"{name}[{parts[-1]}]" if parts and isinstance(parts[-1], int) else name
    return f"the platform reads {label} {shown}"


def key(name: str, *, own: bool = False) -> str:
    """A key of the input as a message quotes it: clipped, marked (``own``: the node's)."""
    return marked(clip(name), OWN if own else VALUE)


def show_with_kind(value: Any, *, own: bool = False) -> str:
    """``integer 206588``, ``null``, ``a mapping of 2 keys``: the value marked, not its kind."""
    if isinstance(value, (dict, list)) or value is None:
        return _show_plain(value, 40)
    return f"{kind_of(value)} {show(value, own=own)}"


def close_match(word: str, choices: Iterable[str], cutoff: float) -> str | None:
    """The choice most like ``word``, if at least ``cutoff`` alike (difflib's ratio); one whose
    length alone keeps it under is not compared (a megabyte key costs nothing)."""
    near = [
        c for c in choices if 2.0 * min(len(c), len(word)) / (len(c) + len(word) or 1) >= cutoff
    ]
    if not near:
        return None
    import difflib  # on a fault only: start-up time counts

    matches = difflib.get_close_matches(word, near, n=1, cutoff=cutoff)
    return matches[0] if matches else None


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """The closest allowed name, if one is close enough to be a typo."""
    options = sorted(set(choices))
    match = close_match(word, options, 0.6)
    lowered = {c.lower(): c for c in options}
    # Lowering never shortens a text: a word longer than every choice is none of them.
    if match is None and len(word) <= max(map(len, lowered), default=0):
        match = lowered.get(word.lower())
    return match


def quote_fix(key: str | int | None, value: Any) -> Quote | None:
    """For a scalar that YAML read as a non-string where a string is required."""
    if isinstance(value, (bool, int, float, YamlScalar)):
        text = clip(value.text) if isinstance(value, YamlScalar) else show(value, given=False)
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) >= 10**60:
                return None  # too many digits for a one-line hint
            text = str(value)  # every digit: never "an integer of 41+ digits"
        return Quote(shown=f'"{text}"', key=key if isinstance(key, str) else None)
    return None


#: Numbers every YAML version reads as numbers (no octal, no exponent without a dot).
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?\Z")


def unquote_fix(key: str | int | None, value: Any, *, integer: bool = False) -> Unquote | None:
    """For a number written in quotes where a number (or an integer) is required."""
    if isinstance(value, str) and (_INTEGER if integer else _DECIMAL).match(value):
        return Unquote(value, key=key if isinstance(key, str) else None)
    return None


# --- a value as JSON writes it: the rules' and explain's one style -------------------


def quote(text: str, limit: int = 60) -> str:
    """A string of the input as a JSON string literal, clipped to ``limit`` first, marked."""
    return marked(safe(json.dumps(clip(text, limit), ensure_ascii=False)))


def literal(value: Any, limit: int = 60) -> str:
    """Any loaded value as YAML/JSON writes it (``true``, ``null``, ``[1, 2]``), marked."""
    if isinstance(value, str):
        return quote(value, limit)
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(value)
    return marked(safe(clip(text, limit)))
