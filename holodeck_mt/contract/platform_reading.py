"""What the platform loads although the contract writes it otherwise: its lax reading.

The schema is the canonical form (editors apply it as it is). The platform's
models read in pydantic's lax mode: a number field also takes a numeric string
and a boolean, a boolean field also takes ``"yes"``, ``"1"``, ``1`` and the like,
an integer field also takes ``"5"`` and ``5.0``, ``count`` takes ``true``, and
``null`` in an optional field is the same as leaving it out. The verdict must be
the platform's (PLATFORM.md, "The verdict we want"), so the schema's faults are
read through this module:

- a value the platform converts is read as it converts it, and its fault becomes
  a warning that says "the platform reads this as X; write Y" (HMT210 number,
  HMT211 boolean, HMT212 integer);
- ``null`` in a field the platform declares optional is dropped, silently;
- the schema then judges the converted document, the one the platform sees: what
  it still breaks (``absolute_tolerance: "-1"``, a refused key) stays an error.

Which field converts how, and which takes null, the schema declares on the field
itself (``field_facts``); here is only where a field sits: the kind of mapping
holding it (test case, turn, metric of each kind, LLM model, ...).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from holodeck_mt import walk
from holodeck_mt.contract import field_facts
from holodeck_mt.contract.field_facts import ANY, BOOLEAN, COUNT, INTEGER, NUMBER
from holodeck_mt.model import Diagnostic, Fault, JsonPath, Remove, Rewrite, make
from holodeck_mt.text.safe_text import clip
from holodeck_mt.wording import hints

#: The kind of the LLM model's mapping (its fields, like every kind's, are the schema's).
MODEL = "model"


def _reading(kind: str, field: str | int) -> str | None:
    """How the field reads (``*`` in a table: any key or index of the mapping or list)."""
    table = field_facts.fields(kind)
    return table.get(field) if isinstance(field, str) and field in table else table.get(ANY)


_CODES = {NUMBER: "HMT210", BOOLEAN: "HMT211", INTEGER: "HMT212", COUNT: "HMT212"}
_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})
#: Conversions may reveal the test-case shape or metric kind the author meant, and
#: with it more conversions; and the schema examines a capped number of faulty test
#: cases at a time (--max-diagnostics), so each round may reach new ones. Every round
#: converts something new, so the loop ends; this bound only guards against a bug.
_ROUNDS = 10_000


class _Absent:
    """No value: a conversion that does not apply."""


_NO = _Absent()


def as_number(value: Any) -> Any:
    """The float the platform reads, or ``_NO``."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and value.isascii():
        try:
            return float(value)
        except ValueError:
            return _NO
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
    if isinstance(value, str):
        word = value.lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return _NO


def as_count(value: Any) -> Any:
    """``count`` is checked with ``isinstance(count, int)``: only ``true`` converts (to 1)."""
    return 1 if value is True else _NO


_CONVERT: dict[str, Callable[[Any], Any]] = {
    NUMBER: as_number,
    INTEGER: as_integer,
    BOOLEAN: as_boolean,
    COUNT: as_count,
}


def _canonical(how: str, value: Any) -> bool:
    """Already written as the contract writes it (the schema judges it as it is)."""
    if isinstance(value, bool):
        return how == BOOLEAN
    if how == NUMBER:
        return isinstance(value, (int, float))
    if how in (INTEGER, COUNT):
        return isinstance(value, int)
    return False


# --- where a field sits -------------------------------------------------------


def kind_of(data: Any, parts: JsonPath, role: str = "document") -> str | None:
    """The kind of mapping (or list) at ``parts``: one of ``field_facts.kinds()``."""
    node = _get(data, parts)
    if node is _NO:
        return None
    if not parts:
        return _root_kind(data, role)
    if isinstance(data, dict) and parts[0] == "evaluations":
        kind = _agent_evaluations_kind(parts[1:], node)
        if kind is not None:
            return kind
    index, relative = walk.test_case_of(data, parts)
    if index is None:
        return None
    return _test_case_kind(relative, node)


def _root_kind(data: Any, role: str) -> str | None:
    if not isinstance(data, dict):
        return None
    return "test-cases-file" if role == "test-cases-file" else "agent"


#: A path pattern: a key, ``int`` for any index, ``...`` for any key or index.
_Pattern = tuple[Any, ...]
#: The kind that is the metric's own: which one, the schema's branch tells (``_metric``).
_METRIC = "metric"

#: Below the agent's ``evaluations``, the whole path after it.
_AGENT_EVALUATIONS: tuple[tuple[_Pattern, str], ...] = (
    ((), "agent-evaluations"),
    (("model",), MODEL),
    (("metrics", int), _METRIC),
    (("metrics", ..., "model"), MODEL),
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
    (("evaluations", ..., "model"), MODEL),
)


def _matches(pattern: _Pattern, parts: JsonPath) -> bool:
    return len(pattern) == len(parts) and all(
        want is ... or (isinstance(part, int) if want is int else want == part)
        for want, part in zip(pattern, parts, strict=True)
    )


def _ends_with(parts: JsonPath, pattern: _Pattern) -> bool:
    return len(parts) >= len(pattern) and _matches(pattern, parts[len(parts) - len(pattern) :])


def _agent_evaluations_kind(rest: JsonPath, node: Any) -> str | None:
    kind = next((kind for pattern, kind in _AGENT_EVALUATIONS if _matches(pattern, rest)), None)
    return _metric(node) if kind == _METRIC else kind


def _test_case_kind(relative: JsonPath, node: Any) -> str | None:
    kind = next((kind for pattern, kind in _TEST_CASE if _matches(pattern, relative)), None)
    if kind is None:
        ends = (kind for pattern, kind in _TEST_CASE_ENDS if _ends_with(relative, pattern))
        kind = next(ends, None)
    return _metric(node) if kind == _METRIC else kind


_METRIC_BRANCHES = {
    "#/$defs/StandardMetric": "metric:standard",
    "#/$defs/GEvalMetric": "metric:geval",
    "#/$defs/RagMetric": "metric:rag",
    "#/$defs/CodeMetric": "metric:code",
}


def _metric(node: Any) -> str | None:
    """The metric's kind, as the schema picks the branch the author meant."""
    from holodeck_mt.contract import registry as schemas
    from holodeck_mt.contract.messages import meant_branch

    if not isinstance(node, dict):
        return None
    metric = schemas.definition(schemas.METRIC, "Metric")
    return _METRIC_BRANCHES.get(meant_branch(metric, node) or "")


def _get(data: Any, parts: JsonPath) -> Any:
    node = data
    for part in parts:
        found = isinstance(node, dict) and part in node
        found = found or (
            isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        )
        if found:
            node = node[part]
        else:
            return _NO
    return node


# --- turning the schema's faults into the platform's verdict ----------------------


def relax(
    data: Any, faults: list[Fault], judge: Callable[[Any], list[Fault]], role: str = "document"
) -> tuple[list[Fault], Any]:
    """The faults of the document as the platform reads it, and that document.

    ``judge`` gives the schema's faults of a document. The result holds the
    schema's faults of the converted document, plus one warning per conversion
    (at the path it was written). ``data`` itself is never changed.
    """
    notes: dict[JsonPath, Fault] = {}
    current = data
    for _ in range(_ROUNDS):
        changes = [c for c in (_change(current, f.parts, role) for f in faults) if c is not None]
        changes = [c for c in changes if c[0] not in notes]
        if not changes:
            break
        unique = _unique(changes)
        current = _replaced(current, {parts: replacement for parts, replacement, _ in unique})
        for parts, _, note in unique:
            # A dropped null is remembered (never converted twice) but never shown.
            notes[parts] = note if note is not None else Fault("", "", parts)
        faults = judge(current)
    # A value that is wrong even as the platform reads it is its error alone.
    wrong = {f.parts for f in faults}
    return faults + [n for n in notes.values() if n.code and n.parts not in wrong], current


def _unique(
    changes: Iterable[tuple[JsonPath, Any, Fault | None]],
) -> list[tuple[JsonPath, Any, Fault | None]]:
    seen: dict[JsonPath, tuple[JsonPath, Any, Fault | None]] = {}
    for change in changes:
        seen.setdefault(change[0], change)
    return list(seen.values())


def _change(data: Any, parts: JsonPath, role: str) -> tuple[JsonPath, Any, Fault | None] | None:
    """What the platform makes of the node at ``parts``: dropped, converted, or nothing."""
    value = _get(data, parts) if parts else _NO
    kind = None if value is _NO else kind_of(data, parts[:-1], role)
    if kind is None:
        return None
    return _dropped(data, kind, parts, value) or _converted(kind, parts, value)


def _dropped(
    data: Any, kind: str, parts: JsonPath, value: Any
) -> tuple[JsonPath, Any, Fault | None] | None:
    """A key the platform ignores beside `test_cases`, or a null meaning no value."""
    field = parts[-1]
    if kind == "test-cases-file" and field != "test_cases" and "test_cases" in data:
        return parts, _NO, _ignored(field)
    if value is None and isinstance(field, str) and field in field_facts.nullable(kind):
        return parts, _NO, None
    return None


def _converted(kind: str, parts: JsonPath, value: Any) -> tuple[JsonPath, Any, Fault] | None:
    """A value the platform converts, as it converts it, with the warning that says so."""
    how = _reading(kind, parts[-1])
    if how is None or value is None or _canonical(how, value):
        return None
    converted = _CONVERT[how](value)
    if converted is _NO:
        return None
    return parts, converted, _note(how, parts, value, converted)


def _note(how: str, parts: JsonPath, value: Any, converted: Any) -> Fault:
    name = next((p for p in reversed(parts) if isinstance(p, str)), "")
    written = _written(converted)
    what = {
        NUMBER: f"the number {written}",
        INTEGER: f"the integer {written}",
        COUNT: f"the count {written}",
        BOOLEAN: written,
    }[how]
    fix = Rewrite(written, key=None if isinstance(parts[-1], int) else name)
    return Fault(
        _CODES[how],
        f"{hints.platform_reads(parts, hints.show(value))} as {what}; {fix.hint()}",
        parts,
        fix=fix,
    )


def _ignored(key: str | int) -> Fault:
    return Fault(
        "HMT215",
        f"the platform ignores '{clip(str(key))}' beside `test_cases` in a test-cases file",
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


def no_test_cases(diagnostic: Diagnostic) -> Diagnostic:
    """An empty (or comment-only) test-cases file: zero test cases, not an error."""
    return make(
        NO_TEST_CASES.code,
        NO_TEST_CASES.message,
        diagnostic.line,
        diagnostic.column,
        hint=NO_TEST_CASES.hint,
    )


def _written(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if not math.isfinite(value):
            return hints.show(value)
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    return str(value)


def _replaced(data: Any, changes: dict[JsonPath, Any]) -> Any:
    """A copy of ``data`` with each node at a path of ``changes`` replaced (``_NO``: removed).

    Only the containers on the changed paths are copied, each once, whatever the
    number of changes below it; everything else is shared.
    """
    tree: dict[Any, Any] = {}
    for parts, replacement in changes.items():
        if not parts:
            continue
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(("in", part), {})
        node[("at", parts[-1])] = replacement
    return _rebuilt(data, tree)


def _rebuilt(data: Any, tree: dict[Any, Any]) -> Any:
    if isinstance(data, dict):
        copy: Any = dict(data)
    elif isinstance(data, list):
        copy = list(data)
    else:
        return data
    removed = []
    for (how, part), below in tree.items():
        present = part in copy if isinstance(copy, dict) else 0 <= part < len(copy)
        if not present:
            continue
        if how == "in":
            copy[part] = _rebuilt(copy[part], below)
        elif below is _NO:
            removed.append(part)
        else:
            copy[part] = below
    for part in removed:
        if isinstance(copy, dict):
            del copy[part]
    return copy
