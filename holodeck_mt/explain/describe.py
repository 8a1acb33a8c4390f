"""Words for what will run: tool assertions, matcher values, metric settings. Every input
string shown goes through ``hints.quote`` or ``hints.literal`` (clipped, escaped, marked)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from holodeck_mt.semantics.matchers import Entry, classify
from holodeck_mt.text.substituted import references, resolved
from holodeck_mt.wording.hints import literal, quote

_BARE = re.compile(r"^[A-Za-z0-9_.:\-]{1,60}$")

#: The entries of the explain document that show a value of the file (not a count, a
#: line or a name of the validator's own).
_VALUED = frozenset(
    {
        "settings",
        "threshold",
        "evaluator_threshold",
        "ground_truth",
        "value",
        "own_settings_ignored",
        "files",
        "response_path",
        "input",
    }
)


class Reference(str):
    """What stands for a value that may have come from a ``${NAME}`` reference, shown as is."""


def show(value: Any) -> str:
    """A value as the text output shows it: what stands for a reference's as is, else its
    literal."""
    return str(value) if isinstance(value, Reference) else literal(value)


#: The entries of the explain document in the validator's own words (and the test cases'
#: names, already shown as written): never a value of the file.
_OWN_WORDS = frozenset({"level", "kind", "status", "matcher", "file", "path", "test_case"})


def as_written(node: Any, near: Sequence[str], valued: bool = False, key: str = "") -> Any:
    """The explain document ``node`` showing no value that may have come from the references
    ``near`` (those of the sections explained; none: every value shown): by where they lie,
    never by their characters, every value of the file stands for them."""
    if isinstance(node, dict):
        case = key == "test_cases"
        return {
            k: v
            if k in _OWN_WORDS or (case and k == "name")
            else as_written(v, near, valued or k in _VALUED, k)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [as_written(item, near, valued, key) for item in node]
    if isinstance(node, str) and key == "text":
        return resolved(node, (), near)
    if near and (isinstance(node, str) or (valued and isinstance(node, (bool, int, float)))):
        return Reference(f"a value not shown (near {references(near)})")
    return node


def label(name: str) -> str:
    """A tool or argument name as is when it is plain, else quoted."""
    return name if _BARE.match(name) else quote(name)


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
