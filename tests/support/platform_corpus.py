"""Variant documents for the differential test against the platform's own loader.

Every field the validator judges, at every level it occurs (agent, agent
evaluations and their model and optimizer, test case of either shape, turn,
expected tool, argument matcher, file input, metric of each kind at the agent,
test-case and turn level, LLM model), is written with each scalar of the
families of the platform's YAML reading: YAML 1.1 and 1.2 booleans, integers
(`1_000`, `0x1F`, `017`, `1:30`, `0o17`), floats with and without a dot,
`.nan`/`.inf`, quoted numbers and booleans, strings with `:` and `-`, `=`,
dates, nulls, empty and whitespace-only strings, empty and small collections.
A few structural documents add the limits and rules no scalar reaches (1001 test
cases, 11 files, an empty metric list, an optimizer block, unknown keys, `${NAME}`).

Each document is minimal: just the containers its field needs, so that the
platform's verdict is about that one field. The same call always gives the same
documents, in the same order.

The whole-agent corpus (:func:`agent_corpus`) writes complete agent.yaml files, the
platform's own sections included, each a run of `holodeck test`: with the files of
the agent's folder (a test-cases file, a prompt, a ``.env``), the files of the
folder the run starts in (its ``.env``) and the environment it starts with.

    python -m tests.support.platform_corpus --out DIR  # one file per document
    python -m tests.support.platform_corpus --count  # how many there are
    python -m tests.support.platform_corpus --whole --out DIR # DIR/NNNNN/agent/agent.yaml, ...
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_mt.contract import registry as schemas

__all__ = ["FAMILIES", "Variant", "agent_corpus", "corpus", "dump", "main"]


class Raw(str):
    """YAML text written as it is (a scalar, or a flow collection)."""


#: The scalar families, as written in YAML.
FAMILIES: dict[str, list[str]] = {
    "bool-1.1": ["yes", "off", "n"],
    "bool": ["true", "False"],
    "int": ["0", "1", "-1"],
    "int-1.1": ["1_000", "0x1F", "017", "1:30"],
    "int-1.2": ["0o17"],
    "float": ["0.5", "2.0", "2.5", ".5"],
    "float-no-dot": ["1e3", "5e-1"],
    "non-finite": [".nan", "-.inf"],
    "quoted-number": ['"0.5"', '"2"', '"1e3"'],
    "quoted-bool": ['"yes"', "'n'"],
    "string": ["abc", "ns:tool", "a-b.c[0]"],
    "yaml-special": ["=", "2009-12-31"],
    "empty-string": ['""', '"   "', '"\\t"'],
    "null": ["~", ""],
    "collection": ["[]", "{a: 1}"],
}


@dataclass(frozen=True)
class Variant:
    """One document: its id (``slot=family:text``), its text, and files beside it."""

    id: str
    text: str
    referenced: dict[str, str] = field(default_factory=dict)
    #: Environment variables set while judging it (beside an empty environment).
    environ: dict[str, str] = field(default_factory=dict)
    #: A whole agent.yaml: the platform loads it as it is, its own sections included.
    whole: bool = False
    #: Files of the folder the run starts in (its ``.env``); ``referenced`` files lie in
    #: the agent's own folder, inside it.
    working: dict[str, str] = field(default_factory=dict)


# --- YAML writing ------------------------------------------------------------


def _scalar(value: Any) -> str:
    if isinstance(value, Raw):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def dump(node: Any, indent: int = 0) -> str:
    """Block-style YAML of ``node``; ``Raw`` scalars and keys are written verbatim."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(node, dict):
        if not node:
            return pad + "{}\n"
        for key, value in node.items():
            plain = isinstance(key, str) and key.isidentifier() and key.lower() not in _WORDS
            k = str(key) if isinstance(key, Raw) or plain else _scalar(key)
            if isinstance(value, (dict, list)) and value:
                lines.append(f"{pad}{k}:\n{dump(value, indent + 2)}")
            else:
                text = _scalar(value) if not isinstance(value, (dict, list)) else _empty(value)
                lines.append(f"{pad}{k}:{' ' + text if text else ''}\n")
    elif isinstance(node, list):
        if not node:
            return pad + "[]\n"
        for item in node:
            if isinstance(item, dict) and item:
                inner = dump(item, indent + 2)
                lines.append(f"{pad}- {inner[indent + 2 :]}")
            elif isinstance(item, list) and item:
                lines.append(f"{pad}-\n{dump(item, indent + 2)}")
            else:
                text = _scalar(item) if not isinstance(item, (dict, list)) else _empty(item)
                lines.append(f"{pad}-{' ' + text if text else ''}\n")
    else:
        return pad + _scalar(node) + "\n"
    return "".join(lines)


#: Keys a YAML 1.1 reader takes for something other than a string.
_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})


def _empty(value: dict[str, Any] | list[Any]) -> str:
    return "{}" if isinstance(value, dict) else "[]"


# --- where each field sits ---------------------------------------------------

Path_ = tuple[str | int, ...]
#: A context: (the document, the path to the mapping or list the field sits in).
Context = tuple[Any, Path_]


def _single() -> Context:
    return {"test_cases": [{"input": "q"}]}, ("test_cases", 0)


def _multi() -> Context:
    return {"test_cases": [{"turns": [{"input": "q"}]}]}, ("test_cases", 0)


def _turn(extra: dict[str, Any] | None = None) -> Context:
    turn: dict[str, Any] = {"input": "q", **(extra or {})}
    return {"test_cases": [{"name": "c", "turns": [turn]}]}, ("test_cases", 0, "turns", 0)


def _in_turn(key: str, value: Any, *rest: str | int) -> Callable[[], Context]:
    def make() -> Context:
        doc, base = _turn({key: value})
        return doc, (*base, key, *rest)

    return make


_METRICS: dict[str, dict[str, Any]] = {
    "standard": {"metric": "numeric"},
    "geval": {"name": "Helpfulness", "criteria": "Is it helpful?"},
    "rag": {"metric_type": "faithfulness"},
    "code": {"grader": "graders.convfinqa:score"},
}
_METRIC_DEFINITIONS = {
    "standard": "StandardMetric",
    "geval": "GEvalMetric",
    "rag": "RagMetric",
    "code": "CodeMetric",
}
#: Every field of each metric kind, as its schema declares them.
_METRIC_FIELDS: dict[str, list[str]] = {
    kind: list(schemas.definition(schemas.METRIC, name)["properties"])
    for kind, name in _METRIC_DEFINITIONS.items()
}
#: Every field of the LLM model, as its schema declares them.
_MODEL_FIELDS = list(schemas.definition(schemas.LLM_MODEL, "LLMModel")["properties"])


def _metric_at(level: str, kind: str) -> Callable[[], Context]:
    def make() -> Context:
        metric = dict(_METRICS[kind])
        if level == "agent":
            metric = {"type": kind, **metric}
            return (
                {"evaluations": {"metrics": [metric]}, "test_cases": [{"input": "q"}]},
                ("evaluations", "metrics", 0),
            )
        if level == "test-case":
            return (
                {"test_cases": [{"input": "q", "evaluations": [metric]}]},
                ("test_cases", 0, "evaluations", 0),
            )
        doc, base = _turn({"evaluations": [metric]})
        return doc, (*base, "evaluations", 0)

    return make


def _model_at(level: str, provider: str = "openai") -> Callable[[], Context]:
    def make() -> Context:
        model: dict[str, Any] = {"provider": provider, "name": "gpt-4o"}
        if provider == "azure_openai":
            model["endpoint"] = "https://example.openai.azure.com"
        if level == "agent":
            return (
                {
                    "evaluations": {
                        "model": model,
                        "metrics": [{"type": "rag", **_METRICS["rag"]}],
                    },
                    "test_cases": [{"input": "q"}],
                },
                ("evaluations", "model"),
            )
        doc, base = _turn({"evaluations": [{**_METRICS["geval"], "model": model}]})
        return doc, (*base, "evaluations", 0, "model")

    return make


def _agent_evaluations() -> Context:
    return (
        {
            "evaluations": {"metrics": [{"type": "rag", **_METRICS["rag"]}]},
            "test_cases": [{"input": "q"}],
        },
        ("evaluations",),
    )


_OPTIMIZER = {"loss": {"faithfulness": 1.0}}


def _optimizer(*rest: str | int, block: dict[str, Any] | None = None) -> Callable[[], Context]:
    def make() -> Context:
        doc, base = _agent_evaluations()
        doc["evaluations"]["optimizer"] = json.loads(json.dumps(block or _OPTIMIZER))
        return doc, (*base, "optimizer", *rest)

    return make


def _agent() -> Context:
    return {"test_cases": [{"input": "q"}]}, ()


def _fields_of(file: str, name: str) -> list[str]:
    return list(schemas.definition(f"{schemas.BASE_URI}{file}.schema.json", name)["properties"])


#: Every field of a turn and of each test-case shape, as their schemas declare them.
_TURN = _fields_of("turn", "Turn")
_SINGLE = _fields_of("test-case", "SingleTurnTestCase")
_MULTI = _fields_of("test-case", "MultiTurnTestCase")


def _slots() -> Iterator[tuple[str, Callable[[], Context], str | int]]:
    """``(slot name, context, key or index)`` for every field of every level."""
    for key in (*_SINGLE, "turns"):
        yield f"single.{key}", _single, key
    for key in _MULTI:
        yield f"multi.{key}", _multi, key
    for key in _TURN:
        yield f"turn.{key}", _turn, key
    yield "turn.retrieval_context[0]", _in_turn("retrieval_context", ["p"]), 0
    yield "turn.expected_tools[0]", _in_turn("expected_tools", ["lookup"]), 0
    tool = {"name": "subtract"}
    for key in ("name", "count", "args"):
        yield f"tool.{key}", _in_turn("expected_tools", [dict(tool)], 0), key
    with_args = [{"name": "subtract", "args": {"a": 1}}]
    yield "args.a", _in_turn("expected_tools", with_args, 0, "args"), "a"
    yield (
        "args.a.fuzzy",
        _in_turn("expected_tools", [{"name": "s", "args": {"a": {}}}], 0, "args", "a"),
        "fuzzy",
    )
    yield (
        "args.a.regex",
        _in_turn("expected_tools", [{"name": "s", "args": {"a": {}}}], 0, "args", "a"),
        "regex",
    )
    yield "turn_config.k", _in_turn("turn_config", {"turn_program": "x"}), "k"
    by_path = {"path": "data/a.pdf", "type": "pdf"}
    for key in ("path", "url", "type", "description", "pages", "sheet", "range", "cache"):
        yield f"file.{key}", _in_turn("files", [dict(by_path)], 0), key
    yield (
        "file-url.path",
        _in_turn("files", [{"url": "https://x.org/a.pdf", "type": "pdf"}], 0),
        "path",
    )
    yield "file.pages[0]", _in_turn("files", [{**by_path, "pages": [1]}], 0, "pages"), 0
    for level in ("agent", "test-case", "turn"):
        for kind, fields in _METRIC_FIELDS.items():
            if level == "test-case" and kind != "standard":
                continue  # the test-case level shares the turn level's metric models
            for key in fields:
                yield f"{level}-metric.{kind}.{key}", _metric_at(level, kind), key
    yield (
        "geval.evaluation_steps[0]",
        _in_turn(
            "evaluations", [{**_METRICS["geval"], "evaluation_steps": ["s"]}], 0, "evaluation_steps"
        ),
        0,
    )
    yield (
        "geval.evaluation_params[0]",
        _in_turn(
            "evaluations",
            [{**_METRICS["geval"], "evaluation_params": ["input"]}],
            0,
            "evaluation_params",
        ),
        0,
    )
    for level in ("agent", "metric"):
        for key in _MODEL_FIELDS:
            yield f"{level}-model.{key}", _model_at(level), key
    yield "azure-model.endpoint", _model_at("agent", "azure_openai"), "endpoint"
    for key in ("model", "metrics", "optimizer", "foo"):
        yield f"agent-evaluations.{key}", _agent_evaluations, key
    for key in (
        "loss",
        "axes",
        "max_cycles",
        "numeric_phase",
        "textual_phase",
        "min_delta",
        "seed",
    ):
        yield f"optimizer.{key}", _optimizer(), key
    yield "optimizer.loss.w", _optimizer("loss"), "faithfulness"
    yield (
        "optimizer.numeric_phase.max_trials",
        _optimizer(
            "numeric_phase", block={**_OPTIMIZER, "numeric_phase": {"max_trials": 3, "patience": 2}}
        ),
        "max_trials",
    )
    yield "agent.test_cases_file", _agent, "test_cases_file"


# --- structural documents ----------------------------------------------------


def _cases(n: int) -> list[dict[str, Any]]:
    return [{"name": f"c{i}", "input": "q"} for i in range(n)]


def _files(n: int) -> list[dict[str, Any]]:
    return [{"path": f"data/{i}.pdf", "type": "pdf"} for i in range(n)]


def _faithfulness(
    model: dict[str, Any] | None = None, optimizer: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An agent whose `evaluations` run the faithfulness metric, with ``model`` and
    ``optimizer`` when given."""
    evaluations: dict[str, Any] = {"model": model} if model is not None else {}
    evaluations["metrics"] = [{"type": "rag", "metric_type": "faithfulness"}]
    if optimizer is not None:
        evaluations["optimizer"] = optimizer
    return {"evaluations": evaluations}


def _structural() -> Iterator[Variant]:
    docs: dict[str, Any] = {
        "test-cases.1000": {"test_cases": _cases(1000)},
        "test-cases.1001": {"test_cases": _cases(1001)},
        "single.files.10": {"test_cases": [{"input": "q", "files": _files(10)}]},
        "single.files.11": {"test_cases": [{"input": "q", "files": _files(11)}]},
        "turn.files.10": {"test_cases": [{"turns": [{"input": "q", "files": _files(10)}]}]},
        "turn.files.11": {"test_cases": [{"turns": [{"input": "q", "files": _files(11)}]}]},
        "agent-evaluations.metrics.empty": {"evaluations": {"metrics": []}, "test_cases": []},
        "agent-evaluations.no-metrics": {
            "evaluations": {"model": {"provider": "openai", "name": "m"}}
        },
        "optimizer.complete": _faithfulness(
            optimizer={
                "loss": {"faithfulness": 1.0},
                "axes": {
                    "numeric": [
                        {"path": "model.temperature", "type": "float", "range": [0.0, 1.0]}
                    ],
                    "textual": [{"path": "instructions.inline", "max_chars": 2000}],
                },
                "max_cycles": 2,
                "numeric_phase": {"max_trials": 5, "patience": 2},
                "textual_phase": {"max_trials": 3, "patience": 1},
                "min_delta": 0.0,
                "seed": 7,
            }
        ),
        "optimizer.no-loss": _faithfulness(optimizer={"max_cycles": 2}),
        "optimizer.empty-loss": _faithfulness(optimizer={"loss": {}}),
        "optimizer.unknown-key": _faithfulness(optimizer={"loss": {"f": 1}, "foo": 1}),
        "optimizer.axis-type": _faithfulness(
            optimizer={
                "loss": {"f": 1},
                "axes": {"numeric": [{"path": "p", "type": "bool", "range": [0, 1]}]},
            }
        ),
        "optimizer.axis-range-length": _faithfulness(
            optimizer={
                "loss": {"f": 1},
                "axes": {"numeric": [{"path": "p", "type": "int", "range": [1]}]},
            }
        ),
        "optimizer.categorical-empty": _faithfulness(
            optimizer={
                "loss": {"f": 1},
                "axes": {"numeric": [{"path": "p", "type": "categorical", "range": []}]},
            }
        ),
        "optimizer.textual-blank-path": _faithfulness(
            optimizer={"loss": {"f": 1}, "axes": {"textual": [{"path": "  "}]}}
        ),
        "optimizer.phase-missing-patience": _faithfulness(
            optimizer={"loss": {"f": 1}, "numeric_phase": {"max_trials": 2}}
        ),
        "azure.no-endpoint": _faithfulness(model={"provider": "azure_openai", "name": "gpt"}),
        "azure.blank-endpoint": _faithfulness(
            model={"provider": "azure_openai", "name": "gpt", "endpoint": "  "}
        ),
        "metric-azure.no-endpoint": {
            "test_cases": [
                {
                    "input": "q",
                    "evaluations": [
                        {
                            "name": "n",
                            "criteria": "c",
                            "model": {"provider": "azure_openai", "name": "gpt"},
                        }
                    ],
                }
            ]
        },
        "model.temperature.2": _faithfulness(
            model={"provider": "openai", "name": "m", "temperature": 2}
        ),
        "model.temperature.2.01": _faithfulness(
            model={"provider": "openai", "name": "m", "temperature": 2.01}
        ),
        "model.auth_provider.bedrock": _faithfulness(
            model={"provider": "anthropic", "name": "m", "auth_provider": "bedrock"}
        ),
        "model.auth_provider.other": _faithfulness(
            model={"provider": "anthropic", "name": "m", "auth_provider": "password"}
        ),
        "tool.args.non-string-key": None,
        "turn_config.non-string-key": None,
        "duplicate-key.turn": None,
        "merge-key": None,
        "binary.ground_truth": None,
        "set.retrieval_context": None,
        "test-cases-list": [{"name": "a", "input": "q"}, {"turns": [{"input": "q"}]}],
        "test-cases-list.empty": [],
        "empty-document": None,
        "comment-only-document": None,
    }
    turn = "test_cases:\n  - turns:\n      - input: q\n"
    texts = {
        "tool.args.non-string-key": turn + "        expected_tools: [{name: s, args: {1: 2}}]\n",
        "turn_config.non-string-key": turn + "        turn_config: {on: 1}\n",
        "duplicate-key.turn": turn + "        input: r\n",
        "merge-key": "test_cases:\n  - &b {input: q}\n  - <<: *b\n    name: n\n",
        "binary.ground_truth": turn + "        ground_truth: !!binary aGVsbG8=\n",
        "set.retrieval_context": turn + "        retrieval_context: !!set {a, b}\n",
        "empty-document": "",
        "comment-only-document": "# nothing here\n",
    }
    for name, doc in docs.items():
        yield Variant(f"{name}", texts.get(name) or dump(doc))
    for key in ("foo", "Name", "test_case", "evaluation", "on", "1"):
        yield Variant(f"agent.unknown-key={key}", f"{key}: 1\ntest_cases:\n  - input: q\n")
    # name, model and instructions are required by the platform and owned by it: the
    # validator does not judge their values, and the oracle fills them in when absent.
    owned = ("description", "author", "response_format", "tools", "execution", "observability")
    for key in (*owned, "deployment", "embedding_provider", "claude", "openai"):
        yield Variant(f"agent.platform-key={key}", f"{key}: null\ntest_cases:\n  - input: q\n")
    cases = "- name: a\n  input: q\n"
    for name, content in {
        "list": cases,
        "mapping": f"test_cases:\n{cases}",
        "mapping-extra-keys": f"version: 1\ntest_cases:\n{cases}",
        "empty": "",
        "comment-only": "# none yet\n",
        "empty-mapping": "{}\n",
        "zero": "0\n",
        "scalar": "abc\n",
    }.items():
        yield Variant(
            f"test_cases_file.{name}",
            "test_cases_file: cases.yaml\n",
            referenced={"cases.yaml": content},
        )
    yield Variant(
        "test_cases_file.beside-test-cases",
        "test_cases_file: cases.yaml\ntest_cases: []\n",
        referenced={"cases.yaml": cases},
    )
    env = "test_cases:\n  - input: q   # asks about ${HMT_ORACLE_VAR}\n"
    yield Variant("env.unset-in-comment", env)
    yield Variant("env.set-in-comment", env, environ={"HMT_ORACLE_VAR": "x"})
    value = 'test_cases:\n  - input: "${HMT_ORACLE_VAR}"\n'
    yield Variant("env.unset-in-value", value)
    yield Variant("env.set-in-value", value, environ={"HMT_ORACLE_VAR": "hello"})


def _get(doc: Any, path: Path_) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def corpus() -> list[Variant]:
    """Every variant document: each field with each scalar, then the structural ones."""
    out: list[Variant] = []
    for slot, context, key in _slots():
        for family, scalars in FAMILIES.items():
            for text in scalars:
                doc, parent_path = context()
                parent = _get(doc, parent_path)
                if isinstance(parent, list):
                    assert isinstance(key, int)
                    parent[key] = Raw(text)
                else:
                    parent[key] = Raw(text)
                out.append(Variant(f"{slot}={family}:{text}", dump(doc)))
    out.extend(_structural())
    return out


# --- whole agent.yaml documents: the platform's own sections ------------------


#: A complete agent the platform loads: every section it owns, each tool type.
def _whole_agent() -> dict[str, Any]:
    return {
        "name": "oracle-agent",
        "description": "Answers questions.",
        "model": {"provider": "openai", "name": "gpt-4o", "temperature": 0.2, "max_tokens": 500},
        "instructions": {"inline": "Answer the question."},
        "tools": [
            {
                "name": "subtract",
                "type": "function",
                "description": "Subtracts.",
                "file": "tools.py",
                "function": "subtract",
            },
            {"name": "search", "type": "mcp", "description": "Searches.", "command": "npx"},
            {
                "name": "summarise",
                "type": "prompt",
                "description": "Summarises.",
                "template": "Summarise {{text}}",
                "parameters": {"text": {"type": "string"}},
            },
            {"name": "docs", "type": "vectorstore", "description": "Docs.", "source": "docs/"},
        ],
        "execution": {"llm_timeout": 60, "file_timeout": 30, "cache_enabled": True},
        "observability": {"enabled": False, "service_name": "agent"},
        "response_format": {"type": "object"},
        "claude": {"max_turns": 5, "web_search": False},
        "test_cases": [{"name": "one", "input": "What is 2 + 2?", "ground_truth": "4"}],
    }


#: Each field of the platform's own sections that the whole-agent corpus writes with
#: every scalar family (a path from the agent's root).
_OWNED_SLOTS: list[Path_] = [
    ("name",),
    ("description",),
    ("model", "provider"),
    ("model", "name"),
    ("model", "temperature"),
    ("model", "max_tokens"),
    ("instructions", "inline"),
    ("tools", 0, "type"),
    ("tools", 0, "name"),
    ("tools", 0, "description"),
    ("tools", 0, "file"),
    ("tools", 1, "command"),
    ("tools", 2, "template"),
    ("tools", 3, "source"),
    ("execution", "llm_timeout"),
    ("execution", "cache_enabled"),
    ("observability", "enabled"),
    ("observability", "service_name"),
    ("response_format",),
    ("claude", "max_turns"),
    ("claude", "web_search"),
]

#: Whole sections removed, doubled or misspelt.
_SECTION_EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "model.missing": lambda d: d.pop("model"),
    "instructions.missing": lambda d: d.pop("instructions"),
    "name.missing": lambda d: d.pop("name"),
    "instructions.file-and-inline": lambda d: d["instructions"].update(file="prompt.md"),
    "instructions.empty": lambda d: d.update(instructions={}),
    "model.unknown-key": lambda d: d["model"].update(temprature=0.2),
    "tools.unknown-key": lambda d: d["tools"][0].update(descripton="x"),
    "tools.no-description": lambda d: d["tools"][0].pop("description"),
    "tools.duplicate-name": lambda d: d["tools"][1].update(name="subtract"),
    "execution.unknown-key": lambda d: d["execution"].update(timeout=3),
    "claude.unknown-key": lambda d: d["claude"].update(turns=3),
    "model.azure-without-endpoint": lambda d: d["model"].update(provider="azure_openai"),
    "tools.not-a-list": lambda d: d.update(tools={"name": "x"}),
    "model.a-string": lambda d: d.update(model="gpt-4o"),
}

#: ``${NAME}`` written in flow and block collections, comments and quoted strings, with
#: values that break the YAML, numbers, booleans, or no value at all.
_ENV_PLACES = {
    "block-value": ("  temperature: ${V}\n", "model"),
    "flow-value": ("model: {provider: openai, name: gpt-4o, temperature: ${V}}\n", None),
    "quoted": ('  name: "${V}"\n', "model"),
    "comment": ("# model set by ${V}\n", None),
    "flow-sequence": ("    expected_tools: [${V}]\n", "case"),
}
_ENV_VALUES: dict[str, str | None] = {
    "unset": None,
    "number": "0.7",
    "too-hot": "7.5",
    "boolean": "true",
    "word": "gpt-4o",
    "empty": "",
    "quote": '"',
    "mapping": "a: b",
    "comma": "a, b",
}


def _env_document(place: str) -> str:
    line, within = _ENV_PLACES[place]
    head = "name: oracle-agent\ninstructions: {inline: Answer.}\n"
    model = "model:\n  provider: openai\n  name: gpt-4o\n"
    case = "test_cases:\n  - input: What is 2 + 2?\n"
    if within == "model":
        model += line.replace("${V}", "${HMT_ORACLE_V}")
        return head + model + case
    if within == "case":
        return head + model + case + line.replace("${V}", "${HMT_ORACLE_V}")
    text = line.replace("${V}", "${HMT_ORACLE_V}")
    return head + (text if place == "flow-value" else model + text) + case


# --- whole runs: `.env` files, test_cases_file beside test_cases, sections in depth --

_RUN_HEAD = "name: oracle-agent\ninstructions: {inline: Answer.}\n"
_RUN_MODEL = "model:\n  provider: openai\n  name: gpt-4o\n"
_RUN_CASE = "test_cases:\n  - input: What is 2 + 2?\n"
_A, _B = "HMT_ORACLE_A", "HMT_ORACLE_B"


def _ref(name: str, default: str | None = None) -> str:
    return "${" + name + ("" if default is None else ":-" + default) + "}"


_THRESHOLD = "      threshold: {ref}\n"
#: Where ``${HMT_ORACLE_A}`` is used: a model number (a section of the platform's), a
#: test case's metric threshold, and the same in the test-cases file the agent names.
_DOTENV_USES: dict[str, tuple[str, dict[str, str]]] = {
    "model": (_RUN_HEAD + _RUN_MODEL + "  temperature: {ref}\n" + _RUN_CASE, {}),
    "case": (
        _RUN_HEAD
        + _RUN_MODEL
        + _RUN_CASE
        + "    evaluations:\n      - metric: numeric\n        threshold: {ref}\n",
        {},
    ),
    "cases-file": (
        _RUN_HEAD + _RUN_MODEL + "test_cases_file: cases.yaml\n",
        {"cases.yaml": "- input: q\n  evaluations:\n    - metric: numeric\n" + _THRESHOLD},
    ),
}

#: The ``.env`` of the working folder, the ``.env`` of the agent's folder, and the
#: environment: the value ``${HMT_ORACLE_A}`` takes as `holodeck test` runs, through
#: python-dotenv's chains (``A=${B}``), defaults (``${B:-x}``), quoting and syntax.
_DOTENV_SETUPS: dict[str, tuple[str | None, str | None, dict[str, str]]] = {
    "none": (None, None, {}),
    "working": (f"{_A}=0.5\n", None, {}),
    "working-word": (f"{_A}=hot\n", None, {}),
    "working-empty-value": (f"{_A}=\n", None, {}),
    "agent-folder-only": (None, f"{_A}=0.5\n", {}),
    "agent-folder-only-word": (None, f"{_A}=hot\n", {}),
    "both-folders": (f"{_A}=0.5\n", f"{_A}=hot\n", {}),
    "both-folders-reversed": (f"{_A}=hot\n", f"{_A}=0.5\n", {}),
    "environment-first": (f"{_A}=hot\n", None, {_A: "0.5"}),
    "chain": (f"{_B}=0.5\n{_A}={_ref(_B)}\n", None, {}),
    "chain-word": (f"{_B}=hot\n{_A}={_ref(_B)}\n", None, {}),
    "chain-forward": (f"{_A}={_ref(_B)}\n{_B}=0.5\n", None, {}),
    "chain-from-environment": (f"{_A}={_ref(_B)}\n", None, {_B: "0.5"}),
    "chain-from-environment-word": (f"{_A}={_ref(_B)}\n", None, {_B: "hot"}),
    "chain-unset": (f"{_A}={_ref(_B)}\n", None, {}),
    "chain-inside-text": (f"{_B}=5\n{_A}=0.{_ref(_B)}\n", None, {}),
    "chain-across-folders": (f"{_A}={_ref(_B)}\n", f"{_B}=0.5\n", {}),
    "default-unset": (f"{_A}={_ref(_B, '0.3')}\n", None, {}),
    "default-unset-word": (f"{_A}={_ref(_B, 'hot')}\n", None, {}),
    "default-set": (f"{_B}=0.5\n{_A}={_ref(_B, 'hot')}\n", None, {}),
    "default-set-word": (f"{_B}=hot\n{_A}={_ref(_B, '0.3')}\n", None, {}),
    "default-empty": (f"{_A}={_ref(_B, '')}\n", None, {}),
    "default-from-environment": (f"{_A}={_ref(_B, 'hot')}\n", None, {_B: "0.5"}),
    "single-quoted": (f"{_B}=0.5\n{_A}='{_ref(_B)}'\n", None, {}),
    "double-quoted": (f'{_B}=0.5\n{_A}="{_ref(_B)}"\n', None, {}),
    "export": (f"export {_A}=0.5\n", None, {}),
    "spaces": (f"{_A} = 0.5\n", None, {}),
    "comment-after": (f"{_A}=0.5 # warm\n", None, {}),
    "quoted-value": (f'{_A}="0.5"\n', None, {}),
    "malformed-line-before": (f"not a line\n{_A}=0.5\n", None, {}),
    "crlf": (f"{_A}=0.5\r\n", None, {}),
    "breaks-the-yaml": (f'{_A}="a: b"\n', None, {}),
    "escaped-newline": (f'{_A}="0.5\\nhot"\n', None, {}),
}


def _dotenv_runs() -> Iterator[Variant]:
    for use, (template, files) in _DOTENV_USES.items():
        for setup, (working, beside, environ) in _DOTENV_SETUPS.items():
            referenced = {k: v.replace("{ref}", _ref(_A)) for k, v in files.items()}
            if beside is not None:
                referenced[".env"] = beside
            yield Variant(
                f"whole.dotenv.{use}={setup}",
                template.replace("{ref}", _ref(_A)),
                referenced=referenced,
                environ=dict(environ),
                whole=True,
                working={} if working is None else {".env": working},
            )
        # ``${NAME:-default}`` in the agent.yaml itself: the platform substitutes only
        # ``${NAME}``, so the text stays as it is written.
        for setup in ("none", "working"):
            working, _, environ = _DOTENV_SETUPS[setup]
            referenced = {k: v.replace("{ref}", _ref(_A, "0.3")) for k, v in files.items()}
            yield Variant(
                f"whole.dotenv.{use}.default-in-yaml={setup}",
                template.replace("{ref}", _ref(_A, "0.3")),
                referenced=referenced,
                environ=dict(environ),
                whole=True,
                working={} if working is None else {".env": working or ""},
            )


def _cases_file_runs() -> Iterator[Variant]:
    """``test_cases`` null, empty or given beside a ``test_cases_file``, and the reverse."""
    head = _RUN_HEAD + _RUN_MODEL
    for name, value in {
        "null": "null",
        "tilde": "~",
        "empty": "",
        "empty-list": "[]",
        "empty-mapping": "{}",
        "empty-string": '""',
        "one-case": "[{input: q}]",
    }.items():
        line = f"test_cases:{' ' + value if value else ''}\n"
        for content_name, content in {
            "cases": "- input: q\n",
            "empty-file": "",
            "faulty-case": "- inptu: q\n",
            "null-cases": "test_cases: null\n",
        }.items():
            for order, text in {
                "after": head + "test_cases_file: cases.yaml\n" + line,
                "before": head + line + "test_cases_file: cases.yaml\n",
            }.items():
                yield Variant(
                    f"whole.test_cases_file.{content_name}.{order}.test_cases={name}",
                    text,
                    referenced={"cases.yaml": content},
                    whole=True,
                )
    for name, value in {
        "null": "null",
        "empty": "",
        "blank": '"  "',
        "missing-file": "absent.yaml",
        "number": "1",
    }.items():
        line = f"test_cases_file:{' ' + value if value else ''}\n"
        for cases in ("", "test_cases: [{input: q}]\n"):
            yield Variant(
                f"whole.test_cases_file={name}{'.beside-test-cases' if cases else ''}",
                head + line + cases,
                whole=True,
            )


def _with(doc: dict[str, Any], path: Path_, value: Any) -> dict[str, Any]:
    """``doc`` with ``value`` at ``path``, the mappings on the way made as needed."""
    node: Any = doc
    for part in path[:-1]:
        node = node.setdefault(part, {}) if isinstance(node, dict) else node[part]
    node[path[-1]] = value
    return doc


def _optimizer_agent(optimizer: dict[str, Any]) -> dict[str, Any]:
    doc = _whole_agent()
    doc["evaluations"] = {
        "metrics": [{"type": "rag", "metric_type": "faithfulness"}],
        "optimizer": {"loss": {"faithfulness": 1.0}, **optimizer},
    }
    return doc


#: An optimizer axis's ``range`` as written: numbers, booleans, strings, mixed, equal
#: and inverted bounds, the wrong length, not a list.
_AXIS_RANGES = [
    "[0, 1]",
    "[0.0, 1.0]",
    "[1, 1]",
    "[1, 0]",
    "[-1, 1e3]",
    "[false, true]",
    "[true, true]",
    "[true, false]",
    "[0, true]",
    "[a, b]",
    "[b, a]",
    "[a, a]",
    "[a, 1]",
    "[0, '1']",
    "['0', '1']",
    "[null, 1]",
    "[.nan, 1]",
    "[0, .inf]",
    "[0x1, 0x2]",
    "[yes, no]",
    "[2009-12-31, 2010-01-01]",
    "[[0], [1]]",
    "[{a: 1}, {a: 2}]",
    "[1]",
    "[]",
    "[0, 1, 2]",
    "'01'",
    "{a: 1}",
    "~",
]
_AXIS_TYPES = ["float", "int", "categorical", "bool", '""']
_TEXTUAL_AXES = {
    "max_chars=0": {"path": "instructions.inline", "max_chars": Raw("0")},
    "max_chars=-1": {"path": "instructions.inline", "max_chars": Raw("-1")},
    "max_chars=1.5": {"path": "instructions.inline", "max_chars": Raw("1.5")},
    "max_chars=quoted": {"path": "instructions.inline", "max_chars": Raw('"10"')},
    "max_chars=true": {"path": "instructions.inline", "max_chars": Raw("true")},
    "path=blank": {"path": Raw('"  "')},
    "path=number": {"path": Raw("1")},
    "no-path": {"max_chars": Raw("10")},
}


def _optimizer_runs() -> Iterator[Variant]:
    for kind in _AXIS_TYPES:
        for written in _AXIS_RANGES:
            axis = {"path": "model.temperature", "type": Raw(kind), "range": Raw(written)}
            doc = _optimizer_agent({"axes": {"numeric": [axis]}})
            yield Variant(f"whole.optimizer.axis.{kind}.range={written}", dump(doc), whole=True)
    for name, textual in _TEXTUAL_AXES.items():
        doc = _optimizer_agent({"axes": {"textual": [textual]}})
        yield Variant(f"whole.optimizer.textual.{name}", dump(doc), whole=True)
    both = {"path": "model.temperature", "type": "float", "range": Raw("[1, 0]")}
    doc = _optimizer_agent({"axes": {"numeric": [both], "textual": [{"path": "  "}]}})
    yield Variant("whole.optimizer.axes.two-faults", dump(doc), whole=True)


#: Numeric fields, of the platform's sections and of the test cases.
_NUMERIC_SLOTS: list[Path_] = [
    ("model", "temperature"),
    ("model", "max_tokens"),
    ("model", "top_p"),
    ("execution", "llm_timeout"),
    ("claude", "max_turns"),
    ("evaluations", "model", "temperature"),
    ("evaluations", "model", "max_tokens"),
    ("evaluations", "model", "top_p"),
    ("test_cases", 0, "evaluations", 0, "threshold"),
    ("test_cases", 0, "evaluations", 0, "model", "temperature"),
]
_EVAL_MODEL = {"provider": "openai", "name": "gpt-4o"}
_T = "HMT_ORACLE_T"
#: ``${T}`` escaped in a double-quoted string (no ``${`` in the text: the platform does
#: not substitute it), doubled, quoted and tagged.
_NUMERIC_FORMS = {
    "escaped-x": '"\\x24{' + _T + '}"',
    "escaped-u": '"\\u0024{' + _T + '}"',
    "dollar-dollar": "$" + _ref(_T),
    "double-quoted": '"' + _ref(_T) + '"',
    "single-quoted": "'" + _ref(_T) + "'",
    "tagged-str": "!!str " + _ref(_T),
}
_NUMERIC_ENVIRONS: dict[str, dict[str, str]] = {
    "unset": {},
    "number": {_T: "0.5"},
    "word": {_T: "hot"},
}


def _numeric_reference_runs() -> Iterator[Variant]:
    for slot in _NUMERIC_SLOTS:
        for form, written in _NUMERIC_FORMS.items():
            for env, environ in _NUMERIC_ENVIRONS.items():
                doc = _whole_agent()
                if slot[0] == "evaluations":
                    doc["evaluations"] = {
                        "model": dict(_EVAL_MODEL),
                        "metrics": [{"type": "rag", "metric_type": "faithfulness"}],
                    }
                if slot[0] == "test_cases":
                    metric: dict[str, Any] = {"metric": "numeric"}
                    if "model" in slot:  # a G-Eval metric, judged by its own model
                        metric = {"name": "n", "criteria": "c", "model": dict(_EVAL_MODEL)}
                    doc["test_cases"][0]["evaluations"] = [metric]
                _with(doc, slot, Raw(written))
                name = ".".join(map(str, slot))
                yield Variant(
                    f"whole.numeric-reference.{name}={form}.{env}",
                    dump(doc),
                    environ=dict(environ),
                    whole=True,
                )


#: A pattern-checked value written as a block scalar, or with a newline or a space
#: around it: the platform's patterns match the whole text.
_BLOCK_FORMS = {
    "literal": "|\n{pad}{v}\n",
    "literal-strip": "|-\n{pad}{v}\n",
    "literal-keep": "|+\n{pad}{v}\n\n",
    "folded": ">\n{pad}{v}\n",
    "folded-strip": ">-\n{pad}{v}\n",
    "newline-escape": '"{v}\\n"\n',
    "trailing-space": '"{v} "\n',
    "leading-newline": '"\\n{v}"\n',
    "two-lines": "{v}\n{pad}more\n",
}
#: Where a pattern or a fixed set of words checks the value: (the document up to the
#: key, the key's indentation, the value, the rest).
_BLOCK_PLACES: dict[str, tuple[str, int, str, str]] = {
    "agent-grader": (
        _RUN_HEAD + _RUN_MODEL + "evaluations:\n  metrics:\n    - type: code\n      grader: ",
        6,
        "graders.checks:score",
        _RUN_CASE,
    ),
    "turn-grader": (
        _RUN_HEAD
        + _RUN_MODEL
        + _RUN_CASE.replace("- input", "- name: c\n    turns:\n      - input")
        + "        evaluations:\n          - grader: ",
        12,
        "graders.checks:score",
        "",
    ),
    "agent-response_path": (
        _RUN_HEAD
        + _RUN_MODEL
        + "evaluations:\n  metrics:\n    - type: standard\n      metric: numeric\n"
        + "      response_path: ",
        6,
        "answer.value",
        _RUN_CASE,
    ),
    "turn-response_path": (
        _RUN_HEAD + _RUN_MODEL + _RUN_CASE + "    evaluations:\n      - metric: numeric\n"
        "        response_path: ",
        8,
        "items[0].value",
        "",
    ),
    "tool-name": (
        _RUN_HEAD + _RUN_MODEL + "tools:\n  - type: function\n    description: d\n"
        "    file: tools.py\n    function: f\n    name: ",
        4,
        "subtract",
        _RUN_CASE,
    ),
    "subagent-model": (
        _RUN_HEAD + _RUN_MODEL + "claude:\n  agents:\n    helper:\n      description: d\n"
        "      prompt: p\n      model: ",
        6,
        "sonnet",
        _RUN_CASE,
    ),
    "log-level": (
        _RUN_HEAD + _RUN_MODEL + "observability:\n  logs:\n    level: ",
        4,
        "INFO",
        _RUN_CASE,
    ),
}


def _block_runs() -> Iterator[Variant]:
    for place, (before, indent, value, after) in _BLOCK_PLACES.items():
        for form, template in _BLOCK_FORMS.items():
            written = template.format(pad=" " * (indent + 2), v=value)
            yield Variant(f"whole.block.{place}={form}", before + written + after, whole=True)


#: ``response_path`` with digits and letters of other scripts: the platform's pattern
#: is Python's, whose ``\\d`` and ``\\w`` take any script's.
_RESPONSE_PATHS = [
    "items[0]",
    "items[10]",
    "items[\u0663]",  # ARABIC-INDIC DIGIT THREE
    "items[\uff13]",  # FULLWIDTH DIGIT THREE
    "items[\u00b2]",  # SUPERSCRIPT TWO: a digit, not a decimal one
    "items[\u07c0]",  # NKO DIGIT ZERO
    "items[\U0001d7ce]",  # MATHEMATICAL BOLD DIGIT ZERO
    "r\u00e9ponse",
    "\u043e\u0442\u0432\u0435\u0442.value",
    "a\u0663",
    "\u0663a",
    "answer.\u2167",  # ROMAN NUMERAL EIGHT
]


def _unicode_digit_runs() -> Iterator[Variant]:
    for place in ("agent-response_path", "turn-response_path"):
        before, _, _, after = _BLOCK_PLACES[place]
        for value in _RESPONSE_PATHS:
            yield Variant(
                f"whole.response_path.{place}={value.encode('ascii', 'backslashreplace').decode()}",
                before + json.dumps(value, ensure_ascii=False) + "\n" + after,
                whole=True,
            )


#: Keys a YAML 1.1 reader takes for something other than a string, and near misses.
_ODD_KEYS = ["on", "yes", "n", "1", "1.5", "~", "2009-12-31", "'on'", '"1"', "[a, b]"]
#: Free-form mappings at every depth: (the document, with ``{k}`` for the key).
_FREE_FORM: dict[str, str] = {
    "turn_config": _RUN_CASE.replace("- input", "- turns:\n      - input")
    + "        turn_config: {{outer: {{{k}: 1}}}}\n",
    "turn_config.top": _RUN_CASE.replace("- input", "- turns:\n      - input")
    + "        turn_config: {{{k}: 1}}\n",
    "args.literal": _RUN_CASE.replace("- input", "- turns:\n      - input")
    + "        expected_tools: [{{name: s, args: {{a: {{{k}: 1}}}}}}]\n",
    "response_format": "response_format: {{type: object, properties: {{{k}: {{type: string}}}}}}\n"
    + _RUN_CASE,
    "function.parameters": "tools:\n  - {{name: f, type: function, description: d, file: t.py,"
    " function: f, parameters: {{x: {{{k}: 1}}}}}}\n" + _RUN_CASE,
    "prompt.model": "tools:\n  - {{name: p, type: prompt, description: d, template: t,"
    " parameters: {{x: {{type: string}}}}, model: {{outer: {{{k}: 1}}}}}}\n" + _RUN_CASE,
    "prompt.model.top": "tools:\n  - {{name: p, type: prompt, description: d, template: t,"
    " parameters: {{x: {{type: string}}}}, model: {{{k}: 1}}}}\n" + _RUN_CASE,
    "mcp.config": "tools:\n  - {{name: m, type: mcp, description: d, command: npx,"
    " config: {{outer: {{{k}: 1}}}}}}\n" + _RUN_CASE,
    "mcp.env": "tools:\n  - {{name: m, type: mcp, description: d, command: npx,"
    " env: {{{k}: v}}}}\n" + _RUN_CASE,
    "vectorstore.database": "tools:\n  - {{name: v, type: vectorstore, description: d,"
    " source: docs/, database: {{provider: qdrant, options: {{{k}: 1}}}}}}\n" + _RUN_CASE,
    "resource_attributes": "observability: {{resource_attributes: {{{k}: v}}}}\n" + _RUN_CASE,
    "claude.agents": "claude: {{agents: {{{k}: {{description: d, prompt: p}}}}}}\n" + _RUN_CASE,
}


def _free_form_runs() -> Iterator[Variant]:
    for place, template in _FREE_FORM.items():
        for key in _ODD_KEYS:
            text = _RUN_HEAD + _RUN_MODEL + template.format(k=key)
            yield Variant(f"whole.free-form.{place}={key}", text, whole=True)


#: The ``claude`` section: subagents with prompts inline and in files (the file
#: resolved from the working folder while the agent loads), and each setting's bounds.
_CLAUDE: dict[str, dict[str, Any]] = {
    "agents.inline": {"agents": {"helper": {"description": "d", "prompt": "p"}}},
    "agents.prompt_file": {"agents": {"helper": {"description": "d", "prompt_file": "p.md"}}},
    "agents.both-prompts": {
        "agents": {"helper": {"description": "d", "prompt": "p", "prompt_file": "p.md"}}
    },
    "agents.no-prompt": {"agents": {"helper": {"description": "d"}}},
    "agents.blank-prompt": {"agents": {"helper": {"description": "d", "prompt": " "}}},
    "agents.blank-description": {"agents": {"helper": {"description": " ", "prompt": "p"}}},
    "agents.no-description": {"agents": {"helper": {"prompt": "p"}}},
    "agents.model-alias": {
        "agents": {"helper": {"description": "d", "prompt": "p", "model": "haiku"}}
    },
    "agents.model-id": {
        "agents": {"helper": {"description": "d", "prompt": "p", "model": "claude-haiku-4-5"}}
    },
    "agents.tools": {
        "agents": {"helper": {"description": "d", "prompt": "p", "tools": ["Read", "mcp__x__y"]}}
    },
    "agents.unknown-tool": {
        "agents": {"helper": {"description": "d", "prompt": "p", "tools": ["Reed"]}}
    },
    "agents.tools-string": {
        "agents": {"helper": {"description": "d", "prompt": "p", "tools": "Read"}}
    },
    "agents.unknown-key": {"agents": {"helper": {"description": "d", "prompt": "p", "x": 1}}},
    "agents.empty": {"agents": {}},
    "agents.null": {"agents": None},
    "agents.list": {"agents": [{"description": "d", "prompt": "p"}]},
    "agents.helper-null": {"agents": {"helper": None}},
    "subagents": {"subagents": {"enabled": True}},
    "permission_mode.acceptAll": {"permission_mode": "acceptAll"},
    "permission_mode.acceptAll-acknowledged": {
        "permission_mode": "acceptAll",
        "i_understand_this_is_unsafe": True,
    },
    "permission_mode.acceptEdits": {"permission_mode": "acceptEdits"},
    "permission_mode.other": {"permission_mode": "auto"},
    "setting_sources.all": {"setting_sources": ["all"]},
    "setting_sources.all-and-user": {"setting_sources": ["all", "user"]},
    "setting_sources.twice": {"setting_sources": ["user", "user"]},
    "setting_sources.other": {"setting_sources": ["global"]},
    "extended_thinking.999": {"extended_thinking": {"enabled": True, "budget_tokens": 999}},
    "extended_thinking.1000": {"extended_thinking": {"enabled": True, "budget_tokens": 1000}},
    "extended_thinking.100001": {"extended_thinking": {"enabled": True, "budget_tokens": 100001}},
    "bash": {"bash": {"enabled": True, "excluded_commands": ["rm"], "allow_unsafe": False}},
    "bash.unknown-key": {"bash": {"enabled": True, "commands": ["rm"]}},
    "file_system": {"file_system": {"read": True, "write": False, "edit": False}},
    "file_system.word": {"file_system": {"read": Raw("sometimes")}},
    "effort.max": {"effort": "max"},
    "effort.other": {"effort": "huge"},
    "max_budget_usd.0": {"max_budget_usd": 0},
    "max_budget_usd.0.01": {"max_budget_usd": 0.01},
    "max_concurrent_sessions.501": {"max_concurrent_sessions": 501},
    "session_memory_estimate_mib.49": {"session_memory_estimate_mib": 49},
    "disable_default_hooks.yes": {"disable_default_hooks": Raw("yes")},
    "disable_default_hooks.1": {"disable_default_hooks": 1},
    "disable_default_hooks.true": {"disable_default_hooks": True},
    "disable_subprocess_env_scrub.quoted": {"disable_subprocess_env_scrub": "true"},
    "allowed_tools": {"allowed_tools": ["Read"], "disallowed_tools": ["Bash"]},
    "working_directory": {"working_directory": "work", "fallback_model": "claude-haiku-4-5"},
}
#: Where the subagent's ``prompt_file`` is written.
_PROMPT_FILE_PLACES = {"agent-folder": (True, False), "working-folder": (False, True)}


def _claude_runs() -> Iterator[Variant]:
    for name, settings in _CLAUDE.items():
        doc = _whole_agent()
        doc["claude"] = {**doc["claude"], **settings}
        text = dump(doc)
        if "prompt_file" not in name and "both-prompts" not in name:
            yield Variant(f"whole.claude.{name}", text, whole=True)
            continue
        for place, (beside, working) in _PROMPT_FILE_PLACES.items():
            yield Variant(
                f"whole.claude.{name}.{place}",
                text,
                referenced={"p.md": "Help."} if beside else {},
                working={"p.md": "Help."} if working else {},
                whole=True,
            )


#: The ``observability`` section: every exporter, with valid settings and each bound.
_OBSERVABILITY: dict[str, dict[str, Any]] = {
    "console": {"exporters": {"console": {"enabled": True, "pretty_print": False}}},
    "console.unknown-key": {"exporters": {"console": {"colour": True}}},
    "otlp": {
        "exporters": {
            "otlp": {
                "endpoint": "http://collector:4318",
                "protocol": "http",
                "headers": {"x-key": "v"},
                "timeout_ms": 1000,
                "compression": "gzip",
                "insecure": False,
            }
        }
    },
    "otlp.protocol": {"exporters": {"otlp": {"protocol": "udp"}}},
    "otlp.timeout_ms.999": {"exporters": {"otlp": {"timeout_ms": 999}}},
    "otlp.headers.number": {"exporters": {"otlp": {"headers": {"x-key": 1}}}},
    "otlp.headers.list": {"exporters": {"otlp": {"headers": ["x-key"]}}},
    "prometheus": {"exporters": {"prometheus": {"enabled": True, "port": 9090, "path": "/m"}}},
    "prometheus.port.1023": {"exporters": {"prometheus": {"port": 1023}}},
    "prometheus.port.1024": {"exporters": {"prometheus": {"port": 1024}}},
    "prometheus.port.65535": {"exporters": {"prometheus": {"port": 65535}}},
    "prometheus.port.65536": {"exporters": {"prometheus": {"port": 65536}}},
    "prometheus.port.quoted": {"exporters": {"prometheus": {"port": "9090"}}},
    "azure_monitor": {
        "exporters": {
            "azure_monitor": {
                "enabled": True,
                "connection_string": "InstrumentationKey=00000000",
                "disable_offline_storage": True,
                "storage_directory": "telemetry",
            }
        }
    },
    "azure_monitor.no-connection-string": {"exporters": {"azure_monitor": {"enabled": True}}},
    "azure_monitor.blank-connection-string": {
        "exporters": {"azure_monitor": {"enabled": True, "connection_string": ""}}
    },
    "azure_monitor.disabled": {"exporters": {"azure_monitor": {"enabled": False}}},
    "exporters.all": {
        "exporters": {
            "console": {},
            "otlp": {},
            "prometheus": {},
            "azure_monitor": {"connection_string": "InstrumentationKey=0"},
        }
    },
    "exporters.unknown": {"exporters": {"jaeger": {"enabled": True}}},
    "exporters.null": {"exporters": {"console": None, "otlp": None}},
    "traces": {"traces": {"sample_rate": 0.5, "redaction_patterns": ["secret-\\d+"]}},
    "traces.bad-pattern": {"traces": {"redaction_patterns": ["("]}},
    "traces.queue-below-batch": {"traces": {"max_queue_size": 10, "max_export_batch_size": 20}},
    "traces.sample_rate.2": {"traces": {"sample_rate": 2}},
    "metrics": {"metrics": {"enabled": True, "export_interval_ms": 5000}},
    "metrics.interval.0": {"metrics": {"export_interval_ms": 0}},
    "logs": {"logs": {"level": "DEBUG", "filter_namespaces": ["holodeck"]}},
    "logs.level.lower": {"logs": {"level": "debug"}},
    "logs.level.other": {"logs": {"level": "LOUD"}},
    "resource_attributes": {"resource_attributes": {"team": "qa"}},
    "resource_attributes.number": {"resource_attributes": {"team": 1}},
    "disable_provider_tracing": {"disable_provider_tracing": True, "enabled": True},
}


def _observability_runs() -> Iterator[Variant]:
    for name, settings in _OBSERVABILITY.items():
        doc = _whole_agent()
        doc["observability"] = {**doc["observability"], **settings}
        yield Variant(f"whole.observability.{name}", dump(doc), whole=True)


#: One valid tool of each type, and the options each type takes beside its name,
#: description and type.
_TOOLS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "function": (
        {"name": "f", "type": "function", "description": "d", "file": "t.py", "function": "f"},
        ["file", "function", "parameters", "defer_loading"],
    ),
    "mcp": (
        {"name": "m", "type": "mcp", "description": "d", "command": "npx"},
        [
            "transport",
            "command",
            "args",
            "env",
            "env_file",
            "encoding",
            "url",
            "headers",
            "timeout",
            "sse_read_timeout",
            "terminate_on_close",
            "config",
            "load_tools",
            "load_prompts",
            "request_timeout",
            "is_retrieval",
            "registry_name",
            "defer_loading",
        ],
    ),
    "prompt": (
        {
            "name": "p",
            "type": "prompt",
            "description": "d",
            "template": "Say {{x}}",
            "parameters": {"x": {"type": "string"}},
        },
        ["template", "file", "parameters", "model", "defer_loading"],
    ),
    "vectorstore": (
        {"name": "v", "type": "vectorstore", "description": "d", "source": "docs/"},
        [
            "source",
            "vector_field",
            "meta_fields",
            "chunk_size",
            "chunk_overlap",
            "embedding_model",
            "embedding_dimensions",
            "database",
            "top_k",
            "min_similarity_score",
            "record_path",
            "record_prefix",
            "meta_prefix",
            "id_field",
            "field_separator",
            "delimiter",
            "defer_loading",
        ],
    ),
    "hierarchical_document": (
        {"name": "h", "type": "hierarchical_document", "description": "d", "source": "docs/"},
        [
            "source",
            "chunking_strategy",
            "max_chunk_tokens",
            "chunk_overlap",
            "document_domain",
            "max_subsection_depth",
            "search_mode",
            "top_k",
            "min_score",
            "semantic_weight",
            "keyword_weight",
            "exact_weight",
            "rrf_k",
            "contextual_embeddings",
            "context_max_tokens",
            "context_concurrency",
            "extract_definitions",
            "extract_cross_references",
            "enable_reranking",
            "reranker_model",
            "context_model",
            "embedding_model",
            "database",
            "keyword_index",
            "defer_loading",
        ],
    ),
}
#: The values each tool option is written with: one of each YAML kind.
_TOOL_VALUES = ["true", "2", "-1", "0.5", "abc", '""', "~", "[a]", "{a: 1}"]


def _tool_runs() -> Iterator[Variant]:
    for kind, (tool, options) in _TOOLS.items():
        for option in options:
            for written in _TOOL_VALUES:
                doc = _whole_agent()
                doc["tools"] = [{**json.loads(json.dumps(tool)), option: Raw(written)}]
                yield Variant(f"whole.tool.{kind}.{option}={written}", dump(doc), whole=True)


#: One fault each, in a section of the platform's or in the test cases.
_FAULTS: dict[str, Callable[[dict[str, Any]], None]] = {
    "model.temperature": lambda d: d["model"].update(temperature=Raw("hot")),
    "name.blank": lambda d: d.update(name=Raw('""')),
    "tools.unknown-key": lambda d: d["tools"][0].update(descripton="x"),
    "execution.llm_timeout": lambda d: d["execution"].update(llm_timeout=Raw("abc")),
    "claude.max_turns": lambda d: d["claude"].update(max_turns=0),
    "observability.port": lambda d: d["observability"].update(
        exporters={"prometheus": {"port": 80}}
    ),
    "evaluations.threshold": lambda d: d.update(
        evaluations={"metrics": [{"type": "standard", "metric": "numeric", "threshold": "hot"}]}
    ),
    "case.unknown-key": lambda d: d["test_cases"][0].update(inptu="q"),
    "case.ground_truth": lambda d: d["test_cases"][0].update(ground_truth=Raw("[]")),
}


#: A key twice in one mapping of a section of the platform's (or of a test case): the
#: platform keeps the last value, so a fault in either place decides differently.
_DUPLICATES: dict[str, tuple[str, str, str]] = {
    "model.temperature": ("model:\n  provider: openai\n  name: g\n", "  temperature: {v}\n", ""),
    "model": ("", "model: {{provider: openai, name: g, temperature: {v}}}\n", ""),
    "claude.max_turns": (_RUN_MODEL + "claude:\n", "  max_turns: {v}\n", ""),
    "claude": (_RUN_MODEL, "claude: {{max_turns: {v}}}\n", ""),
    "tools.defer_loading": (
        _RUN_MODEL + "tools:\n  - name: f\n    type: function\n    description: d\n"
        "    file: t.py\n    function: f\n",
        "    defer_loading: {v}\n",
        "",
    ),
    "execution.llm_timeout": (_RUN_MODEL + "execution:\n", "  llm_timeout: {v}\n", ""),
    "observability.enabled": (_RUN_MODEL + "observability:\n", "  enabled: {v}\n", ""),
    "evaluations.model.temperature": (
        _RUN_MODEL + "evaluations:\n  metrics: [{{type: rag, metric_type: faithfulness}}]\n"
        "  model:\n    provider: openai\n    name: g\n",
        "    temperature: {v}\n",
        "",
    ),
    "case.threshold": (
        _RUN_MODEL + "test_cases:\n  - input: q\n    evaluations:\n      - metric: numeric\n",
        "        threshold: {v}\n",
        "",
    ),
}
#: The two values, in their order: the fault first, then last, then both faults.
_DUPLICATE_VALUES = {"fault-first": ("hot", "1"), "fault-last": ("1", "hot"), "both": ("hot", "[]")}


def _duplicate_key_runs() -> Iterator[Variant]:
    for place, (before, line, after) in _DUPLICATES.items():
        for order, (first, last) in _DUPLICATE_VALUES.items():
            text = before + line.format(v=first) + line.format(v=last) + after
            if not place.startswith("case"):
                text += _RUN_CASE
            yield Variant(f"whole.duplicate-key.{place}={order}", _RUN_HEAD + text, whole=True)


def _two_fault_runs() -> Iterator[Variant]:
    names = list(_FAULTS)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            doc = _whole_agent()
            _FAULTS[first](doc)
            _FAULTS[second](doc)
            yield Variant(f"whole.two-faults={first}+{second}", dump(doc), whole=True)


def agent_corpus() -> list[Variant]:
    """Whole agent.yaml documents: each platform-owned field with each scalar family,
    whole sections edited, ``${NAME}`` in every kind of place with every kind of value;
    then whole runs: ``.env`` files, ``test_cases`` beside a ``test_cases_file``, the
    optimizer's axes, escaped references in numbers, block scalars where a pattern
    checks, other scripts' digits, odd keys in free-form mappings, the ``claude`` and
    ``observability`` sections and every tool option, and two faults at once."""
    out: list[Variant] = [Variant("whole=base", dump(_whole_agent()), whole=True)]
    for slot in _OWNED_SLOTS:
        for family, scalars in FAMILIES.items():
            for text in scalars:
                doc = _whole_agent()
                _get(doc, slot[:-1])[slot[-1]] = Raw(text)
                name = ".".join(map(str, slot))
                out.append(Variant(f"whole.{name}={family}:{text}", dump(doc), whole=True))
    for name, edit in _SECTION_EDITS.items():
        doc = _whole_agent()
        edit(doc)
        out.append(Variant(f"whole.{name}", dump(doc), whole=True))
    for place in _ENV_PLACES:
        for kind, value in _ENV_VALUES.items():
            environ = {} if value is None else {"HMT_ORACLE_V": value}
            text = _env_document(place)
            out.append(Variant(f"whole.env.{place}={kind}", text, environ=environ, whole=True))
    for runs in (
        _dotenv_runs,
        _cases_file_runs,
        _optimizer_runs,
        _numeric_reference_runs,
        _block_runs,
        _unicode_digit_runs,
        _free_form_runs,
        _claude_runs,
        _observability_runs,
        _tool_runs,
        _duplicate_key_runs,
        _two_fault_runs,
    ):
        out.extend(runs())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write each document to DIR/NNNNN.yaml")
    parser.add_argument("--count", action="store_true", help="print how many documents")
    parser.add_argument(
        "--whole",
        action="store_true",
        help="the whole-agent corpus: each run to DIR/NNNNN/ (its working folder), the "
        "agent.yaml and its files in DIR/NNNNN/agent/, its variables in DIR/NNNNN/environ.json",
    )
    args = parser.parse_args(argv)
    variants = agent_corpus() if args.whole else corpus()
    if args.count or args.out is None:
        print(len(variants))
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for i, variant in enumerate(variants):
            if args.whole:
                _write_run(args.out / f"{i:05d}", variant)
            else:
                (args.out / f"{i:05d}.yaml").write_text(f"# {variant.id}\n{variant.text}")
    return 0


def _write_run(folder: Path, variant: Variant) -> None:
    agent = folder / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    (folder / "id.txt").write_text(variant.id + "\n", encoding="utf-8")
    (folder / "environ.json").write_text(json.dumps(variant.environ) + "\n", encoding="utf-8")
    for base, files in ((agent, variant.referenced), (folder, variant.working)):
        for name, content in files.items():
            (base / name).write_text(content, encoding="utf-8", newline="")
    (agent / "agent.yaml").write_text(variant.text, encoding="utf-8", newline="")


if __name__ == "__main__":
    sys.exit(main())
