"""Words for what will run: tool assertions, matcher values, metric settings. Every input
string shown goes through ``hints.quote`` or ``hints.literal`` (clipped, escaped, marked)."""

from __future__ import annotations

import re
from typing import Any

from holodeck_mt.locate.provenance import Written
from holodeck_mt.model import marked
from holodeck_mt.semantics.matchers import Entry, classify
from holodeck_mt.wording.hints import literal, quote

_BARE = re.compile(r"^[A-Za-z0-9_.:\-]{1,60}$")


def show(value: Any) -> str:
    """A value as the text shows it: a reference's stand-in as is (``${TOL}``), else its literal."""
    return str(value) if isinstance(value, Written) else literal(value)


def label(name: str) -> str:
    """A tool or argument name as is when it is plain, else quoted."""
    if isinstance(name, Written):
        return name
    return marked(name) if _BARE.match(name) else quote(name)


def matcher_text(key: str, value: Any) -> str:
    """One asserted argument: ``a = 206588 (int or float)``, ``b ~ "181001" (fuzzy: ...)``."""
    m = classify(value)
    name = label(key)
    if m.kind == "fuzzy":
        return f"{name} ~ {quote(m.value)} (fuzzy: case, spaces and separators ignored)"
    if m.kind == "regex":
        return f"{name} =~ {quote(m.value)} (regex: full match of str(value))"
    literal = m.value
    if isinstance(literal, bool):
        return f"{name} = {show(literal)} (a boolean only, not 1 or 0)"
    if literal is None:
        return f"{name} = null (null only)"
    if isinstance(literal, (int, float)):
        return f"{name} = {show(literal)} (int or float)"
    if isinstance(literal, str):
        return f"{name} = {show(literal)} (exact string)"
    if isinstance(literal, list):
        n = len(literal)
        return f"{name} = {show(literal)} (a list of {n}, element by element, in order)"
    if isinstance(literal, dict):
        return f"{name} = {show(literal)} (a mapping with exactly these keys)"
    return f"{name} = {show(literal)}"


def entry_text(entry: Entry) -> str:
    """``subtract: at least 1 call whose name contains "subtract", a = 206588 (int or float)``."""
    calls = "1 call" if entry.count == 1 else f"{entry.count} calls"
    if entry.name:
        head = f"{label(entry.name)}: at least {calls} whose name contains {quote(entry.name)}"
    else:
        head = f'"": at least {calls} of any tool ("" matches every name)'
    parts = [head] + [matcher_text(key, value) for key, value in entry.args.items()]
    return ", ".join(parts)


def settings_text(settings: dict[str, Any], explicit: set[str]) -> str:
    """``absolute_tolerance 0.5, accept_percent false (default)``; ``none`` when empty."""
    if not settings:
        return "none"
    return ", ".join(
        f"{label(key)} {show(value)}" + ("" if key in explicit else " (default)")
        for key, value in settings.items()
    )
