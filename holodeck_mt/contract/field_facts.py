"""How the platform reads each field, as the schema declares it: by its ``type``
(``number``, ``integer``, ``boolean``), as no value where ``x-holodeck-nullable`` lists it
and ``null`` is written, or by its own rule (``x-holodeck-reads: count``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from holodeck_mt.contract import registry
from holodeck_mt.contract.walker import NULLABLE, READS

NUMBER, INTEGER, BOOLEAN, COUNT = "number", "integer", "boolean", "count"
#: Any key or index of the mapping or list.
ANY = "*"

#: The schema nodes of each kind of mapping (``platform_reading.kind_of``): file#node.
_KINDS: dict[str, tuple[str, ...]] = {
    "agent": ("agent#Agent",),
    "agent-evaluations": ("agent#AgentEvaluations",),
    "test-case": ("test-case#SingleTurnTestCase", "test-case#MultiTurnTestCase"),
    "turn": ("turn#Turn",),
    "tool": ("expected-tool#ToolCall",),
    "file": ("file-input#FileInput",),
    "pages": ("file-input#FileInput/properties/pages",),
    "metric:standard": ("metric#StandardMetric",),
    "metric:geval": ("metric#GEvalMetric",),
    "metric:rag": ("metric#RagMetric",),
    "metric:code": ("metric#CodeMetric",),
    "model": ("llm-model#LLMModel",),
    "optimizer": ("optimizer#Optimizer",),
    "loss": ("optimizer#Optimizer/properties/loss",),
    "phase": ("optimizer#Phase",),
    "textual-axis": ("optimizer#TextualAxis",),
}


def _nodes(kind: str) -> Iterator[dict[str, Any]]:
    for where in _KINDS.get(kind, ()):
        file, _, path = where.partition("#")
        name, *below = path.split("/")
        node = registry.definition(f"{registry.BASE_URI}{file}.schema.json", name)
        for key in below:
            node = node[key]
        yield node


def _reading(spec: Any) -> str | None:
    """How a field whose schema is ``spec`` reads, or None (read as it is)."""
    if not isinstance(spec, dict):
        return None
    if spec.get(READS) == COUNT:
        return COUNT
    declared = spec.get("type", [])
    types = [declared] if isinstance(declared, str) else declared
    return next((t for t in types if t in (NUMBER, INTEGER, BOOLEAN)), None)


def _read_fields(node: dict[str, Any]) -> dict[str, str]:
    if node.get("type") == "array":
        reading = _reading(node.get("items"))
        return {ANY: reading} if reading else {}
    readings = {name: _reading(spec) for name, spec in node.get("properties", {}).items()}
    found = {name: reading for name, reading in readings.items() if reading is not None}
    extra = _reading(node.get("additionalProperties"))
    return {**found, ANY: extra} if extra else found


@cache
def fields(kind: str) -> dict[str, str]:
    """The typed fields of a kind of mapping: name (or ``*``) -> how it reads."""
    return {name: r for node in _nodes(kind) for name, r in _read_fields(node).items()}


@cache
def nullable(kind: str) -> frozenset[str]:
    """The fields of a kind of mapping the platform declares optional."""
    return frozenset(field for node in _nodes(kind) for field in node.get(NULLABLE, ()))


@cache
def keys(kind: str) -> frozenset[str]:
    """Every key a kind of mapping declares (of each definition it stands for)."""
    return frozenset(key for node in _nodes(kind) for key in node.get("properties", {}))
