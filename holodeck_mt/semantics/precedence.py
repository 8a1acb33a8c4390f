"""Which metrics run on each turn, and whose settings they run with.

- A turn runs the first non-empty list of: its own `evaluations`, its test case's, the
  agent's `evaluations.metrics` (a single-turn test case: its own, else the agent's).
  The chosen list replaces the others whole; `evaluations: []` counts as absent.
- Settings leak: one evaluator per metric name serves the whole file, built from the
  last definition met walking the agent, then each test case and its turns in order.
  Only `threshold`, `response_path` and everything of a `code` metric stay per level.
- In a multi-turn test case, a metric needing a ground truth is skipped on a turn
  without `ground_truth`. `enabled: false` only switches off `code` metrics.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Literal, cast, get_args

from holodeck_mt.model import JsonPath
from holodeck_mt.semantics.metrics import EQUALITY_DEFAULTS, NUMERIC_DEFAULTS

Level = Literal["agent", "test case", "turn"]
Kind = Literal["standard", "geval", "rag", "code"]
#: Which document a definition sits in: the agent.yaml, or the test-cases file it names.
Origin = Literal["agent", "test-cases"]

#: The metrics scored against the ground truth (a RAG metric's expected output), by kind.
NEEDING_GROUND_TRUTH: dict[str, frozenset[str]] = {
    "standard": frozenset({"equality", "numeric", "bleu", "rouge", "meteor"}),
    "rag": frozenset({"contextual_precision", "contextual_recall"}),
}
#: Not taken by the shared evaluator: what names a metric, what each level reads from its
#: own definition (`threshold`, `response_path`), and `enabled` (it does nothing there).
NOT_SHARED = frozenset(
    {"type", "metric", "name", "metric_type", "threshold", "response_path", "enabled"}
)


def kind_of(metric: dict[str, Any]) -> Kind | None:
    """A metric's kind: its `type`, else the kind whose fields it carries."""
    declared = metric.get("type")
    if declared is not None:
        return cast(Kind, declared) if declared in get_args(Kind) else None
    if "grader" in metric:
        return "code"
    if "metric_type" in metric:
        return "rag"
    if "metric" in metric:
        return "standard"
    if "name" in metric and "criteria" in metric:
        return "geval"
    return None


#: The key of each kind's name, which the platform files its evaluator under.
_NAMED_BY = {"standard": "metric", "geval": "name", "rag": "metric_type"}


def evaluator_name(metric: dict[str, Any]) -> str | None:
    """The name the platform files the metric's evaluator under; None for code metrics."""
    field = _NAMED_BY.get(kind_of(metric) or "")
    value = metric.get(field) if field else None
    return value if isinstance(value, str) else None


def display_name(metric: dict[str, Any]) -> str:
    key = name_key(metric)
    return str(metric[key]) if key is not None else "?"


def name_key(metric: dict[str, Any]) -> str | None:
    """The key of the metric's name as :func:`display_name` shows it (None: it has none)."""
    named = [_NAMED_BY.get(kind_of(metric) or "", "")] if evaluator_name(metric) else []
    return next((k for k in (*named, "name", "grader") if isinstance(metric.get(k), str)), None)


def settings(metric: dict[str, Any]) -> dict[str, Any]:
    """What the shared evaluator takes from a definition, defaults filled for equality/numeric."""
    own = {k: v for k, v in metric.items() if k not in NOT_SHARED}
    named = str(metric.get("metric")) if kind_of(metric) == "standard" else ""
    defaults = {"equality": EQUALITY_DEFAULTS, "numeric": NUMERIC_DEFAULTS}.get(named, {})
    out: dict[str, Any] = {}
    for key, default in defaults.items():
        value = own.pop(key, None)
        if value is None:
            value = default
        elif isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        out[key] = value
    out.update(own)
    return out


@dataclass(frozen=True, slots=True)
class Definition:
    """One metric mapping as written, and where; its kind and evaluator name read once."""

    metric: dict[str, Any]
    level: Level
    origin: Origin
    path: JsonPath
    #: The test case and turn it sits on (None above them).
    case_index: int | None = None
    turn_index: int | None = None
    kind: Kind | None = field(init=False, repr=False, compare=False)
    key: str | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", kind_of(self.metric))
        object.__setattr__(self, "key", evaluator_name(self.metric))

    @property
    def name(self) -> str:
        return display_name(self.metric)


@dataclass(slots=True)
class TurnMetric:
    """A metric of a turn's effective list: its own definition and the evaluator it gets."""

    own: Definition
    #: The definition the shared evaluator was built from (None for code metrics).
    evaluator: Definition | None
    #: "runs"; "skipped-no-ground-truth" (a multi-turn turn without one: skipped silently);
    #: "no-ground-truth" (a single-turn test case without one: runs, cannot pass);
    #: "disabled" (a code metric with `enabled: false`).
    status: str

    @property
    def effective_settings(self) -> dict[str, Any]:
        if self.own.kind == "code":
            return {k: v for k, v in self.own.metric.items() if k not in ("type", "threshold")}
        source = self.evaluator or self.own
        return settings(source.metric)


@dataclass(slots=True)
class TurnPlan:
    case_index: int
    #: None for a single-turn test case.
    turn_index: int | None
    #: The test case (single-turn) or the turn mapping.
    scope: dict[str, Any]
    path: JsonPath
    #: Where the effective list came from (None: no metrics at any level).
    source: Level | None
    source_path: JsonPath | None
    metrics: list[TurnMetric] = field(default_factory=list)


@dataclass(slots=True)
class CasePlan:
    index: int
    case: dict[str, Any]
    path: JsonPath
    turns: list[TurnPlan]

    @property
    def multi_turn(self) -> bool:
        return isinstance(self.case.get("turns"), list)


@dataclass
class Plan:
    """What the platform will run for every turn of a file."""

    definitions: list[Definition]
    #: Evaluator name -> the definition its evaluator is built from (the last one).
    evaluators: dict[str, Definition]
    cases: list[CasePlan]
    _indexes: dict[str, dict[Any, list[Any]]] = field(default_factory=dict, repr=False)

    def turns(self) -> Iterator[TurnPlan]:
        for case in self.cases:
            yield from case.turns

    def definitions_of(self, key: str) -> list[Definition]:
        """Every definition of one evaluator name, in walking order."""
        return list(self._index("by_key").get(key, []))

    def turns_running(self, definition: Definition) -> list[TurnPlan]:
        """The turns whose effective list holds ``definition``."""
        return list(self._index("users").get(id(definition), []))

    def _index(self, name: str) -> dict[Any, list[Any]]:
        # One pass over the plan per index: a file may hold thousands of definitions.
        if name not in self._indexes:
            by_key: dict[Any, list[Any]] = {}
            for definition in self.definitions:
                by_key.setdefault(definition.key, []).append(definition)
            users: dict[Any, list[Any]] = {}
            for turn in self.turns():
                for applied in turn.metrics:
                    users.setdefault(id(applied.own), []).append(turn)
            self._indexes.update(by_key=by_key, users=users)
        return self._indexes[name]


def _definitions(
    metrics: Any,
    level: Level,
    origin: Origin,
    base: JsonPath,
    case_index: int | None = None,
    turn_index: int | None = None,
) -> list[Definition]:
    """The mappings of a list of metrics as written: each keeps its index in its path."""
    return [
        Definition(m, level, origin, (*base, i), case_index, turn_index)
        for i, m in enumerate(metrics if isinstance(metrics, list) else [])
        if isinstance(m, dict)
    ]


@dataclass(slots=True)
class _CaseMetrics:
    """A test case's own metric definitions, and those of each turn holding some, by index."""

    index: int
    case: dict[str, Any]
    path: JsonPath
    own: list[Definition]
    turns: dict[int, list[Definition]]


def build(
    agent: Any,
    cases: list[Any],
    cases_base: JsonPath,
    cases_origin: Origin = "agent",
) -> Plan:
    """The plan for ``cases`` (at ``cases_base`` in their document) under ``agent``'s metrics."""
    evaluations = agent.get("evaluations") if isinstance(agent, dict) else None
    metrics = evaluations.get("metrics") if isinstance(evaluations, dict) else None
    agent_defs = _definitions(metrics, "agent", "agent", ("evaluations", "metrics"))
    per_case = [
        _read_case(i, case, (*cases_base, i), cases_origin)
        for i, case in enumerate(cases)
        if isinstance(case, dict)
    ]
    definitions = [*agent_defs, *(d for w in per_case for d in chain(w.own, *w.turns.values()))]
    # One evaluator per name, built from the last definition met (code metrics have none).
    evaluators = {d.key: d for d in definitions if d.key is not None and d.kind != "code"}
    plans = [_case_plan(w, agent_defs, evaluators) for w in per_case]
    return Plan(definitions, evaluators, plans)


def _read_case(i: int, case: dict[str, Any], path: JsonPath, origin: Origin) -> _CaseMetrics:
    own = _definitions(case.get("evaluations"), "test case", origin, (*path, "evaluations"), i)
    turns = case.get("turns")
    found: dict[int, list[Definition]] = {}
    for j, turn in enumerate(turns if isinstance(turns, list) else []):
        # Most turns hold no list: nothing to filter, no path to make.
        if isinstance(turn, dict) and turn.get("evaluations"):
            where = (*path, "turns", j, "evaluations")
            defs = _definitions(turn["evaluations"], "turn", origin, where, i, j)
            if defs:
                found[j] = defs
    return _CaseMetrics(i, case, path, own, found)


#: The applied metrics of a list many turns inherit, by (the list, whether the turn lacks
#: a ground truth, whether its test case is multi-turn): made once, copied for each turn.
_Shared = dict[tuple[int, bool, bool], tuple[JsonPath, list[TurnMetric]]]


def _case_plan(
    case_metrics: _CaseMetrics, agent_defs: list[Definition], evaluators: dict[str, Definition]
) -> CasePlan:
    """Each turn's metrics: a turn's own list first, then its test case's, then the agent's."""
    i, case, path = case_metrics.index, case_metrics.case, case_metrics.path
    inherited: tuple[Level, list[Definition]] = (
        ("test case", case_metrics.own) if case_metrics.own else ("agent", agent_defs)
    )
    turns = case.get("turns")
    multi_turn = isinstance(turns, list)
    shared: _Shared = {}

    def plan(j: int | None, scope: dict[str, Any], where: JsonPath, own: bool) -> TurnPlan:
        level: tuple[Level, list[Definition]] = (
            ("turn", case_metrics.turns[j]) if own and j is not None else inherited
        )
        source, defs = level
        if not defs:
            return TurnPlan(i, j, scope, where, None, None, [])
        missing = scope.get("ground_truth") is None
        key = (id(defs), missing, multi_turn)
        made = shared.get(key) if source != "turn" else None
        if made is None:
            made = defs[0].path[:-1], [_apply(d, evaluators, missing, multi_turn) for d in defs]
            if source != "turn":
                shared[key] = made
        return TurnPlan(i, j, scope, where, source, made[0], list(made[1]))

    if not isinstance(turns, list):
        return CasePlan(i, case, path, [plan(None, case, path, False)])
    plans = [
        plan(j, turn, (*path, "turns", j), j in case_metrics.turns)
        for j, turn in enumerate(turns)
        if isinstance(turn, dict)
    ]
    return CasePlan(i, case, path, plans)


def _apply(
    own: Definition, evaluators: dict[str, Definition], missing: bool, multi_turn: bool
) -> TurnMetric:
    """``own`` on a turn (``missing``: without a ground truth)."""
    if own.kind == "code":
        status = "disabled" if own.metric.get("enabled") is False else "runs"
        return TurnMetric(own, None, status)
    evaluator = evaluators.get(own.key) if own.key is not None else None
    status = "runs"
    if missing and own.key in NEEDING_GROUND_TRUTH.get(own.kind or "", ()):
        status = "skipped-no-ground-truth" if multi_turn else "no-ground-truth"
    return TurnMetric(own, evaluator, status)
