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
  asked for;
- a subagent's ``prompt_file`` (``claude.agents.<name>.prompt_file``), which the
  platform's validator opens and reads, is judged here as a ``test_cases_file`` is
  (:mod:`holodeck_mt.read.confine`): resolved as the platform resolves it (from the
  working folder), inside the tree, a regular file, within the size limit, read
  bounded. The model is handed the prompt's stand-in instead (only whether it is blank
  matters to it), so it opens nothing; what the platform would refuse of the file, and
  what the validator refuses to open, is a fault at the ``prompt_file``.

Nothing the validators warn (``warnings.warn``) or log reaches a stream: the platform's
warnings advise on values its model accepts, in words that quote the input raw, and
are dropped; importing the platform, which sets up the process's logging for its own
command line, leaves the loggers as they were.

Importing the models imports the platform's configuration layer only (about 0.2 s;
never its agent runtime nor its evaluators), and only when an agent.yaml is judged.
"""

from __future__ import annotations

import codecs
import errno
import functools
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

from holodeck_mt.limits import Limits
from holodeck_mt.model import Fault, JsonPath, severity, under
from holodeck_mt.read import confine, loader
from holodeck_mt.text import substituted
from holodeck_mt.text.safe_text import clip
from holodeck_mt.wording import hints

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
#: The most model errors told for one document (each is located in the text), and the
#: most faults on the files the model would read.
_MOST_ERRORS = 200

#: The name of the platform's own function in a message (``found using _get_tool_type()``).
_INTERNAL = re.compile(r" found using \w+\(\)")

_LOCK = threading.Lock()
_MODELS: dict[str, Any] = {}
#: One validation at a time: the warnings filters and the platform's logger it sets
#: aside are the process's, shared by every thread.
_VALIDATING = threading.Lock()

#: The platform's loggers, all below this one.
_PLATFORM_LOGGER = "holodeck"
#: What the platform's package import reads to set up logging: a log file it would
#: create and write, a level that would print its own setup on stderr. Unset while it imports.
_LOGGING_VARIABLES = ("HOLODECK_LOG_FILE", "HOLODECK_LOG_LEVEL")

#: Where subagents are defined; each one's ``prompt_file`` is read by the platform's model.
_SUBAGENTS: JsonPath = ("claude", "agents")
#: What the model is handed in place of a prompt file's text that is not blank.
_PROMPT = "-"
#: The ``prompt_file`` handed beside a ``prompt``: the platform refuses the two together
#: before it looks at the file, and a NUL stops any path before the system sees it.
_NO_PATH = "\x00"
#: How much of a prompt file is read at a time (decoded and looked at, then dropped).
_CHUNK = 1 << 16


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
    with _logging_kept():
        try:
            from holodeck.models.agent import Agent
        except Exception:  # absent, or a broken install: the sections stay unchecked
            return None
    return Agent


@contextmanager
def _logging_kept() -> Iterator[None]:
    """The platform's package import configures logging for its command line (the root
    logger's handlers replaced by its own on stderr, a log file the environment names):
    the loggers that existed are given back as they were, and no log file is opened."""
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
    #: The real paths of the other files the verdict depends on (a subagent's prompt file),
    #: read or looked for inside the tree.
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
) -> Checked:
    """The platform's models on an agent.yaml's own sections (``mode``: ``--platform``),
    nothing told where the loader or an error in ``found`` already told something.

    ``tree``: the folder the files the models would read must stay in (by default the
    working folder's); ``allow_outside``: ``--allow-outside-paths``; ``limits``: how
    much of them may be read; ``workdir``: the folder ``holodeck`` runs in, from which
    they read a relative path (by default the working folder).
    """
    data = doc.data
    owned = owned_sections(data) if role == "document" else ()
    if not owned:
        return Checked()
    if mode != "off":
        reported = doc.reported | {f.parts for f in found if severity(f.code) == "error"}
        files = _Files.of(tree, allow_outside, limits or Limits(), workdir)
        told = faults(data, reported, files)
        if told is not None:
            # A mapping holding a key twice is read with its first value, the platform
            # keeps the last: the model's verdict on that mapping is not the platform's
            # (the duplicate is an error of its own, HMT002).
            twice = {d.pointer_parts[:-1] for d in doc.diagnostics if d.code == "HMT002"}
            told = [f for f in told if f.parts not in twice]
            return Checked(told, reads=tuple(files.reads))
    return Checked(unchecked=owned, because="off" if mode == "off" else "absent")


def faults(
    data: dict[Any, Any], reported: set[JsonPath], files: _Files | None = None
) -> list[Fault] | None:
    """The model's errors on the document's own sections, located by data path; None
    when the platform is not importable. Nothing at or below ``reported`` is told.
    ``files``: how the files the model would read are judged (the working folder's
    tree, the default limits, when not given)."""
    agent = agent_model()
    if agent is None:
        return None
    files = files if files is not None else _Files.of(None, False, Limits(), None)
    config = _handed(agent, data)
    found = [f for f in _prompt_files(config, files) if not under(f.parts, reported)]
    del found[_MOST_ERRORS:]
    errors = _errors(agent, config)
    for error in errors[:_MOST_ERRORS]:
        fault = _fault(error, data)
        if fault is not None and not under(fault.parts, reported):
            found.append(fault)
    return found


def _handed(agent: Any, data: dict[Any, Any]) -> dict[str, Any]:
    """What of the document the model is handed (see the module's docstring)."""
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
    return config


def _errors(agent: Any, config: dict[str, Any]) -> list[dict[str, Any]]:
    from pydantic import ValidationError

    try:
        with _quiet():
            agent.model_validate(config)
    except ValidationError as e:
        return [dict(error) for error in e.errors(include_url=False)]
    except Exception as e:  # a validator of the platform raising something else
        return [{"loc": (), "msg": f"{type(e).__name__}: {e}", "type": "error"}]
    return []


@contextmanager
def _quiet() -> Iterator[None]:
    """What the validators warn or log is dropped, never written to a stream: the
    platform's warnings quote the input raw (a tool name holding ESC, a line starting
    ``::``), and they advise on what its model accepts."""
    logger = logging.getLogger(_PLATFORM_LOGGER)
    with _VALIDATING, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        handlers, propagate = list(logger.handlers), logger.propagate
        logger.handlers[:] = [logging.NullHandler()]
        logger.propagate = False
        try:
            yield
        finally:
            logger.handlers[:], logger.propagate = handlers, propagate


#: Why a file the models would read is not read, or what the platform refuses of it:
#: the code, the message and the hint of the fault at its ``prompt_file``.
_Problem = tuple[str, str, str | None]


@dataclass
class _Files:
    """How the files the platform's models would read are judged, for one document."""

    #: The folder they must stay in.
    tree: Path
    #: The folder ``holodeck`` runs in (its real path): the platform reads a relative
    #: path from it.
    here: Path
    allow_outside: bool
    limits: Limits
    #: The real paths read or looked for, in order (see :attr:`Checked.reads`).
    reads: list[str] = field(default_factory=list)
    #: What each real path was found to be: blank or not, or why it is not read; each
    #: is read once however many subagents name it.
    judged: dict[str, tuple[bool, _Problem | None]] = field(default_factory=dict)
    #: The same, by the path as written: a path named a million times is resolved once.
    named: dict[str, tuple[bool, _Problem | None]] = field(default_factory=dict)
    #: Bytes read so far: all the prompt files of one document stay within one file's limit.
    spent: int = 0

    @classmethod
    def of(
        cls, tree: Path | None, allow_outside: bool, limits: Limits, workdir: Path | None
    ) -> _Files:
        """Judged from ``workdir`` (by default the working folder), inside ``tree`` (by
        default that folder)."""
        here = Path(os.path.realpath(workdir if workdir is not None else Path.cwd()))
        return cls(tree if tree is not None else here, here, allow_outside, limits)


def _prompt_files(config: dict[str, Any], files: _Files) -> list[Fault]:
    """Each subagent's ``prompt_file`` judged, and replaced in ``config`` (a copy of its
    ``claude`` section, the document's own data left as it is) by what the model may see.

    The platform's validator reads the file only when ``prompt`` is unset; then the model
    is handed ``prompt``: a stand-in for the text, blank when the text is blank (the one
    thing the model asks of it). Beside a ``prompt``, the path handed can open nothing.
    A value that is no text is handed as it is: the model refuses its type, reading nothing.
    """
    claude = config.get("claude")
    agents = claude.get("agents") if isinstance(claude, dict) else None
    if not isinstance(claude, dict) or not isinstance(agents, dict):
        return []
    found: list[Fault] = []
    handed: dict[Any, Any] = {}
    for name, spec in agents.items():
        target = spec.get("prompt_file") if isinstance(spec, dict) else None
        if isinstance(target, (bytes, bytearray)):  # the model reads bytes as UTF-8 text
            target = _text(target)
        if not isinstance(spec, dict) or not isinstance(target, str):
            handed[name] = spec
            continue
        spec = dict(spec)
        if spec.get("prompt") is not None:
            spec["prompt_file"] = _NO_PATH
        else:
            where = (*_SUBAGENTS, name, "prompt_file") if isinstance(name, str) else _SUBAGENTS
            blank, fault = _prompt_file(target, where, files)
            del spec["prompt_file"]
            spec["prompt"] = "" if blank else _PROMPT
            if fault is not None:
                found.append(fault)
        handed[name] = spec
    config["claude"] = {**claude, "agents": handed}
    return found


def _text(raw: bytes | bytearray) -> str | None:
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _prompt_file(target: str, where: JsonPath, files: _Files) -> tuple[bool, Fault | None]:
    """Whether the prompt file ``target`` is blank, and why it cannot be read if it
    cannot (then it counts as not blank). Read from the working folder, as the platform
    reads it, and only inside the tree; a path named again is not looked at again."""
    if target not in files.named:
        files.named[target] = _judged(Path(target), files)
    blank, problem = files.named[target]
    return blank, _refused(where, problem) if problem is not None else None


def _judged(written: Path, files: _Files) -> tuple[bool, _Problem | None]:
    path = files.here / written  # the folder holodeck runs in, unless ``written`` is absolute
    try:
        refused = confine.refusal(path, files.tree, allow_outside=files.allow_outside)
        real = os.path.realpath(path)
    except (OSError, ValueError) as e:  # a NUL, a name too long, a loop of links
        return False, ("HMT130", f"prompt_file cannot be read ({_why(e)})", None)
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


def _refused(where: JsonPath, problem: _Problem) -> Fault:
    code, message, hint = problem
    return Fault(code, message, where, hint=hint)


def _why(error: BaseException) -> str:
    return clip(str(getattr(error, "strerror", None) or error), 200)


def _read(path: Path, files: _Files) -> tuple[bool, _Problem | None]:
    """A prompt file read as the platform reads it (UTF-8), bounded, and dropped as it
    is read: whether it is blank, or why it is not read (code, message, hint)."""
    limit = files.limits.max_bytes
    try:
        descriptor = confine.open_regular(path)
    except OSError as e:
        if e.errno == errno.ENOENT:
            hint = "the platform reads a relative prompt_file from the working folder"
            return False, ("HMT130", "prompt_file names no file", hint)
        if e.errno == errno.EINVAL:
            kind = "a folder" if path.is_dir() else "not a regular file"
            return False, ("HMT130", f"prompt_file is {kind}", None)
        return False, ("HMT130", f"prompt_file cannot be read ({_why(e)})", None)
    allowed = limit - files.spent
    with os.fdopen(descriptor, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > allowed:
            return False, _too_large(size, limit, files.spent)
        decoder = codecs.getincrementaldecoder("utf-8")()
        blank, read = True, 0
        try:
            # Up to one byte past what is allowed: a file that grew since it was looked
            # at is still read no further than the limit.
            while chunk := file.read(min(_CHUNK, allowed + 1 - read)):
                read += len(chunk)
                text = decoder.decode(chunk)  # the whole file is decoded: UTF-8 or refused
                blank = blank and not text.strip()
                if read > allowed:
                    return False, _too_large(read, limit, files.spent)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as e:
            return False, ("HMT130", f"prompt_file is not UTF-8 text ({clip(e.reason)})", None)
        except OSError as e:
            return False, ("HMT130", f"prompt_file cannot be read ({_why(e)})", None)
        finally:
            files.spent += read
    return blank, None


def _too_large(size: int, limit: int, spent: int) -> _Problem:
    over = (
        f"over the limit of {limit:,}"
        if not spent
        else f"over what the document's other prompt files leave of the limit of {limit:,}"
    )
    return (
        "HMT004",
        f"prompt_file is {size:,} bytes, {over}; it was not read",
        "raise the limit with --max-file-size if this is intended",
    )


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
    given = error.get("input")
    named = substituted.phrase(given)
    if named is not None and isinstance(given, str) and given in text:
        text = text.replace(given, named)  # the model's words quote a variable's value
    text = substituted.as_written(text)
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
