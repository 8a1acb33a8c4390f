"""The explain document (``--format json``): what runs on every turn, and a summary; the
text output is rendered from it. It reads the documents as the validator judged them
(without error: every shape is the schema's), never reading a file again."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from holodeck_mt import layout
from holodeck_mt.explain import describe
from holodeck_mt.limits import Limits
from holodeck_mt.locate.provenance import Written
from holodeck_mt.model import JsonPath, clip, format_path, unmarked
from holodeck_mt.pipeline import Checked
from holodeck_mt.semantics import precedence
from holodeck_mt.semantics.matchers import classify, entry_of
from holodeck_mt.semantics.precedence import Definition, Origin, Plan, TurnMetric, TurnPlan

VERSION = 1
#: Characters of a turn's input shown (the first turns of ConvFinQA hold 3 KB).
INPUT_CHARS = 80
#: A `rag` metric without `threshold` passes at 0.5 (its model's default).
RAG_DEFAULT_THRESHOLD = 0.5
#: A geval evaluator built from a definition without `threshold` judges at 0.5.
GEVAL_DEFAULT_THRESHOLD = 0.5
#: The output budget (turns plus the metrics they list); ``left_out`` counts the rest.
MAX_ENTRIES = 4_000


@dataclass(frozen=True)
class Source:
    display: str
    checked: Checked
    limits: Limits
    data: Any

    def line(self, parts: JsonPath) -> int:
        return self.checked.line(parts, self.limits)


@dataclass(frozen=True)
class Sources:
    agent: Source | None
    cases: Source | None
    cases_base: JsonPath
    cases_origin: Origin

    def case_list(self) -> list[Any]:
        if self.cases is None:
            return []
        data = self.cases.data
        for part in self.cases_base:
            data = data[part]
        return data if isinstance(data, list) else []


def _source(checked: Checked, display: str, limits: Limits) -> Source | None:
    document = checked.document
    return Source(display, checked, limits, document.data) if document is not None else None


def sources_of(checked: list[Checked], display: str, limits: Limits) -> Sources:
    """The documents the validator judged: the file given (as ``display``), then any it followed."""
    main = _source(checked[0], display, limits)
    data = main.data if main is not None else None
    if isinstance(data, list):
        return Sources(None, main, (), "test-cases")
    if not isinstance(data, dict):
        return Sources(None, None, (), "agent")
    if isinstance(data.get("test_cases"), list):
        return Sources(main, main, ("test_cases",), "agent")
    target = data.get("test_cases_file")
    if isinstance(target, str) and target:
        followed = checked[1] if len(checked) > 1 else None
        cases = _source(followed, followed.result.path, limits) if followed else None
        inner = cases.data if cases is not None else None
        base: JsonPath = ("test_cases",) if isinstance(inner, dict) else ()
        return Sources(main, cases, base, "test-cases")
    return Sources(main, None, (), "agent")


def location(sources: Sources, definition: Definition) -> dict[str, Any]:
    source = sources.agent if definition.origin == "agent" else sources.cases
    index, cases = definition.case_index, sources.cases
    named = _name(cases, index, None) if index is not None else None
    return {
        "level": definition.level,
        "file": source.display if source is not None else None,
        "path": format_path(definition.path),
        "line": source.line(definition.path) if source is not None else None,
        "test_case": named,
        "test_case_index": definition.case_index,
        "turn": definition.turn_index,
    }


def _name(cases: Source | None, index: int, name: str | None) -> str | None:
    """The ``index``-th test case's name (by default, the data's) as a report shows it."""
    name = name if name is not None or cases is None else layout.test_case_name(cases.data, index)
    found = cases.checked.provenance if cases is not None else None
    return found.name(index, name) if found is not None else name


def _show(source: Source | None, parts: JsonPath, value: Any, what: str = "value") -> Any:
    """``value`` (at ``parts`` of ``source``; ``what``: its ``key``, or marked ``words``
    about it), each of its values that came from a reference as the file writes it."""
    found = source.checked.provenance if source is not None else None
    if found is None:
        return unmarked(value) if what == "words" else value
    return found.shown(parts, value, what)


def _setting(sources: Sources, definition: Definition, key: str, value: Any) -> Any:
    """A setting as shown: the definition's own (or its name's, ``key`` None), else a default."""
    named = key or precedence.name_key(definition.metric)
    if named is None or named not in definition.metric:
        return value
    source = sources.agent if definition.origin == "agent" else sources.cases
    return _show(source, (*definition.path, named), value)


def _settings(sources: Sources, definition: Definition, values: dict[str, Any]) -> dict[str, Any]:
    return {k: _setting(sources, definition, k, v) for k, v in values.items()}


def _list_explicit(metric: dict[str, Any]) -> list[str]:
    return [k for k in precedence.settings(metric) if k in metric]


def evaluators(sources: Sources, plan: Plan) -> list[dict[str, Any]]:
    out = []
    for key, winner in plan.evaluators.items():
        definitions = plan.definitions_of(key)
        each = {repr(sorted(precedence.settings(d.metric).items())) for d in definitions}
        out.append(
            {
                "metric": _setting(sources, winner, "", winner.name),
                "kind": winner.kind,
                "settings": _settings(sources, winner, precedence.settings(winner.metric)),
                "explicit": _list_explicit(winner.metric),
                "from": location(sources, winner),
                "definitions": [location(sources, d) for d in definitions],
                "settings_differ": len(each) > 1,
            }
        )
    return out


def _metric(sources: Sources, metric: TurnMetric) -> dict[str, Any]:
    own = metric.own
    code = own.kind == "code"  # its settings are all its own: none shared, none ignored
    source = own if code else metric.evaluator or own
    threshold = own.metric.get("threshold", RAG_DEFAULT_THRESHOLD if own.kind == "rag" else None)
    entry: dict[str, Any] = {
        "metric": _setting(sources, own, "", own.name),
        "kind": own.kind,
        "status": metric.status,
        "threshold": _setting(sources, own, "threshold", threshold),
        "response_path": _setting(sources, own, "response_path", own.metric.get("response_path")),
        "enabled_ignored": not code and own.metric.get("enabled") is False,
        "settings": _settings(sources, source, metric.effective_settings),
    }
    if own.kind == "geval" and threshold is None:
        # No threshold of its own: the shared evaluator's verdict, at its definition's.
        shared = source.metric.get("threshold") or GEVAL_DEFAULT_THRESHOLD
        entry["evaluator_threshold"] = _setting(sources, source, "threshold", shared)
    mine = {} if code else precedence.settings(own.metric)
    effective = metric.effective_settings
    entry["explicit"] = list(entry["settings"]) if code else _list_explicit(source.metric)
    entry["settings_from"] = location(sources, source)
    entry["settings_from_elsewhere"] = source is not own
    ignored = {k: v for k, v in mine.items() if effective.get(k, object()) != v}
    entry["own_settings_ignored"] = _settings(sources, own, ignored)
    return entry


def _tools(cases: Source | None, path: JsonPath, scope: dict[str, Any]) -> list[dict[str, Any]]:
    items = scope.get("expected_tools")
    out = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        entry = entry_of(item)
        if entry is None:
            continue
        at = (*path, "expected_tools", i)
        named = at if isinstance(item, str) else (*at, "name")
        out.append(
            {
                "name": _show(cases, named, entry.name),
                "count": entry.count,
                "args": [
                    {
                        "name": _show(cases, (*at, "args", key), key, "key"),
                        "matcher": classify(value).kind,
                        "value": _show(cases, (*at, "args", key), value),
                        "text": _show(cases, at, describe.matcher_text(key, value), "words"),
                    }
                    for key, value in entry.args.items()
                ],
                "text": _show(cases, at, describe.entry_text(entry), "words"),
            }
        )
    return out


def _turn(sources: Sources, turn: TurnPlan) -> dict[str, Any]:
    scope = turn.scope
    cases = sources.cases
    files = scope.get("files")
    source_path = turn.source_path
    origin_source = sources.agent if turn.source == "agent" else cases
    text = _show(cases, (*turn.path, "input"), scope.get("input"))
    text = (
        text if isinstance(text, Written) or not isinstance(text, str) else clip(text, INPUT_CHARS)
    )
    return {
        "turn": turn.turn_index,
        "line": cases.line(turn.path) if cases is not None else None,
        "input": text if isinstance(text, str) else None,
        "ground_truth": _show(cases, (*turn.path, "ground_truth"), scope.get("ground_truth")),
        "metrics_from": None
        if turn.source is None or source_path is None
        else {
            "level": turn.source,
            "path": format_path(source_path),
            "file": origin_source.display if origin_source is not None else None,
        },
        "metrics": [_metric(sources, metric) for metric in turn.metrics],
        "expected_tools": _tools(cases, turn.path, scope),
        "files": [f for f in _show(cases, (*turn.path, "files"), files) if isinstance(f, dict)]
        if isinstance(files, list)
        else [],
        "has_turn_config": isinstance(scope.get("turn_config"), dict),
    }


def build(
    sources: Sources, files: list[dict[str, Any]], test_case: str | None = None
) -> dict[str, Any]:
    """The document for a valid file; ``files`` are the validator's per-file entries."""
    agent = sources.agent.data if sources.agent is not None else None
    plan = precedence.build(agent, sources.case_list(), sources.cases_base, sources.cases_origin)
    cases = []
    budget = MAX_ENTRIES
    left = {"test_cases": 0, "turns": 0}
    for case in plan.cases:
        name = case.case.get("name")
        name = _name(sources.cases, case.index, name if isinstance(name, str) else None)
        if test_case is not None and name != test_case:  # as shown: no value is guessed
            continue
        kept = _fit_budget(case.turns, budget)
        budget -= sum(1 + len(turn.metrics) for turn in kept)
        left["turns"] += len(case.turns) - len(kept)
        if case.turns and not kept:
            left["test_cases"] += 1
            continue
        cases.append(
            {
                "name": name,
                "index": case.index,
                "file": sources.cases.display if sources.cases is not None else None,
                "line": sources.cases.line(case.path) if sources.cases is not None else None,
                "multi_turn": case.multi_turn,
                "turns": [_turn(sources, turn) for turn in kept],
            }
        )
    built = refuse(files) | {
        "explained": True,
        "evaluators": evaluators(sources, plan)[:MAX_ENTRIES],
        "test_cases": cases,
        "summary": summarise(cases),
    }
    if left["turns"]:
        built["left_out"] = left
    return built


def _fit_budget(turns: list[TurnPlan], budget: int) -> list[TurnPlan]:
    """The first turns whose entries (a turn and its metrics each) fit in ``budget``."""
    spent = itertools.accumulate(1 + len(turn.metrics) for turn in turns)  # only grows
    return [turn for turn, total in zip(turns, spent, strict=True) if total <= budget]


def refuse(files: list[dict[str, Any]]) -> dict[str, Any]:
    """The document for a file the validator found errors in: its diagnostics, nothing run."""
    return {
        "version": VERSION,
        "explained": False,
        "files": files,
        "evaluators": [],
        "test_cases": [],
        "summary": None,
    }


#: A metric's statuses that count as running on the turn (a single turn without a ground
#: truth still runs its comparison: it fails).
_RUNNING = ("runs", "no-ground-truth")


def summarise(test_cases: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``summary``, read from the test cases explained (``--test-case`` narrows it)."""
    metrics: dict[tuple[str, str], dict[str, Any]] = {}
    turns = without_metric = with_tools = with_config = config_unread = 0
    for case in test_cases:
        for turn in case["turns"]:
            turns += 1
            running = [m for m in turn["metrics"] if m["status"] in _RUNNING]
            for metric in turn["metrics"]:
                key = (metric["metric"], metric["kind"])
                entry = metrics.setdefault(
                    key,
                    {"metric": key[0], "kind": key[1], "turns_running": 0, "turns_skipped": 0},
                )
                if metric["status"] in _RUNNING:
                    entry["turns_running"] += 1
                elif metric["status"] == "skipped-no-ground-truth":
                    entry["turns_skipped"] += 1
            without_metric += not running
            with_tools += bool(turn["expected_tools"])
            if turn["has_turn_config"]:
                with_config += 1
                config_unread += not any(m["kind"] == "code" for m in running)
    return {
        "test_cases": len(test_cases),
        "turns": turns,
        "metrics": list(metrics.values()),
        "turns_without_metrics": without_metric,
        "turns_with_tool_assertions": with_tools,
        "turns_with_turn_config": with_config,
        "turn_config_read_by_nothing": config_unread,
    }
