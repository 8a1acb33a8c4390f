"""From jsonschema's errors to one fault per mistake, written for the author.

Where a ``oneOf`` fails, the branch the author meant is decided from the
instance (``turns`` present: multi-turn; ``fuzzy``/``regex``: that matcher; the
metric named by ``type``, else by its fields) and only that branch's errors are
reported. Each keyword then gets its own one-line message; jsonschema's own
wording (and its rendering of whole instances) never reaches the user.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from holodeck_mt import hints
from holodeck_mt.diagnostics import Fault, JsonPath
from holodeck_mt.loader import clip

# Single-turn fields that belong on the turns of a multi-turn test case.
_TURN_FIELDS = ("input", "ground_truth", "expected_tools", "files", "retrieval_context")
_METRIC_KINDS = ("standard", "geval", "rag", "code")
# Fields that tell a metric's kind when `type` is omitted (REFERENCE.md).
_KIND_FIELDS = (("metric", "standard"), ("metric_type", "rag"), ("grader", "code"))

# What each section of the schema is called in messages, by its `title`.
_SECTIONS = {
    "Agent": "agent.yaml",
    "Agent evaluations": "`evaluations`",
    "Single-turn test case": "single-turn test case",
    "Multi-turn test case": "multi-turn test case",
    "Turn": "turn",
    "Tool call": "expected tool",
    "Fuzzy matcher": "fuzzy matcher",
    "Regex matcher": "regex matcher",
    "Standard metric": "standard metric",
    "G-Eval metric": "geval metric",
    "RAG metric": "rag metric",
    "Code metric": "code metric",
    "File input": "file input",
    "LLM model": "model",
    "Test-cases file": "test-cases file",
}

_PATTERNS = {
    "grader": "`module.path:callable`, such as `my_benchmarks.convfinqa:program_equivalence`",
    "response_path": "dotted keys with optional [n] indices, such as `answer`, "
    "`result.value` or `items[0].score`",
}


def faults(validator: Draft202012Validator, data: Any) -> list[Fault]:
    """Every fault the schema finds in ``data``, one per mistake."""
    return faults_of(validator.iter_errors(data))


def faults_of(errors: Iterable[ValidationError]) -> list[Fault]:
    """The faults behind jsonschema's errors, in the errors' order."""
    out: list[Fault] = []
    for error in errors:
        out.extend(_fault(error))
    return out


def _fault(error: ValidationError) -> Iterator[Fault]:
    if error.validator in ("oneOf", "anyOf"):
        yield from _branch(error)
    else:
        yield from _leaf(error)


# --- oneOf: the branch the author meant ---------------------------------------


def _branch_errors(error: ValidationError, index: int) -> Iterator[Fault]:
    for sub in error.context or ():
        if sub.relative_schema_path and sub.relative_schema_path[0] == index:
            yield from _fault(sub)


def _branch(error: ValidationError) -> Iterator[Fault]:
    schema = error.schema if isinstance(error.schema, dict) else {}
    chooser = _CHOOSERS.get(schema.get("title", ""))
    if chooser is not None:
        yield from chooser(error)
        return
    # A oneOf we have no rule for: report the branch with the fewest errors.
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in error.context or ():
        by_branch.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    if not by_branch:
        yield Fault("HMT103", f"{_subject(_parts(error))} has an unexpected form", _parts(error))
        return
    best = min(by_branch, key=lambda i: len(by_branch[i]))
    yield from _branch_errors(error, best)


def _test_case(error: ValidationError) -> Iterator[Fault]:
    case, parts = error.instance, _parts(error)
    if not isinstance(case, dict):
        yield _type_fault(parts, case, ["object"], "a test case")
        return
    if "turns" in case:
        faults = list(_branch_errors(error, 1))
        # A refused single-turn key is the mistake; what is wrong inside its value is an echo.
        refused = [f for f in faults if f.code == "HMT105" and f.at == "key"]
        yield from refused
        for fault in faults:
            if not any(fault.parts[: len(r.parts)] == r.parts for r in refused):
                yield fault
    elif "input" in case:
        yield from _branch_errors(error, 0)
    else:
        # A misspelt `turns` or `input` (`turn`, `inputs`) is the one mistake here.
        meant = {k: hints.did_you_mean(k, ("input", "turns")) for k in case if isinstance(k, str)}
        typo = next((k for k, guess in meant.items() if guess), None)
        if typo is not None:
            yield Fault(
                "HMT100",
                f"unknown key '{typo}' in test case",
                (*parts, typo),
                at="key",
                hint=f"did you mean '{meant[typo]}'?",
            )
        else:
            yield Fault(
                "HMT105",
                "test case has neither `input` (single-turn) nor `turns` (multi-turn)",
                parts,
                hint="add `input: ...` for a single-turn test case, or a `turns:` list",
            )
        # Whatever else is wrong with it, judged as the single-turn case it may become.
        for fault in _branch_errors(error, 0):
            if fault.code != "HMT101" and fault.parts != (*parts, typo):
                yield fault


def _expected_tool(error: ValidationError) -> Iterator[Fault]:
    tool, parts = error.instance, _parts(error)
    if isinstance(tool, str):
        yield from _branch_errors(error, 0)
    elif isinstance(tool, dict):
        yield from _branch_errors(error, 1)
    else:
        yield Fault(
            "HMT102",
            f"an expected tool must be a tool name or a mapping {{name, args, count}}, "
            f"got {hints.got(tool)}",
            parts,
            hint=hints.quote_hint(None, tool),
        )


def _arg_matcher(error: ValidationError) -> Iterator[Fault]:
    value, parts = error.instance, _parts(error)
    if isinstance(value, dict) and "fuzzy" in value and "regex" in value:
        yield Fault(
            "HMT106",
            "an argument matcher holds both `fuzzy` and `regex`; a matcher is one or the other",
            parts,
            hint="keep `fuzzy` or `regex`, not both",
        )
        return
    yield from _branch_errors(error, 0 if isinstance(value, dict) and "fuzzy" in value else 1)


def metric_kind(metric: dict[str, Any]) -> str | None:
    """The kind the author meant: `type` if valid, else the kind whose fields are there."""
    kind = metric.get("type")
    if kind in _METRIC_KINDS:
        return str(kind)
    for field, meant in _KIND_FIELDS:
        if field in metric:
            return meant
    if "criteria" in metric or "evaluation_steps" in metric:
        return "geval"
    return None


def _metric(error: ValidationError) -> Iterator[Fault]:
    metric, parts = error.instance, _parts(error)
    if not isinstance(metric, dict):
        yield _type_fault(parts, metric, ["object"], "a metric")
        return
    kind = metric.get("type")
    if "type" in metric and kind not in _METRIC_KINDS:
        guess = hints.did_you_mean(str(kind), _METRIC_KINDS)
        yield Fault(
            "HMT103",
            f"metric `type` must be one of {', '.join(_METRIC_KINDS)}, got {hints.got(kind)}",
            (*parts, "type"),
            hint=f"did you mean '{guess}'?" if guess else None,
        )
        return
    meant = metric_kind(metric)
    if meant is None:
        yield Fault(
            "HMT108",
            "cannot tell this metric's kind: it has no `type` and none of `metric`, "
            "`metric_type`, `criteria` or `grader`",
            parts,
            hint="add `type: standard` (with `metric`), `geval`, `rag` or `code`",
        )
        return
    yield from _branch_errors(error, _METRIC_KINDS.index(meant))


def _file_input(error: ValidationError) -> Iterator[Fault]:
    entry, parts = error.instance, _parts(error)
    if isinstance(entry, dict) and "path" in entry and "url" in entry:
        yield Fault(
            "HMT107",
            "a file sets both `path` and `url`; it takes exactly one",
            parts,
            hint="remove `path` or `url`",
        )
    else:
        yield Fault(
            "HMT107",
            "a file needs `path` (relative to the agent.yaml) or `url`",
            parts,
            hint="add `path: ./data/file.pdf` or `url: https://...`",
        )


_CHOOSERS: dict[str, Callable[[ValidationError], Iterator[Fault]]] = {
    "Test case": _test_case,
    "Expected tool": _expected_tool,
    "Arg matcher": _arg_matcher,
    "Metric": _metric,
    "File input": _file_input,
}


# --- one keyword, one message --------------------------------------------------


def _parts(error: ValidationError) -> JsonPath:
    return tuple(error.absolute_path)


def _subject(parts: JsonPath) -> str:
    """How the node at ``parts`` is named in a message: its key, or its key with index."""
    tail: list[str] = []
    for part in reversed(parts):
        if isinstance(part, int):
            tail.insert(0, f"[{part}]")
        else:
            tail.insert(0, part)
            break
    return "`" + "".join(tail) + "`" if tail else "the document"


def _section(schema: Any) -> str:
    title = schema.get("title", "") if isinstance(schema, dict) else ""
    return _SECTIONS.get(title, "mapping")


def _type_fault(parts: JsonPath, value: Any, expected: Iterable[str], what: str = "") -> Fault:
    wanted = " or ".join(hints.type_name(t) for t in expected)
    subject = what or _subject(parts)
    key = parts[-1] if parts else None
    hint = hints.quote_hint(key, value) if "a string" in wanted else None
    if hint is None and ("a number" in wanted or "an integer" in wanted):
        hint = hints.unquote_hint(key, value, integer="a number" not in wanted)
    if value is None and hint is None:
        hint = "give it a value, or remove the key"
    return Fault("HMT102", f"{subject} must be {wanted}, got {hints.got(value)}", parts, hint=hint)


def _bound_phrase(schema: dict[str, Any]) -> str:
    noun = "an integer" if schema.get("type") == "integer" else "a number"
    low = schema.get("minimum")
    low_x = schema.get("exclusiveMinimum")
    high = schema.get("maximum")
    high_x = schema.get("exclusiveMaximum")
    if low is not None and high is not None:
        return f"{noun} from {low} to {high}"
    parts = []
    if low is not None:
        parts.append(f">= {low}")
    if low_x is not None:
        parts.append(f"> {low_x}")
    if high is not None:
        parts.append(f"<= {high}")
    if high_x is not None:
        parts.append(f"< {high_x}")
    return f"{noun} {' and '.join(parts)}"


def _leaf(error: ValidationError) -> Iterator[Fault]:
    keyword = error.validator
    rule: Any = error.validator_value
    value: Any = error.instance
    parts = _parts(error)
    schema = error.schema if isinstance(error.schema, dict) else {}
    subject = _subject(parts)

    if keyword == "additionalProperties":
        yield from _unknown_keys(error)
    elif keyword == "required":
        yield from _missing_keys(error)
    elif keyword == "type":
        yield _type_fault(parts, value, [rule] if isinstance(rule, str) else rule)
    elif keyword == "minLength":
        yield Fault("HMT103", f"{subject} must not be empty", parts)
    elif keyword == "minItems":
        if parts and parts[-1] == "turns":
            yield Fault(
                "HMT105",
                "`turns` must not be empty: a multi-turn test case needs at least one turn",
                parts,
                hint="add a turn (`- input: ...`), or make it a single-turn test case with `input`",
            )
        else:
            n = error.validator_value
            yield Fault(
                "HMT103", f"{subject} needs at least {n} item{'s' if n != 1 else ''}", parts
            )
    elif keyword == "maxItems":
        yield Fault(
            "HMT103",
            f"{subject} holds {len(value)} items; at most {rule} are allowed",
            parts,
        )
    elif keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        yield Fault(
            "HMT103", f"{subject} must be {_bound_phrase(schema)}, got {hints.show(value)}", parts
        )
    elif keyword == "enum":
        allowed = [str(v) for v in rule]
        guess = hints.did_you_mean(str(value), allowed) if isinstance(value, str) else None
        yield Fault(
            "HMT103",
            f"{subject} must be one of {', '.join(allowed)}, got {hints.got(value)}",
            parts,
            hint=f"did you mean '{guess}'?" if guess else hints.quote_hint(None, value),
        )
    elif keyword == "const":
        yield Fault(
            "HMT103",
            f"{subject} must be {hints.show(error.validator_value)}, got {hints.show(value)}",
            parts,
        )
    elif keyword == "pattern" and "propertyNames" in error.relative_schema_path:
        # The multi-turn test case names the single-turn fields only to refuse them.
        yield _single_turn_field_on_multi_turn(str(value), (*parts, str(value)))
    elif keyword == "pattern":
        key = parts[-1] if parts else ""
        unquote = None
        if isinstance(key, str) and key in _PATTERNS:
            shape = _PATTERNS[key]
        elif "${" in str(error.validator_value) or "\\$" in str(error.validator_value):
            shape = f"{hints.type_name(_number_type(schema))} or an ${{ENV_VAR}} reference"
            unquote = hints.unquote_hint(key, value, integer=_number_type(schema) == "integer")
        else:
            shape = f"text matching {error.validator_value}"
        yield Fault(
            "HMT103", f"{subject} must be {shape}, got {hints.show(value)}", parts, hint=unquote
        )
    elif keyword == "not" and isinstance(value, dict) and "test_cases_file" in value:
        yield Fault(
            "HMT110",
            "`test_cases` and `test_cases_file` are both set; use one or the other",
            (*parts, "test_cases_file"),
            at="key",
            hint="move the test cases into the file, or remove `test_cases_file`",
        )
    elif keyword == "uniqueItems":
        yield Fault("HMT103", f"{subject} lists the same item twice", parts)
    else:
        yield Fault("HMT103", f"{subject} is not allowed here ({keyword})", parts)


def _number_type(schema: dict[str, Any]) -> str:
    types = schema.get("type")
    if isinstance(types, list):
        return next((t for t in types if t in ("integer", "number")), "number")
    return "number"


def _single_turn_field_on_multi_turn(key: str, where: JsonPath) -> Fault:
    hint = (
        "a multi-turn test case takes its inputs from `turns`; make it the first turn's `input`"
        if key == "input"
        else "move it onto each turn that needs it"
    )
    return Fault(
        "HMT105",
        f"`{key}` is not allowed on a multi-turn test case (it has `turns`)",
        where,
        at="key",
        hint=hint,
    )


def _unknown_keys(error: ValidationError) -> Iterator[Fault]:
    schema = error.schema if isinstance(error.schema, dict) else {}
    properties = schema.get("properties", {})
    # Keys named only to be refused (hidden from completion) are no suggestion.
    allowed = [
        k for k, v in properties.items() if not (isinstance(v, dict) and v.get("doNotSuggest"))
    ]
    instance = error.instance if isinstance(error.instance, dict) else {}
    title = schema.get("title", "")
    section = _section(schema)
    parts = _parts(error)
    for key in instance:
        if key in properties:
            continue
        where = (*parts, key)
        if title in ("Fuzzy matcher", "Regex matcher"):
            matcher = "fuzzy" if title == "Fuzzy matcher" else "regex"
            yield Fault(
                "HMT106",
                f"unknown key '{clip(key)}' beside the `{matcher}` matcher; "
                "a matcher mapping holds nothing else",
                where,
                at="key",
                hint="to compare a whole mapping literally, drop the matcher key",
            )
        else:
            guess = hints.did_you_mean(key, allowed)
            yield Fault(
                "HMT100",
                f"unknown key '{clip(key)}' in {section}",
                where,
                at="key",
                hint=f"did you mean '{guess}'?"
                if guess
                else f"allowed keys: {', '.join(allowed)}"
                if allowed
                else None,
            )


def _missing_keys(error: ValidationError) -> Iterator[Fault]:
    schema = error.schema if isinstance(error.schema, dict) else {}
    instance = error.instance if isinstance(error.instance, dict) else {}
    parts = _parts(error)
    title = schema.get("title", "")
    required: Any = error.validator_value
    for key in required:
        if key in instance:
            continue
        if title == "Agent metric" and key == "type":
            meant = metric_kind(instance)
            yield Fault(
                "HMT108",
                "an agent-level metric needs `type`; the platform selects the kind by `type` alone",
                parts,
                hint=f"add `type: {meant or 'standard'}`",
            )
            continue
        yield Fault(
            "HMT101",
            f"missing required key `{key}` in {_section(schema)}",
            parts,
            hint=None,
        )
