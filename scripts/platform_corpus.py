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

    python scripts/platform_corpus.py --out DIR      # one file per document
    python scripts/platform_corpus.py --count        # how many there are
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

__all__ = ["FAMILIES", "Variant", "corpus", "dump", "main"]


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write each document to DIR/NNNNN.yaml")
    parser.add_argument("--count", action="store_true", help="print how many documents")
    args = parser.parse_args(argv)
    variants = corpus()
    if args.count or args.out is None:
        print(len(variants))
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for i, variant in enumerate(variants):
            (args.out / f"{i:05d}.yaml").write_text(f"# {variant.id}\n{variant.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
