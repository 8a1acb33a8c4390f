"""HMT130: the agent.yaml's own sections, judged by the platform's own models.

The schema judges what a test runs on (``test_cases``, ``test_cases_file``,
``evaluations``). The other sections of an agent.yaml (``model``,
``instructions``, ``tools`` of each type, ``execution``, ``observability``,
``response_format``, ``claude``, ...) belong to the platform, whose pydantic
models change with each release: when the platform package (``holodeck-ai``) is
importable, its ``Agent`` model is called on those sections, as
``ConfigLoader.load_agent_yaml`` calls it, and each of its errors becomes a
located diagnostic. Nothing of the models is copied here.

What is handed to the model, and why:

- the sections the schema judges are left out: their faults are the schema's, told
  once, and a code metric's ``grader`` (which the model imports while it validates)
  is never imported;
- a top-level key the model does not know is left out too: the schema reports it;
- a document holding neither ``model`` nor ``instructions`` is the test-case part of
  an agent (as the contract's examples are written): the sections it lacks are not
  asked for.

Importing the models imports the platform's configuration layer only (about 0.2 s;
never its agent runtime nor its evaluators), and only when an agent.yaml is judged.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from holodeck_mt.codes import severity
from holodeck_mt.model import Fault, JsonPath, under
from holodeck_mt.read import loader
from holodeck_mt.text import hints
from holodeck_mt.text.safe_text import clip

#: ``--platform``: judge with the models when importable, never, or insist on them.
Mode = Literal["auto", "off", "required"]
MODES: tuple[Mode, ...] = ("auto", "off", "required")

#: The top-level sections the schema judges: never handed to the platform's models.
SCHEMA_SECTIONS = frozenset({"test_cases", "test_cases_file", "evaluations"})
#: What a document without ``model`` and ``instructions`` stands in for (see above).
_FRAGMENT_FILLERS: Mapping[str, Any] = {
    "name": "agent",
    "model": {"provider": "openai", "name": "gpt-4o"},
    "instructions": {"inline": "-"},
}
#: More tools than any platform release allows (0.7.1: 50); only these are handed over.
_MOST_TOOLS = 1000
#: The most model errors told for one document (each is located in the text).
_MOST_ERRORS = 200

#: The name of the platform's own function in a message (``found using _get_tool_type()``).
_INTERNAL = re.compile(r" found using \w+\(\)")

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}


def agent_model() -> Any:
    """The platform's ``Agent`` model, or None when the platform does not import."""
    with _LOCK:
        if "agent" not in _MODELS:
            _MODELS["agent"] = _import_agent()
        return _MODELS["agent"]


def _import_agent() -> Any:
    # The platform's package import switches deepeval's telemetry off itself; say it
    # first all the same, as the platform does, in case a later release stops.
    os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
    try:
        from holodeck.models.agent import Agent
    except Exception:  # absent, or a broken install: the sections stay unchecked
        return None
    return Agent


@functools.cache
def _agent_keys() -> frozenset[str]:
    """The top-level keys of an agent.yaml, as the schema lists them."""
    from holodeck_mt.contract import registry

    return frozenset(registry.definition(registry.AGENT, "Agent").get("properties", {}))


def owned_sections(data: Any) -> tuple[str, ...]:
    """The platform's own sections the document holds, in the document's order."""
    if not isinstance(data, dict):
        return ()
    own = _agent_keys() - SCHEMA_SECTIONS
    return tuple(k for k in data if isinstance(k, str) and k in own)


@dataclass(frozen=True)
class Checked:
    """The models' faults on a document, or the sections they left unchecked, and why."""

    faults: list[Fault] = field(default_factory=list)
    unchecked: tuple[str, ...] = ()
    #: ``off`` (``--platform off``) or ``absent`` (the platform does not import).
    because: str = ""


def judge(doc: loader.Document, found: list[Fault], role: str, mode: str) -> Checked:
    """The platform's models on an agent.yaml's own sections (``mode``: ``--platform``),
    nothing told where the loader or an error in ``found`` already told something."""
    data = doc.data
    owned = owned_sections(data) if role == "document" else ()
    if not owned:
        return Checked()
    if mode != "off":
        reported = doc.reported | {f.parts for f in found if severity(f.code) == "error"}
        told = faults(data, reported)
        if told is not None:
            # A mapping holding a key twice is read with its first value, the platform
            # keeps the last: the model's verdict on that mapping is not the platform's
            # (the duplicate is an error of its own, HMT002).
            twice = {d.pointer_parts[:-1] for d in doc.diagnostics if d.code == "HMT002"}
            return Checked([f for f in told if f.parts not in twice])
    return Checked(unchecked=owned, because="off" if mode == "off" else "absent")


def faults(data: dict[Any, Any], reported: set[JsonPath]) -> list[Fault] | None:
    """The model's errors on the document's own sections, located by data path; None
    when the platform is not importable. Nothing at or below ``reported`` is told."""
    agent = agent_model()
    if agent is None:
        return None
    fields = set(getattr(agent, "model_fields", {}))
    config = {
        k: v
        for k, v in data.items()
        if isinstance(k, str) and k in fields and k not in SCHEMA_SECTIONS
    }
    tools = config.get("tools")
    if isinstance(tools, list) and len(tools) > _MOST_TOOLS:
        # The platform refuses more tools than its maximum: a hostile file's million
        # tools are not all validated to hear it say so.
        config["tools"] = tools[: _MOST_TOOLS + 1]
    if "model" not in data and "instructions" not in data:
        for key, value in _FRAGMENT_FILLERS.items():
            config.setdefault(key, value)
    errors = _errors(agent, config)
    found = []
    for error in errors[:_MOST_ERRORS]:
        fault = _fault(error, data)
        if fault is not None and not under(fault.parts, reported):
            found.append(fault)
    return found


def _errors(agent: Any, config: dict[str, Any]) -> list[dict[str, Any]]:
    from pydantic import ValidationError

    try:
        agent.model_validate(config)
    except ValidationError as e:
        return [dict(error) for error in e.errors(include_url=False)]
    except Exception as e:  # a validator of the platform raising something else
        return [{"loc": (), "msg": f"{type(e).__name__}: {e}", "type": "error"}]
    return []


def _fault(error: Mapping[str, Any], data: Any) -> Fault | None:
    parts, exact = _located(tuple(error.get("loc", ())), data)
    if parts and parts[0] in SCHEMA_SECTIONS:
        return None
    kind = str(error.get("type", ""))
    if kind == "missing" and not exact:
        missing = tuple(error.get("loc", ()))[-1:]
        shown = clip(str(missing[0])) if missing else "a field"
        at = "key" if parts else "value"
        return Fault("HMT130", f"`{shown}` is required by the platform's model", parts, at=at)
    if kind == "union_tag_invalid" and _step(_node(data, parts), "type") is not None:
        parts = (*parts, "type")  # the tag the platform could not use
    # A collection is pointed at by its key: its whole extent can be a hostile file's
    # million lines (``tools``, over the platform's maximum).
    collection = isinstance(_node(data, parts), (dict, list))
    at = "key" if kind == "extra_forbidden" or (parts and collection) else "value"
    return Fault("HMT130", _message(error, parts), parts, at=at, hint=_hint(error))


def _message(error: Mapping[str, Any], parts: JsonPath) -> str:
    """The platform's message (its first line, clipped), with the value it refused."""
    kind = error.get("type")
    if kind == "extra_forbidden" and parts:
        return f"unknown key '{clip(str(parts[-1]))}': the platform's model allows no other key"
    lines = str(error.get("msg", "")).strip().splitlines()
    text = _INTERNAL.sub("", (lines[0] if lines else "refused").removeprefix("Value error, "))
    if kind != "extra_forbidden" and "input" in error and _scalar(error["input"]):
        text = f"{clip(text, 200)} (got {hints.got(error['input'])})"
    return clip(text, 300)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _hint(error: Mapping[str, Any]) -> str | None:
    """Did you mean, for a string outside the values the model lists."""
    context = error.get("ctx")
    if not isinstance(context, Mapping):
        return None
    value, expected = error.get("input"), context.get("expected")
    if error.get("type") == "union_tag_invalid":  # a tool's type: the tag, and the tags
        value, expected = context.get("tag"), context.get("expected_tags")
    if not isinstance(value, str) or not isinstance(expected, str):
        return None
    choices = [c.strip().strip("'") for c in expected.replace(" or ", ", ").split(",")]
    near = hints.did_you_mean(value, [c for c in choices if c])
    return f"did you mean '{clip(near)}'?" if near is not None else None


def _located(loc: tuple[Any, ...], data: Any) -> tuple[JsonPath, bool]:
    """The data path of a model error's ``loc``, and whether it names an existing node.

    A ``loc`` also holds the names of union branches (a tool's ``function``) and of
    validators: a part the data does not hold is passed over; a missing field's own
    name ends the path at the mapping that lacks it.
    """
    parts: list[str | int] = []
    node = data
    exact = True
    for i, part in enumerate(loc):
        # A union branch is named by its tag (a tool's ``type``), even when the data
        # holds a key of that name too (a function tool's ``function``).
        tag = isinstance(node, dict) and node.get("type") == part and i < len(loc) - 1
        step = None if tag else _step(node, part)
        if step is None:
            exact = exact and i < len(loc) - 1
            continue
        parts.append(part)
        node = step[0]
    return tuple(parts), exact


def _node(data: Any, parts: JsonPath) -> Any:
    for part in parts:
        step = _step(data, part)
        data = step[0] if step is not None else None
    return data


def _step(node: Any, part: Any) -> tuple[Any] | None:
    if isinstance(node, dict) and isinstance(part, str) and part in node:
        return (node[part],)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return (node[part],)
    return None
