"""HMT130: an agent.yaml's own sections, judged by the platform's own ``Agent`` model.

A document with neither ``model`` nor ``instructions`` (the test-case part of an agent) is
not asked for them. A subagent's ``prompt_file`` is judged as a ``test_cases_file`` is
(confined, bounded) and the model gets a stand-in, so it opens nothing. Nothing the
platform warns or logs reaches a stream (it quotes the input raw).
"""

from __future__ import annotations

import errno
import logging
import os
import re
import threading
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_mt.contract import unchecked
from holodeck_mt.limits import Limits
from holodeck_mt.model import Fault, JsonPath, clip, derived, reason_of, under
from holodeck_mt.read import confine, loader
from holodeck_mt.read.files import Refused, TooLarge, read
from holodeck_mt.wording import hints

SCHEMA_SECTIONS = frozenset({"test_cases", "test_cases_file", "evaluations"})
_FRAGMENT_FILLERS: Mapping[str, Any] = {
    "name": "agent",
    "model": {"provider": "openai", "name": "gpt-4o"},
    "instructions": {"inline": "-"},
}
#: More tools than any platform release allows (0.7.1: 50); only these are handed over.
_MOST_TOOLS = 1000
#: The most model errors, and faults on the files it would read, told for one document.
_MOST_ERRORS = 200

#: The name of the platform's own function in a message (``found using _get_tool_type()``).
_INTERNAL = re.compile(r" found using \w+\(\)")

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}
#: One validation at a time: the warnings filters and loggers it sets aside are shared.
_VALIDATING = threading.Lock()

#: Unset while the platform imports: a log file it would create, a level printing on stderr.
_LOGGING_VARIABLES = ("HOLODECK_LOG_FILE", "HOLODECK_LOG_LEVEL")

_SUBAGENTS: JsonPath = ("claude", "agents")
#: What the model is handed in place of a prompt file's text that is not blank.
_PROMPT = "-"
#: The ``prompt_file`` handed beside a ``prompt``: the platform refuses the two together
#: before it looks at the file, and a NUL stops any path before the system sees it.
_NO_PATH = "\x00"


def agent_model() -> Any:
    """The platform's ``Agent`` model, or None when the platform does not import."""
    with _LOCK:
        if "agent" in _MODELS:
            return _MODELS["agent"]
        # The platform's import switches deepeval's telemetry off itself; said first all
        # the same, as the platform does, in case a later release stops.
        os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
        _MODELS["agent"] = None  # absent, or a broken install: the sections stay unchecked
        with _keep_logging():
            try:
                from holodeck.models.agent import Agent

                _MODELS["agent"] = Agent
            except Exception as e:
                _MODELS["error"] = clip(str(e))
        return _MODELS["agent"]


def absence() -> str:
    """Why :func:`agent_model` finds no model: not installed, or its import's error."""
    from importlib import metadata

    agent_model()
    try:
        version = clip(metadata.version("holodeck-ai"), 40)
    except Exception:  # not installed, or metadata that does not read
        return unchecked.NOT_INSTALLED
    return f"holodeck-ai {version} is installed but cannot be imported: {_MODELS.get('error')}"


@contextmanager
def _keep_logging() -> Iterator[None]:
    """The loggers as they were before the platform's import configured its own logging."""
    manager = logging.Logger.manager
    loggers = [logging.getLogger()] + [
        logger for logger in list(manager.loggerDict.values()) if isinstance(logger, logging.Logger)
    ]
    kept = [(lg, lg.level, list(lg.handlers), lg.propagate, lg.disabled) for lg in loggers]
    variables = {name: os.environ.pop(name) for name in _LOGGING_VARIABLES if name in os.environ}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        os.environ.update(variables)
        for logger, level, handlers, propagate, disabled in kept:
            logger.setLevel(level)
            logger.handlers[:] = handlers
            logger.propagate, logger.disabled = propagate, disabled


def owned_sections(data: Any) -> tuple[str, ...]:
    """The platform's own sections the document holds, in the document's order."""
    if not isinstance(data, dict):
        return ()
    from holodeck_mt.contract import field_facts

    own = field_facts.keys("agent") - SCHEMA_SECTIONS
    return tuple(k for k in data if isinstance(k, str) and k in own)


@dataclass(frozen=True)
class ModelReport:
    """The models' faults on a document, or the sections they left unchecked, and why."""

    faults: list[Fault] = field(default_factory=list)
    unchecked: tuple[str, ...] = ()
    #: ``off`` (``--platform off``), or why the platform does not import (:func:`absence`).
    because: str = ""
    #: The real paths of the other files (prompt files) the verdict depends on.
    reads: tuple[str, ...] = ()


def judge(
    doc: loader.Document,
    found: list[Fault],
    role: str,
    mode: str,
    tree: Path | None = None,
    allow_outside: bool = False,
    limits: Limits | None = None,
    workdir: Path | None = None,
) -> ModelReport:
    """The platform's models on an agent.yaml's own sections, none where the loader or ``found``
    told; the files they read stay in ``tree``, read from ``workdir`` (default: here)."""
    data = doc.data
    owned = owned_sections(data) if role == "document" else ()
    if not owned:
        return ModelReport()
    agent = agent_model() if mode != "off" else None
    if agent is None:
        return ModelReport(unchecked=owned, because="off" if mode == "off" else absence())
    reported = doc.reported | {f.parts for f in found if f.severity == "error"}
    here = Path(os.path.realpath(workdir if workdir is not None else Path.cwd()))
    files = _Files(tree if tree is not None else here, here, allow_outside, limits or Limits())
    config = _build_config(agent, data)
    told = _prompt_files(config, files, reported) + _model_faults(agent, config, data, reported)
    # A mapping holding a key twice is read with its first value, the platform keeps the
    # last: the model's verdict on it is not the platform's (HMT002 tells the duplicate).
    twice = {d.pointer_parts[:-1] for d in doc.diagnostics if d.code == "HMT002"}
    return ModelReport([f for f in told if f.parts not in twice], reads=tuple(files.reads))


def _build_config(agent: Any, data: dict[Any, Any]) -> dict[str, Any]:
    fields = set(getattr(agent, "model_fields", {})) - SCHEMA_SECTIONS
    config = {k: v for k, v in data.items() if isinstance(k, str) and k in fields}
    tools = config.get("tools")
    if isinstance(tools, list) and len(tools) > _MOST_TOOLS:
        # The platform refuses more tools than its maximum: a hostile file's million
        # tools are not all validated to hear it say so.
        config["tools"] = tools[: _MOST_TOOLS + 1]
    if "model" not in data and "instructions" not in data:
        for key, value in _FRAGMENT_FILLERS.items():
            config.setdefault(key, value)
    return config


def _model_faults(
    agent: Any, config: dict[str, Any], data: Any, reported: set[JsonPath]
) -> list[Fault]:
    """The model's errors on ``config``, located in ``data``, none at or below ``reported``."""
    from pydantic import ValidationError

    try:
        with _quiet():
            agent.model_validate(config)
        return []
    except ValidationError as e:
        errors = [dict(error) for error in e.errors(include_url=False)]
    except Exception as e:  # a validator of the platform raising something else
        errors = [{"loc": (), "msg": f"{type(e).__name__}: {e}", "type": "error"}]
    located = (_fault(error, data) for error in errors[:_MOST_ERRORS])
    return [f for f in located if f is not None and not under(f.parts, reported)]


@contextmanager
def _quiet() -> Iterator[None]:
    """What the validators warn or log is dropped: it quotes the input raw (ESC, ``::``)."""
    logger = logging.getLogger("holodeck")
    with _VALIDATING, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        handlers, propagate = list(logger.handlers), logger.propagate
        logger.handlers[:] = [logging.NullHandler()]
        logger.propagate = False
        try:
            yield
        finally:
            logger.handlers[:], logger.propagate = handlers, propagate


#: The code, message and hint of a fault at a ``prompt_file``.
_Problem = tuple[str, str, str | None]


@dataclass
class _Files:
    """How the files the platform's models would read are judged, for one document."""

    tree: Path
    #: The real path of the folder ``holodeck`` runs in, where a relative path starts.
    here: Path
    allow_outside: bool
    limits: Limits
    reads: list[str] = field(default_factory=list)
    #: Whether each real path (and each path as written) is blank, or why it is not read:
    #: a path named a million times is looked at once.
    judged: dict[str, tuple[bool, _Problem | None]] = field(default_factory=dict)
    named: dict[str, tuple[bool, _Problem | None]] = field(default_factory=dict)
    #: Bytes read so far: all the prompt files of one document stay within one file's limit.
    spent: int = 0


def _prompt_files(config: dict[str, Any], files: _Files, reported: set[JsonPath]) -> list[Fault]:
    """Each subagent's ``prompt_file`` judged, and replaced in a copy of ``claude`` by a
    ``prompt`` (blank if the file is), or beside one by a path that opens nothing."""
    claude = config.get("claude")
    agents = claude.get("agents") if isinstance(claude, dict) else None
    if not isinstance(claude, dict) or not isinstance(agents, dict):
        return []
    found: list[Fault] = []
    handed: dict[Any, Any] = {}
    for name, spec in agents.items():
        target = _text(spec.get("prompt_file")) if isinstance(spec, dict) else None
        if not isinstance(spec, dict) or not isinstance(target, str):
            handed[name] = spec
            continue
        spec = dict(spec)
        if spec.get("prompt") is not None:
            spec["prompt_file"] = _NO_PATH
        else:
            where = (*_SUBAGENTS, name, "prompt_file") if isinstance(name, str) else _SUBAGENTS
            if target not in files.named:  # a path named a million times is looked at once
                files.named[target] = _prompt_file_blank(Path(target), files)
            blank, problem = files.named[target]
            del spec["prompt_file"]
            spec["prompt"] = "" if blank else _PROMPT
            if problem is not None:
                found.append(Fault(problem[0], problem[1], where, hint=problem[2]))
        handed[name] = spec
    config["claude"] = {**claude, "agents": handed}
    return [f for f in found if not under(f.parts, reported)][:_MOST_ERRORS]


def _text(value: Any) -> Any:
    """The value as the model reads it: bytes as UTF-8 text (None when they are not)."""
    if not isinstance(value, (bytes, bytearray)):
        return value
    try:
        return bytes(value).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _prompt_file_blank(written: Path, files: _Files) -> tuple[bool, _Problem | None]:
    """Whether the prompt file is blank, or why it is not read (then it counts as not blank)."""
    path = files.here / written  # the folder holodeck runs in, unless ``written`` is absolute
    try:
        refused = confine.refusal(path, files.tree, allow_outside=files.allow_outside)
        real = os.path.realpath(path)
    except (OSError, ValueError) as e:  # a NUL, a name too long, a loop of links
        return False, _say_unreadable(e)
    if refused is not None:
        if refused.startswith("leaves") and not written.is_absolute() and ".." not in written.parts:
            refused = (
                "is a link that leaves the repository tree"
                if files.here.is_relative_to(files.tree)
                else "is read from the working folder, which lies outside the repository tree"
            )
        hint = (
            "keep prompt files inside the repository (--allow-outside-paths allows other "
            "places); the platform reads a relative prompt_file from the working folder"
        )
        return False, ("HMT120", f"prompt_file {refused}", hint)
    if real not in files.judged:
        files.reads.append(real)
        files.judged[real] = _read(path, files)
    return files.judged[real]


def _say_unreadable(error: BaseException) -> _Problem:
    return "HMT130", f"prompt_file cannot be read ({clip(reason_of(error), 200)})", None


def _read(path: Path, files: _Files) -> tuple[bool, _Problem | None]:
    """Whether a prompt file is blank, read as UTF-8 within what the other prompt files left."""
    limit = files.limits.max_bytes
    try:
        raw = read(path, limit - files.spent).raw
    except TooLarge as e:
        files.spent += e.read
        return False, _say_too_large(e.size, limit, files.spent - e.read)
    except OSError as e:
        if e.errno == errno.ENOENT:
            hint = "the platform reads a relative prompt_file from the working folder"
            return False, ("HMT130", "prompt_file names no file", hint)
        if e.errno == errno.EINVAL:
            kind = "a folder" if path.is_dir() else "not a regular file"
            return False, ("HMT130", f"prompt_file is {kind}", None)
        return False, _say_unreadable(e)
    except (ValueError, Refused) as e:
        return False, _say_unreadable(e)
    files.spent += len(raw)
    try:
        return not raw.decode("utf-8").strip(), None
    except UnicodeDecodeError as e:
        return False, ("HMT130", f"prompt_file is not UTF-8 text ({clip(e.reason)})", None)


def _say_too_large(size: int, limit: int, spent: int) -> _Problem:
    left = "what the document's other prompt files leave of " if spent else ""
    message = f"prompt_file is {size:,} bytes, over {left}the limit of {limit:,}; it was not read"
    return "HMT004", message, "raise the limit with --max-file-size if this is intended"


def _fault(error: Mapping[str, Any], data: Any) -> Fault | None:
    parts, exact, node = _locate(tuple(error.get("loc", ())), data)
    if parts and parts[0] in SCHEMA_SECTIONS:
        return None
    kind = str(error.get("type", ""))
    if kind == "missing" and not exact:
        missing = tuple(error.get("loc", ()))[-1:]
        shown = clip(str(missing[0])) if missing else "a field"
        at = "key" if parts else "value"
        return Fault("HMT130", f"`{shown}` is required by the platform's model", parts, at=at)
    if kind == "union_tag_invalid" and isinstance(node, dict) and "type" in node:
        parts, node = (*parts, "type"), node["type"]  # the tag the platform could not use
    # A collection is pointed at by its key: it can span a hostile file's million lines.
    collection = isinstance(node, (dict, list))
    at = "key" if kind == "extra_forbidden" or (parts and collection) else "value"
    return Fault("HMT130", _message(error, parts), parts, at=at, hint=_hint(error))


def _message(error: Mapping[str, Any], parts: JsonPath) -> str:
    """The platform's message (its first line, clipped), with the value it refused."""
    kind = error.get("type")
    if kind == "extra_forbidden" and parts:
        shown = hints.key(str(parts[-1]), own=True)
        return f"unknown key '{shown}': the platform's model allows no other key"
    lines = str(error.get("msg", "")).strip().splitlines()
    text = _INTERNAL.sub("", (lines[0] if lines else "refused").removeprefix("Value error, "))
    # The model's words may quote the value: words of the own node.
    text = derived(clip(text, 200), "the platform's model refuses the value")
    scalar = isinstance(error.get("input"), (str, int, float, bool, type(None)))
    if kind != "extra_forbidden" and "input" in error and scalar:
        text = f"{text} (got {hints.show_with_kind(error['input'], own=True)})"
    return text


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
    return derived(f"did you mean '{clip(near)}'?") if near is not None else None


def _locate(loc: tuple[Any, ...], data: Any) -> tuple[JsonPath, bool, Any]:
    """The data path of a model error's ``loc``, whether it names an existing node, and
    the node it reaches: the parts naming union branches or validators are passed over."""
    parts: list[str | int] = []
    node = data
    exact = True
    for i, part in enumerate(loc):
        # A union branch is named by its tag (a tool's ``type``), even when the data
        # holds a key of that name too (a function tool's ``function``).
        tag = isinstance(node, dict) and node.get("type") == part and i < len(loc) - 1
        if tag or not _holds(node, part):
            exact = exact and i < len(loc) - 1
            continue
        parts.append(part)
        node = node[part]
    return tuple(parts), exact, node


def _holds(node: Any, part: Any) -> bool:
    if isinstance(node, dict):
        return isinstance(part, str) and part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
