"""Hypothesis strategies for documents that follow the contract, and a YAML emitter.

:func:`documents` draws an agent.yaml (or a bare list of test cases) holding
both test-case shapes, every expected-tool and matcher form, every metric kind
at every level, files, retrieval_context and turn_config, with unicode text.
Every document it draws is valid and draws no warning: names are unique, flags
sit on the metric they apply to, regexes compile.

:func:`emit` writes a document as block YAML and records, for each node's path,
the line of its key (or list dash) and the line its value starts on: positions
known by construction, not read back through the loader under test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from hypothesis import strategies as st

from holodeck_mt.contract.registry import BASE_URI, METRIC, schema_files
from holodeck_mt.model import JsonPath
from holodeck_mt.rules.ineffective_flags import flags

Data = Any

# --- text ---------------------------------------------------------------------

#: Unicode text, any script, no surrogates or control characters, not only whitespace
#: (the platform refuses blank names, inputs and ground truths).
text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Co", "Cn")),
    min_size=1,
    max_size=12,
).filter(lambda s: not s.isspace())
identifier = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
tool_names = st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True)
#: Patterns that compile with Python's re (the platform uses re.fullmatch).
REGEXES = ["^2009.*$", r"\d+(\.\d+)?", "[A-Z]{3}", "(?i)net cash", "a|b|c", r"^\$?[0-9,]+$"]
finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6)
unit = st.floats(min_value=0, max_value=1, allow_nan=False)


def _optional(
    draw: st.DrawFn, out: dict[str, Any], key: str, strategy: st.SearchStrategy[Any]
) -> None:
    if draw(st.booleans()):
        out[key] = draw(strategy)


# --- models and metrics ---------------------------------------------------------


@st.composite
def models(draw: st.DrawFn) -> dict[str, Any]:
    model: dict[str, Any] = {
        "provider": draw(st.sampled_from(PROVIDERS)),
        "name": draw(text),
    }
    if model["provider"] == "azure_openai":  # the platform requires its endpoint
        model["endpoint"] = "https://example.openai.azure.com/"
    _optional(draw, model, "temperature", unit)
    _optional(draw, model, "max_tokens", st.integers(1, 10_000))
    _optional(draw, model, "top_p", unit)
    return model


# The kinds, names and flags come from the schema, so a strategy never drifts from it.
_METRIC = schema_files()[METRIC]["$defs"]
KINDS = [str(kind) for kind in _METRIC["Metric"]["properties"]["type"]["enum"]]
#: Each flag that applies to one standard metric only, with its metric.
FLAGS = flags()
METRIC_NAMES = list(_METRIC["StandardMetric"]["properties"]["metric"]["enum"])
RAG = list(_METRIC["RagMetric"]["properties"]["metric_type"]["enum"])
GEVAL_PARAMS = list(_METRIC["GEvalMetric"]["properties"]["evaluation_params"]["items"]["enum"])
PROVIDERS = list(
    schema_files()[BASE_URI + "llm-model.schema.json"]["$defs"]["LLMModel"]["properties"][
        "provider"
    ]["enum"]
)


def _flag_value(flag: str) -> st.SearchStrategy[Any]:
    """A value of a metric flag that the schema accepts: a boolean, or a number >= 0."""
    if _METRIC["StandardMetric"]["properties"][flag].get("type") == "boolean":
        return st.booleans()
    return st.floats(0, 100)


@st.composite
def metrics(draw: st.DrawFn, *, typed: bool) -> dict[str, Any]:
    """One metric of any kind; ``typed`` (the agent level) always sets `type`."""
    kind = draw(st.sampled_from(KINDS))
    metric: dict[str, Any] = {}
    if typed or draw(st.booleans()):
        metric["type"] = kind
    if kind == "standard":
        name = draw(st.sampled_from(METRIC_NAMES))
        metric["metric"] = name
        _optional(draw, metric, "threshold", finite)
        _optional(draw, metric, "retry_on_failure", st.integers(1, 3))
        _optional(draw, metric, "timeout_ms", st.integers(1, 60_000))
        _optional(draw, metric, "scale", st.integers(1, 10))
        _optional(
            draw,
            metric,
            "response_path",
            st.sampled_from(["answer", "result.value", "items[0].score"]),
        )
        for flag, owner in FLAGS.items():
            if owner == name:
                _optional(draw, metric, flag, _flag_value(flag))
    elif kind == "geval":
        metric["name"] = draw(text)
        metric["criteria"] = draw(text)
        _optional(draw, metric, "evaluation_steps", st.lists(text, max_size=3))
        _optional(
            draw,
            metric,
            "evaluation_params",
            st.lists(st.sampled_from(GEVAL_PARAMS), min_size=1, max_size=3, unique=True),
        )
        _optional(draw, metric, "threshold", unit)
        _optional(draw, metric, "strict_mode", st.booleans())
    elif kind == "rag":
        metric["metric_type"] = draw(st.sampled_from(RAG))
        _optional(draw, metric, "threshold", unit)
        _optional(draw, metric, "include_reason", st.booleans())
    else:
        module = draw(st.from_regex(r"[a-z][a-z_]{0,6}(\.[a-z][a-z_]{0,6}){0,2}", fullmatch=True))
        metric["grader"] = f"{module}:{draw(identifier)}"
        _optional(draw, metric, "threshold", finite)
        _optional(draw, metric, "name", text)
    _optional(draw, metric, "enabled", st.booleans())
    _optional(draw, metric, "fail_on_error", st.booleans())
    if kind != "code" and draw(st.integers(0, 4)) == 0:
        metric["model"] = draw(models())
    return metric


# --- expected tools, matchers, files -------------------------------------------------


literals = st.one_of(
    text,
    st.integers(-(10**6), 10**6),
    finite,
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 9), max_size=3),
    # Two keys: a one-key literal mapping may look like a misspelled matcher (HMT204).
    st.fixed_dictionaries({"mode": text, "level": st.integers(0, 3)}),
)
matchers = st.one_of(
    st.builds(lambda r: {"regex": r}, st.sampled_from(REGEXES)),
    st.builds(lambda t: {"fuzzy": t}, text),
    literals,
)


@st.composite
def expected_tools(draw: st.DrawFn) -> list[Any]:
    names = draw(st.lists(tool_names, min_size=1, max_size=3, unique=True))
    tools: list[Any] = []
    for name in names:
        if draw(st.booleans()):
            tools.append(name)
            continue
        tool: dict[str, Any] = {"name": name}
        _optional(draw, tool, "args", st.dictionaries(identifier, matchers, max_size=3))
        _optional(draw, tool, "count", st.integers(1, 5))
        tools.append(tool)
    return tools


FILE_TYPES = ["image", "pdf", "text", "excel", "word", "powerpoint", "csv"]


@st.composite
def file_inputs(draw: st.DrawFn) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": draw(st.sampled_from(FILE_TYPES))}
    if draw(st.booleans()):
        entry["path"] = "./data/" + draw(identifier) + ".pdf"
    else:
        entry["url"] = "https://example.com/" + draw(identifier)
    _optional(draw, entry, "pages", st.lists(st.integers(1, 50), max_size=3))
    _optional(draw, entry, "sheet", text)
    _optional(draw, entry, "cache", st.booleans())
    return entry


# --- test cases ---------------------------------------------------------------------


@st.composite
def _single_turn_fields(draw: st.DrawFn, *, turn: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {"input": draw(text)}
    _optional(draw, fields, "ground_truth", text)
    _optional(draw, fields, "expected_tools", expected_tools())
    _optional(draw, fields, "files", st.lists(file_inputs(), max_size=2))
    _optional(draw, fields, "retrieval_context", st.lists(text, max_size=3))
    _optional(draw, fields, "evaluations", st.lists(metrics(typed=False), max_size=2))
    if turn:
        _optional(draw, fields, "turn_config", st.dictionaries(identifier, literals, max_size=2))
    return fields


@st.composite
def test_cases(draw: st.DrawFn, name: str | None) -> dict[str, Any]:
    case: dict[str, Any] = {} if name is None else {"name": name}
    if draw(st.booleans()):
        case.update(draw(_single_turn_fields(turn=False)))
    else:
        case["turns"] = draw(st.lists(_single_turn_fields(turn=True), min_size=1, max_size=3))
        _optional(draw, case, "evaluations", st.lists(metrics(typed=False), max_size=2))
    return case


@st.composite
def case_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 3))
    names = draw(st.lists(text, min_size=count, max_size=count, unique=True))
    return [draw(test_cases(name if draw(st.booleans()) else None)) for name in names]


@st.composite
def documents(draw: st.DrawFn) -> Data:
    """A valid document: an agent.yaml mapping, or a bare list of test cases."""
    cases = draw(case_lists())
    if draw(st.integers(0, 3)) == 0:
        return cases
    agent: dict[str, Any] = {}
    _optional(draw, agent, "name", text)
    if draw(st.booleans()):
        evaluations: dict[str, Any] = {
            "metrics": draw(st.lists(metrics(typed=True), min_size=1, max_size=3))
        }
        _optional(draw, evaluations, "model", models())
        agent["evaluations"] = evaluations
    agent["test_cases"] = cases
    return agent


# --- the emitter ----------------------------------------------------------------------


@dataclass
class Emitted:
    text: str
    #: path -> (line of its key or list dash, line its value starts on), 1-based.
    lines: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)


def quote(value: str) -> str:
    """A YAML double-quoted scalar with every non-ASCII character escaped."""
    out = ['"']
    for char in value:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= code < 0x7F:
            out.append(char)
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def _scalar(value: Any) -> str | None:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return quote(value)
    if value == {}:
        return "{}"
    if value == []:
        return "[]"
    return None


def _float(value: float) -> str:
    """A float as the platform (YAML 1.1) reads it back: a dot, and a signed exponent."""
    mantissa, e, exponent = repr(value).partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    if e and exponent[0] not in "+-":
        exponent = "+" + exponent
    return mantissa + (f"e{exponent}" if e else "")


def _key(key: str) -> str:
    """The key plain where YAML 1.1 reads it back as this string (``on`` and ``no`` are
    booleans to the platform, ``null`` nothing), quoted otherwise."""
    return key if key.isidentifier() and yaml.safe_load(key) == key else quote(key)


def emit(data: Data) -> Emitted:
    out = Emitted(text="", lines={(): (1, 1)})
    lines: list[str] = []

    def mapping(value: dict[str, Any], indent: int, path: JsonPath, first: str | None) -> None:
        for i, (key, item) in enumerate(value.items()):
            prefix = first if i == 0 and first is not None else " " * indent
            here = len(lines) + 1
            where = (*path, key)
            shown = _scalar(item)
            if shown is not None:
                lines.append(f"{prefix}{_key(key)}: {shown}")
                out.lines[where] = (here, here)
            else:
                lines.append(f"{prefix}{_key(key)}:")
                out.lines[where] = (here, here + 1)
                block(item, indent + 2, where)

    def sequence(value: list[Any], indent: int, path: JsonPath) -> None:
        for j, item in enumerate(value):
            prefix = " " * indent + "- "
            here = len(lines) + 1
            where = (*path, j)
            shown = _scalar(item)
            if shown is not None:
                lines.append(prefix + shown)
                out.lines[where] = (here, here)
            elif isinstance(item, dict):
                out.lines[where] = (here, here)
                mapping(item, indent + 2, where, prefix)
            else:
                lines.append(prefix.rstrip())
                out.lines[where] = (here, here + 1)
                sequence(item, indent + 2, where)

    def block(value: Any, indent: int, path: JsonPath) -> None:
        if isinstance(value, dict):
            mapping(value, indent, path, None)
        else:
            sequence(value, indent, path)

    shown = _scalar(data)
    if shown is not None:
        lines.append(shown)
    else:
        block(data, 0, ())
    out.text = "\n".join(lines) + "\n"
    return out
