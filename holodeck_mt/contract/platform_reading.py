"""What the platform loads although the contract writes it otherwise: its lax reading.

The platform's models read in pydantic's lax mode (``"5"`` for 5, ``"yes"`` for true,
``null`` for an optional field left out): a value it converts is read so, with a warning
(HMT210-212), and the schema judges the converted document. How each field reads is the
schema's (``field_facts``); here is only where a field sits, and where (HMT216) a
non-string key is loaded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from holodeck_mt import layout
from holodeck_mt.contract import field_facts
from holodeck_mt.contract.field_facts import ANY, BOOLEAN, COUNT, INTEGER, NUMBER
from holodeck_mt.model import Diagnostic, Fault, JsonPath, Remove, Rewrite, Role, make
from holodeck_mt.read.builder import COLLECTION_KEYS, NON_STRING_KEY
from holodeck_mt.wording import hints


def _reading(kind: str, field: str | int) -> str | None:
    """How the field reads (``*`` in a table: any key or index of the mapping or list)."""
    table = field_facts.fields(kind)
    return table.get(field) if isinstance(field, str) and field in table else table.get(ANY)


_CODES = {NUMBER: "HMT210", BOOLEAN: "HMT211", INTEGER: "HMT212", COUNT: "HMT212"}
_WORDS = dict.fromkeys(("1", "on", "t", "true", "y", "yes"), True) | dict.fromkeys(
    ("0", "off", "f", "false", "n", "no"), False
)
#: A conversion may reveal more (the shape meant, test cases past --max-diagnostics), so
#: conversion runs in rounds; each converts something new, and this bound guards a bug.
_ROUNDS = 10_000


#: No value: a conversion that does not apply, a node absent or removed.
_NO: Any = object()


def as_number(value: Any) -> Any:
    """The float the platform reads, or ``_NO``."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and value.isascii():
        with suppress(ValueError):
            return float(value)
    return _NO


#: An integer as text: ASCII digits, single underscores between them, and a fraction
#: of zeros at most (``"5"``, ``" +5_000 "``, ``"1.0"``; not ``"1."`` nor ``"1e3"``).
_INTEGER_TEXT = re.compile(r"[+-]?[0-9](?:_?[0-9])*(?:\.0+)?")
_INT64 = 2**63


def as_integer(value: Any) -> Any:
    """The int the platform reads, or ``_NO``."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        whole = math.isfinite(value) and value.is_integer() and abs(value) < _INT64
        return int(value) if whole else _NO
    if isinstance(value, str):
        text = value.strip()
        if len(text) <= 40 and _INTEGER_TEXT.fullmatch(text):
            return int(text.split(".")[0].replace("_", ""))
    return _NO


def as_boolean(value: Any) -> Any:
    """The bool the platform reads, or ``_NO``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    return _WORDS.get(value.lower(), _NO) if isinstance(value, str) else _NO


def as_count(value: Any) -> Any:
    """``count`` is checked with ``isinstance(count, int)``: only ``true`` converts (to 1)."""
    return 1 if value is True else _NO


_CONVERT: dict[str, Callable[[Any], Any]] = {
    NUMBER: as_number,
    INTEGER: as_integer,
    BOOLEAN: as_boolean,
    COUNT: as_count,
}


def kind_of(data: Any, parts: JsonPath, role: str = "document") -> str | None:
    """The kind of mapping (or list) at ``parts``, as ``field_facts`` names it."""
    node = _get(data, parts)
    if node is _NO or (not parts and not isinstance(data, dict)):
        return None
    if not parts:
        return "test-cases-file" if role == "test-cases-file" else "agent"
    kind = None
    if isinstance(data, dict) and parts[0] == "evaluations":
        kind = _first(_AGENT_EVALUATIONS, parts[1:], exact=True)
    index, relative = layout.test_case_of(data, parts)
    if kind is None and index is not None:
        kind = _first(_TEST_CASE, relative, exact=True) or _first(_TEST_CASE_ENDS, relative)
    if kind != _METRIC:
        return kind
    # Which metric, the branch the schema picks tells.
    from holodeck_mt.contract.messages import metric_kind

    metric = metric_kind(node) if isinstance(node, dict) else None
    return f"metric:{metric}" if metric else None


#: A path pattern: a key, ``int`` for any index, ``...`` for any key or index.
_Pattern = tuple[Any, ...]
#: A metric, of the kind its branch of the schema tells (``metric:<type>``).
_METRIC = "metric"

#: Below the agent's ``evaluations``, the whole path after it.
_AGENT_EVALUATIONS: tuple[tuple[_Pattern, str], ...] = (
    ((), "agent-evaluations"),
    (("model",), "model"),
    (("metrics", int), _METRIC),
    (("metrics", ..., "model"), "model"),
    (("optimizer",), "optimizer"),
    (("optimizer", "loss"), "loss"),
    (("optimizer", "numeric_phase"), "phase"),
    (("optimizer", "textual_phase"), "phase"),
    (("optimizer", "axes", "textual", ...), "textual-axis"),
)
#: In a test case: the whole path from the test case first, ...
_TEST_CASE: tuple[tuple[_Pattern, str], ...] = (
    ((), "test-case"),
    (("turns", ...), "turn"),
)
#: ... then how the path ends, wherever it sits in the test case.
_TEST_CASE_ENDS: tuple[tuple[_Pattern, str], ...] = (
    (("expected_tools", int), "tool"),
    (("files", int), "file"),
    (("evaluations", int), _METRIC),
    (("pages",), "pages"),
    (("evaluations", ..., "model"), "model"),
)


def matches(pattern: _Pattern, parts: JsonPath) -> bool:
    """Whether ``parts`` begins with ``pattern`` (``int``: any index; ``...``: anything)."""
    return len(parts) >= len(pattern) and all(
        want is ... or (isinstance(part, int) if want is int else want == part)
        for want, part in zip(pattern, parts, strict=False)
    )


def _first(
    table: tuple[tuple[_Pattern, str], ...], parts: JsonPath, exact: bool = False
) -> str | None:
    """The kind of the first pattern ``parts`` is (``exact``) or ends with."""
    for pattern, kind in table:
        fits = len(pattern) == len(parts) if exact else len(pattern) <= len(parts)
        if fits and matches(pattern, parts[len(parts) - len(pattern) :]):
            return kind
    return None


def _get(data: Any, parts: JsonPath) -> Any:
    """The node at ``parts``, or ``_NO``."""
    for part in parts:
        listed = isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)
        if not (listed or (isinstance(data, dict) and part in data)):
            return _NO
        data = data[part]
    return data


def relax(
    data: Any, judge: Callable[[Any], list[Fault]], role: str = "document"
) -> tuple[list[Fault], Any]:
    """The faults of the document as the platform reads it (``judge``'s on the converted
    copy, and one warning per conversion), and that document; ``data`` is left as it is."""
    notes: dict[JsonPath, Fault] = {}
    current = data
    faults = judge(data)
    for _ in range(_ROUNDS):
        changes: dict[JsonPath, tuple[JsonPath, Any, Fault | None]] = {}
        for fault in faults:
            change = _change(current, fault.parts, role)
            if change is not None and change[0] not in notes:
                changes.setdefault(change[0], change)
        if not changes:
            break
        current = _replace(current, {parts: new for parts, new, _ in changes.values()})
        for parts, _, note in changes.values():
            # A dropped null is remembered (never converted twice) but never shown.
            notes[parts] = note if note is not None else Fault("", "", parts)
        faults = judge(current)
    # A value that is wrong even as the platform reads it is its error alone.
    wrong = {f.parts for f in faults}
    return faults + [n for n in notes.values() if n.code and n.parts not in wrong], current


def _change(data: Any, parts: JsonPath, role: str) -> tuple[JsonPath, Any, Fault | None] | None:
    """What the platform makes of the node at ``parts``: dropped, converted, or nothing."""
    value = _get(data, parts) if parts else _NO
    kind = None if value is _NO else kind_of(data, parts[:-1], role)
    if kind is None:
        return None
    return _drop(data, kind, parts, value) or _convert(kind, parts, value)


def _drop(
    data: Any, kind: str, parts: JsonPath, value: Any
) -> tuple[JsonPath, Any, Fault | None] | None:
    """A key the platform ignores beside `test_cases`, or a null meaning no value."""
    field = parts[-1]
    if kind == "test-cases-file" and field != "test_cases" and "test_cases" in data:
        return parts, _NO, _ignored(field)
    if value is None and isinstance(field, str) and field in field_facts.nullable(kind):
        return parts, _NO, None
    return None


def _convert(kind: str, parts: JsonPath, value: Any) -> tuple[JsonPath, Any, Fault] | None:
    """A value the platform converts, as it converts it, with the warning that says so."""
    reading = _reading(kind, parts[-1])
    if reading is None or value is None:
        return None
    converted = _CONVERT[reading](value)
    if converted is _NO or converted is value:  # the value itself: written as it is read
        return None
    return parts, converted, _note(reading, parts, value, converted)


def _note(reading: str, parts: JsonPath, value: Any, converted: Any) -> Fault:
    name = next((p for p in reversed(parts) if isinstance(p, str)), "")
    written = _written(converted)
    shown = hints.key(written, own=True)  # the node's own words
    what = shown if reading == BOOLEAN else f"the {reading} {shown}"  # the number 5, the count 1
    fix = Rewrite(written, key=None if isinstance(parts[-1], int) else name)
    return Fault(
        _CODES[reading],
        f"{hints.platform_reads(parts, hints.show(value, own=True))} as {what}; {fix.hint()}",
        parts,
        fix=fix,
    )


def _ignored(key: str | int) -> Fault:
    return Fault(
        "HMT215",
        f"the platform ignores '{hints.key(str(key), own=True)}' beside `test_cases` "
        "in a test-cases file",
        (key,),
        at="key",
        fix=Remove(otherwise="move the file's notes into YAML comments"),
    )


#: A test-cases file the platform reads as zero test cases (empty, `{}`, `0`, ...).
NO_TEST_CASES = Fault(
    "HMT214",
    "the test-cases file holds no test cases; the platform loads it and runs none",
    (),
    hint="add test cases, or remove `test_cases_file` from the agent.yaml",
)


def _written(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value):
            return hints.show(value)
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    return str(value)


def _replace(data: Any, changes: dict[JsonPath, Any]) -> Any:
    """A copy of ``data`` with each node at a path of ``changes`` replaced (``_NO``: removed);
    only the containers on the changed paths are copied, each once."""
    root = _copy_shallow(data)
    fresh = {id(root)}
    for parts, replacement in changes.items():
        node = root
        for part in parts[:-1]:
            child = _get(node, (part,))
            if not isinstance(child, (dict, list)):
                break
            if id(child) not in fresh:
                child = node[part] = _copy_shallow(child)
                fresh.add(id(child))
            node = child
        else:
            if not parts or _get(node, parts[-1:]) is _NO:
                continue
            if replacement is not _NO:
                node[parts[-1]] = replacement
            elif isinstance(node, dict):
                del node[parts[-1]]
    return root


def _copy_shallow(data: Any) -> Any:
    return dict(data) if isinstance(data, dict) else list(data) if isinstance(data, list) else data


# A free-form value (``turn_config``, ``response_format``, a tool's ``parameters``, ...) is
# ``dict[str, Any]`` to the platform: below its checked levels of keys it takes any key,
# so the reader's HMT003 there is a warning; `on`, `off`, `yes` and `no` are booleans
# (YAML 1.1) that nothing looking the name up finds.

#: Each free-form value: its path (``int`` for any index) from the agent.yaml's top
#: level, and how many levels of its keys the platform's model wants as strings.
_FREE_IN_AGENT: tuple[tuple[_Pattern, int], ...] = (
    (("response_format",), 1),
    (("tools", int, "parameters"), 2),
    (("tools", int, "config"), 1),
    (("tools", int, "model"), 1),
    (("tools", int, "database"), 1),
)
#: The same, from a test case.
_FREE_IN_TEST_CASE: tuple[tuple[_Pattern, int], ...] = ((("turns", int, "turn_config"), 1),)
#: A key that is a list or a mapping cannot be hashed: PyYAML refuses the file wherever.
_UNHASHABLE = tuple(f"{NON_STRING_KEY}, got {what}" for what in COLLECTION_KEYS)


def _is_below(parts: JsonPath, root: _Pattern, levels: int) -> bool:
    """Whether the mapping at ``parts`` lies in the value at ``root`` deeper than the
    levels of keys its model checks."""
    return len(parts) >= len(root) + levels and matches(root, parts)


def loaded_by_platform(data: Any, parts: JsonPath, role: Role) -> bool:
    """Whether a non-string key of the mapping at ``parts`` is one the platform loads."""
    if role == "document" and any(_is_below(parts, root, n) for root, n in _FREE_IN_AGENT):
        return True
    index, relative = layout.test_case_of(data, parts)
    return index is not None and any(_is_below(relative, root, n) for root, n in _FREE_IN_TEST_CASE)


def reread(diagnostics: list[Diagnostic], data: Any, role: Role) -> list[Diagnostic]:
    """The reader's ``diagnostics``, each non-string key the platform loads a warning."""
    if not any(d.message.startswith(NON_STRING_KEY) for d in diagnostics):
        return diagnostics
    return [
        _warning(d)
        if d.code == "HMT003"
        and d.message.startswith(NON_STRING_KEY)
        and d.message not in _UNHASHABLE
        and loaded_by_platform(data, d.pointer_parts, role)
        else d
        for d in diagnostics
    ]


def _warning(d: Diagnostic) -> Diagnostic:
    got = d.message.removeprefix(NON_STRING_KEY).removeprefix(", got ")
    return make(
        "HMT216",
        f"this key is read as {got}, not as text: the platform loads it, but nothing "
        "that looks a key up by its name finds it",
        d.line,
        d.column,
        pointer_parts=d.pointer_parts,
        hint=d.hint,
        end_column=d.end_column,
        fix=d.fix,
    )
