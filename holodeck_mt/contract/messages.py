"""From jsonschema's errors to one fault per mistake, written for the author.

The schema's annotations (:mod:`.walker`) say which ``oneOf`` branch was meant, which code
a keyword reports and what a node is called; jsonschema's own wording never reaches the user.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from holodeck_mt.contract import registry as sch
from holodeck_mt.contract.walker import CHOOSE, CODES, NAME, NOUN, SHAPE
from holodeck_mt.model import Fault, Intent, JsonPath, Rename, derived, under
from holodeck_mt.wording import hints

Handler = Callable[[ValidationError], Iterator[Fault]]


def faults_of(errors: Iterable[ValidationError]) -> list[Fault]:
    """The faults behind jsonschema's errors, in the errors' order."""
    return [fault for error in errors for fault in _fault(error)]


def _fault(error: ValidationError) -> Iterator[Fault]:
    if error.validator in ("oneOf", "anyOf"):
        return _branch(error)
    # A ``then`` refusing a value that is no mapping for its ``type``: an ``if`` of
    # ``required``/``properties`` holds on any other value, and the node holding the
    # ``if`` states the same ``type``, reported once in its own words.
    path = [step for step in error.relative_schema_path if step != "$ref"]
    if error.validator == "type" and path[-2:] == ["then", "type"]:
        return iter(())
    code = _code(error)
    rule = _RULES.get((code, str(error.validator))) if code else None
    return (rule or _KEYWORDS.get(str(error.validator), _other))(error)


def _schema(error: ValidationError) -> dict[str, Any]:
    return error.schema if isinstance(error.schema, dict) else {}


def _code(error: ValidationError) -> str | None:
    """The code the schema gives this keyword of this node, if it gives one."""
    codes = _schema(error).get(CODES, {})
    return codes.get(error.validator) if isinstance(codes, dict) else None


def _parts(error: ValidationError) -> JsonPath:
    return tuple(error.absolute_path)


def _say(
    code: str,
    message: str | Callable[[ValidationError], str],
    hint: str | None = None,
    key: str | None = None,
) -> Handler:
    """A handler of one fault at the error's node (or its ``key``) saying ``message``."""

    def handle(error: ValidationError) -> Iterator[Fault]:
        text = message if isinstance(message, str) else message(error)
        if key is None:
            yield Fault(code, text, _parts(error), hint=hint)
        else:
            yield Fault(code, text, (*_parts(error), key), at="key", hint=hint)

    return handle


@cache
def _rule_validator(rule: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(rule))


def _holds(rule: Any, instance: Any) -> bool:
    return _rule_validator(json.dumps(rule, sort_keys=True)).is_valid(instance)


def _choose_branch(schema: dict[str, Any], instance: Any) -> str | None:
    """The ``$ref`` of the ``oneOf`` branch the schema's ``x-holodeck-choose`` names."""
    for rule in schema.get(CHOOSE, ()):
        if _holds(rule["if"], instance):
            return str(rule["then"])
    return None


def metric_kind(metric: Any) -> str | None:
    """The ``type`` of the metric branch the author meant, if the schema can tell."""
    definitions = sch.schema_files()[sch.METRIC]["$defs"]
    meant = taken_branch(definitions["Metric"], metric)  # no x-holodeck-choose there
    if not meant:
        return None
    return str(definitions[meant.rsplit("/", 1)[-1]]["properties"]["type"]["const"])


def taken_branch(schema: dict[str, Any], instance: Any) -> str | None:
    """The ``$ref`` of the first ``then`` or ``else`` ``instance`` takes (``allOf`` included)."""
    for part in (schema, *schema.get("allOf", ())):
        if not isinstance(part, dict) or "if" not in part:
            continue
        branch = part.get("then" if _holds(part["if"], instance) else "else")
        if isinstance(branch, dict):
            found = branch.get("$ref") or taken_branch(branch, instance)
            if found is not None:
                return str(found)
    return None


def _branch_errors(error: ValidationError, ref: str) -> Iterator[Fault]:
    """The faults of one branch; a key the branch refuses hides what is wrong inside it."""
    refs = [branch.get("$ref") for branch in _schema(error).get("oneOf", [])]
    index = refs.index(ref)
    found = [
        fault
        for sub in error.context or ()
        if sub.relative_schema_path and sub.relative_schema_path[0] == index
        for fault in _fault(sub)
    ]
    refused = [f for f in found if f.at == "key" and f.code == _code(error)]
    hidden = {f.parts for f in refused}
    yield from refused
    yield from (f for f in found if f not in refused and not under(f.parts, hidden))


def _branch(error: ValidationError) -> Iterator[Fault]:
    meant = _choose_branch(_schema(error), error.instance)
    if meant is not None:
        yield from _branch_errors(error, meant)
        return
    # A oneOf the schema says nothing about: no branch's wording can be trusted.
    unexpected = _say("HMT103", lambda e: f"{_subject(_parts(e))} has an unexpected form")
    yield from _UNCHOSEN.get(_code(error) or "", unexpected)(error)


def _no_test_case_shape(error: ValidationError) -> Iterator[Fault]:
    """A test case with neither deciding key: a misspelt one, or the shape is missing."""
    case, parts, schema = error.instance, _parts(error), _schema(error)
    if not isinstance(case, dict):
        yield _type_fault(parts, case, ["object"], schema[NOUN])
        return
    keys = [key for rule in schema[CHOOSE] for key in rule["if"].get("required", ())]
    meant = {k: hints.did_you_mean(k, keys) for k in case if isinstance(k, str)}
    typo, guess = next(((k, g) for k, g in meant.items() if g), (None, None))
    if typo is not None and guess is not None:
        yield Fault(
            "HMT100",
            f"unknown key '{hints.key(typo, own=True)}' in test case",
            (*parts, typo),
            at="key",
            fix=Rename(guess),
        )
    else:
        yield Fault(
            "HMT105",
            "test case has neither `input` (single-turn) nor `turns` (multi-turn)",
            parts,
            hint="add `input: ...` for a single-turn test case, or a `turns:` list",
        )
    # Whatever else is wrong with it, judged as the last rule's (the plain) shape.
    plain = str(schema[CHOOSE][-1]["then"])
    for fault in _branch_errors(error, plain):
        if fault.code != "HMT101" and fault.parts != (*parts, typo):
            yield fault


def _neither_tool_form(error: ValidationError) -> Iterator[Fault]:
    yield Fault(
        "HMT102",
        f"an expected tool must be a tool name or a mapping {{name, args, count}}, "
        f"got {hints.show_with_kind(error.instance, own=True)}",
        _parts(error),
        fix=hints.quote_fix(None, error.instance),
    )


def _file_source(error: ValidationError) -> Iterator[Fault]:
    entry = error.instance
    message, hint = (
        ("a file sets both `path` and `url`; it takes exactly one", "remove `path` or `url`")
        if isinstance(entry, dict) and "path" in entry and "url" in entry
        else (
            "a file needs `path` (relative to the agent.yaml) or `url`",
            "add `path: ./data/file.pdf` or `url: https://...`",
        )
    )
    yield Fault("HMT107", message, _parts(error), hint=hint)


#: What a ``oneOf`` with no branch meant, or an ``anyOf`` none holds, reports, by its code.
_UNCHOSEN: dict[str, Handler] = {
    "HMT105": _no_test_case_shape,
    "HMT102": _neither_tool_form,
    "HMT106": _say(
        "HMT106",
        "an argument matcher holds both `fuzzy` and `regex`; a matcher is one or the other",
        hint="keep `fuzzy` or `regex`, not both",
    ),
    "HMT107": _file_source,
    "HMT108": _say(
        "HMT108",
        "cannot tell this metric's kind: it has no `type` and none of `metric`, "
        "`metric_type`, `criteria` or `grader`",
        hint="add `type: standard` (with `metric`), `geval`, `rag` or `code`",
    ),
}


def _subject(parts: JsonPath) -> str:
    """The last key of ``parts`` with the indices after it, in backticks."""
    keys = [i for i, part in enumerate(parts) if not isinstance(part, int)]
    start = keys[-1] if keys else 0
    tail = "".join(f"[{p}]" if isinstance(p, int) else p for p in parts[start:])
    return f"`{tail}`" if tail else "the document"


def _type_fault(parts: JsonPath, value: Any, expected: Iterable[str], noun: str = "") -> Fault:
    wanted = " or ".join(hints.type_name(t) for t in expected)
    subject = noun or _subject(parts)
    key = parts[-1] if parts else None
    fix: Intent | None = hints.quote_fix(key, value) if "a string" in wanted else None
    if fix is None and ("a number" in wanted or "an integer" in wanted):
        fix = hints.unquote_fix(key, value, integer="a number" not in wanted)
    hint = "give it a value, or remove the key" if value is None and fix is None else None
    if fix is None and "a string" in wanted:
        hint = _colon_read_as_key(value) or hint
    message = f"{subject} must be {wanted}, got {hints.show_with_kind(value, own=True)}"
    return Fault("HMT102", message, parts, hint=hint, fix=fix)


def _colon_read_as_key(value: Any) -> str | None:
    """``- Note: what is it?`` in a list of strings: YAML reads a mapping of one key."""
    pair: Any = next(iter(value.items())) if isinstance(value, dict) and len(value) == 1 else (0,)
    meant = hints.quote(": ".join(pair)) if all(isinstance(p, str) for p in pair) else None
    return f"unquoted, ': ' makes a key of the text before it; quote it: {meant}" if meant else None


def _bound_phrase(schema: dict[str, Any]) -> str:
    noun = "an integer" if schema.get("type") == "integer" else "a number"
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f"{noun} from {low} to {high}"
    signs = (
        (">=", "minimum"),
        (">", "exclusiveMinimum"),
        ("<=", "maximum"),
        ("<", "exclusiveMaximum"),
    )
    bounds = [f"{sign} {schema[k]}" for sign, k in signs if schema.get(k) is not None]
    return f"{noun} {' and '.join(bounds)}"


def _type(error: ValidationError) -> Iterator[Fault]:
    rule: Any = error.validator_value
    expected = [rule] if isinstance(rule, str) else rule
    yield _type_fault(_parts(error), error.instance, expected, _schema(error).get(NOUN, ""))


def _max_items(error: ValidationError) -> Iterator[Fault]:
    items: Any = error.instance
    parts, bound = _parts(error), error.validator_value
    if parts in ((), ("test_cases",)):  # the platform's limit per agent: the way out is to split
        yield Fault(
            "HMT103",
            f"{len(items)} test cases, at most {bound} per agent: split them between agents",
            parts,
            hint=(
                f"keep at most {bound} here and move the rest to another agent.yaml (inline, "
                "or in a test-cases file of its own): the platform counts an agent's test cases"
            ),
        )
        return
    message = f"{_subject(parts)} holds {len(items)} items; at most {bound} are allowed"
    yield Fault("HMT103", message, parts)


def _enum(error: ValidationError, subject: str = "") -> Iterator[Fault]:
    """A value outside the list; ``subject``: a metric's ``type``, whose fault no quoting fixes."""
    value = error.instance
    rule: Any = error.validator_value
    allowed = [str(v) for v in rule]
    text = str(value) if subject else value
    guess = hints.did_you_mean(text, allowed) if isinstance(text, str) else None
    quoted = None if subject else hints.quote_fix(None, value)
    yield Fault(
        "HMT103",
        f"{subject or _subject(_parts(error))} must be one of {', '.join(allowed)}, "
        f"got {hints.show_with_kind(value, own=True)}",
        _parts(error),
        fix=Rename(guess) if guess else quoted,
    )


def _pattern(error: ValidationError) -> Iterator[Fault]:
    schema, rule = _schema(error), str(error.validator_value)
    parts, fix = _parts(error), None
    if SHAPE in schema:
        shape = schema[SHAPE]
    elif "${" in rule or "\\$" in rule:
        types = schema.get("type")
        listed = types if isinstance(types, list) else []
        number = next((t for t in listed if t in ("integer", "number")), "number")
        shape = f"{hints.type_name(number)} or an ${{ENV_VAR}} reference"
        key = parts[-1] if parts else None
        fix = hints.unquote_fix(key, error.instance, integer=number == "integer")
    else:
        shape = f"text matching {rule}"
    message = f"{_subject(parts)} must be {shape}, got {hints.show(error.instance, own=True)}"
    yield Fault("HMT103", message, parts, fix=fix)


def _unknown_keys(error: ValidationError, matcher: bool = False) -> Iterator[Fault]:
    """Each key the node does not declare; ``matcher``: beside an argument matcher's key."""
    schema = _schema(error)
    properties = schema.get("properties", {})
    # Keys named only to be refused (hidden from completion) are no suggestion.
    allowed = [
        k for k, v in properties.items() if not (isinstance(v, dict) and v.get("doNotSuggest"))
    ]
    instance = error.instance if isinstance(error.instance, dict) else {}
    for key in (k for k in instance if k not in properties):
        where = (*_parts(error), key)
        if matcher:
            yield Fault(
                "HMT106",
                f"unknown key '{hints.key(key, own=True)}' beside the "
                f"`{schema['required'][0]}` matcher; "
                "a matcher mapping holds nothing else",
                where,
                at="key",
                hint="to compare a whole mapping literally, drop the matcher key",
            )
            continue
        guess = hints.did_you_mean(key, allowed)
        yield Fault(
            "HMT100",
            f"unknown key '{hints.key(key, own=True)}' in {schema.get(NAME, 'mapping')}",
            where,
            at="key",
            hint=derived(f"allowed keys: {', '.join(allowed)}") if allowed and not guess else None,
            fix=Rename(guess) if guess else None,
        )


def _missing_keys(error: ValidationError) -> Iterator[Fault]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    required: Any = error.validator_value
    for key in required:
        if key not in instance:
            yield Fault(
                "HMT101",
                f"missing required key `{key}` in {_schema(error).get(NAME, 'mapping')}",
                _parts(error),
            )


_KEYWORDS: dict[str, Handler] = {
    "additionalProperties": _unknown_keys,
    "required": _missing_keys,
    "type": _type,
    "enum": _enum,
    "minLength": _say("HMT103", lambda e: f"{_subject(_parts(e))} must not be empty"),
    "minItems": _say(
        "HMT103",
        lambda e: (
            f"{_subject(_parts(e))} needs at least {e.validator_value} "
            f"item{'s' if e.validator_value != 1 else ''}"
        ),
    ),
    "maxItems": _max_items,
    "const": _say(
        "HMT103",
        lambda e: (
            f"{_subject(_parts(e))} must be {hints.show(e.validator_value, given=False)}, "
            f"got {hints.show(e.instance, own=True)}"
        ),
    ),
    "pattern": _pattern,
}
for _bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
    _KEYWORDS[_bound] = _say(
        "HMT103",
        lambda e: (
            f"{_subject(_parts(e))} must be {_bound_phrase(_schema(e))}, "
            f"got {hints.show(e.instance, own=True)}"
        ),
    )


_other = _say("HMT103", lambda e: f"{_subject(_parts(e))} is not allowed here ({e.validator})")


def _single_turn_key(error: ValidationError) -> Iterator[Fault]:
    key = str(error.instance)
    hint = (
        "a multi-turn test case takes its inputs from `turns`; make it the first turn's `input`"
        if key == "input"
        else "move it onto each turn that needs it"
    )
    yield Fault(
        "HMT105",
        f"`{key}` is not allowed on a multi-turn test case (it has `turns`)",
        (*_parts(error), key),
        at="key",
        hint=hint,
    )


def _agent_metric_without_type(error: ValidationError) -> Iterator[Fault]:
    """An agent-level metric without `type`: the hint names the kind its fields suggest."""
    kind = metric_kind(error.instance) or "standard"
    yield Fault(
        "HMT108",
        "an agent-level metric needs `type`; the platform selects the kind by `type` alone",
        _parts(error),
        hint=f"add `type: {kind}`",
    )


def _blank(error: ValidationError) -> Iterator[Fault]:
    """Text that is only whitespace, where the platform refuses it as it refuses empty text."""
    if error.instance == "" and "minLength" in _schema(error):
        return  # empty text is minLength's fault, reported once
    yield Fault(
        "HMT114",
        f"{_subject(_parts(error))} must not be blank, got {hints.show(error.instance, own=True)}: "
        "the platform refuses text that is only whitespace",
        _parts(error),
    )


#: Handlers of the keywords the schema gives a code (``x-holodeck-codes``), by code and keyword.
_RULES: dict[tuple[str, str], Handler] = {
    ("HMT114", "pattern"): _blank,
    ("HMT105", "minItems"): _say(
        "HMT105",
        "`turns` must not be empty: a multi-turn test case needs at least one turn",
        hint="add a turn (`- input: ...`), or make it a single-turn test case with `input`",
    ),
    ("HMT105", "pattern"): _single_turn_key,
    ("HMT106", "additionalProperties"): functools.partial(_unknown_keys, matcher=True),
    ("HMT110", "not"): _say(
        "HMT110",
        "`test_cases` and `test_cases_file` are both set; use one or the other",
        hint="move the test cases into the file, or remove `test_cases_file`",
        key="test_cases_file",
    ),
    ("HMT108", "required"): _agent_metric_without_type,
    ("HMT103", "enum"): functools.partial(_enum, subject="metric `type`"),
}
