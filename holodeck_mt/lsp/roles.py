"""Which open documents the server validates, and as what.

- an ``agent.yaml``/``agent.yml``: as the CLI validates it (the test-cases file it names
  is followed, so a missing one is reported on the agent.yaml);
- a file an agent.yaml names in ``test_cases_file`` (the agent.yaml sits in the file's
  folder or one above it): as that agent's test-cases file;
- any other YAML file that holds test cases by its content (a top-level mapping with
  ``test_cases`` or ``test_cases_file``, or a list with a mapping that has ``input`` or
  ``turns``): as the CLI validates a file given on its command line.

Every other file gets no diagnostics: a workflow or a compose file is not ours to judge.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from holodeck_mt.validate import Role

try:  # the C parser (libyaml)
    from yaml._yaml import CParser as _Parser
except ImportError:  # pragma: no cover - exercised only without libyaml
    from yaml import Loader as _Parser  # type: ignore[assignment]

AGENT_NAMES = ("agent.yaml", "agent.yml")
#: How many folders above a file are searched for the agent.yaml naming it.
_LEVELS_UP = 4
#: The part of a text read to tell whether it holds test cases.
_SNIFF = 1024 * 1024


@dataclass(frozen=True)
class Target:
    """How a document is validated: its role and the folder its paths are relative to."""

    role: Role
    base_dir: Path


#: The text of a file: the editor's buffer when it is open, else the disk's (None: no file).
Reader = Callable[[Path], "str | None"]


def target_of(path: Path, text: str, read: Reader) -> Target | None:
    """How to validate the document at ``path`` holding ``text``; None: not a HoloDeck file."""
    if path.name in AGENT_NAMES:
        return Target("document", path.parent)
    agent = _naming_agent(path, read)
    if agent is not None:
        return Target("test-cases-file", agent.parent)
    if path.suffix.lower() in (".yaml", ".yml") and holds_test_cases(text):
        return Target("document", path.parent)
    return None


def _naming_agent(path: Path, read: Reader) -> Path | None:
    """The agent.yaml whose ``test_cases_file`` is ``path``, in its folder or above."""
    wanted = os.path.realpath(path)
    folder = path.parent
    for _ in range(_LEVELS_UP + 1):
        for name in AGENT_NAMES:
            agent = folder / name
            text = read(agent)
            target = _named_file(text) if text is not None else None
            if target and os.path.realpath(folder / target) == wanted:
                return agent
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def _events(text: str) -> Iterator[Any]:
    """The first document's events after its start (at most the first megabyte's)."""
    parser = _Parser(text[:_SNIFF])
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, (yaml.DocumentEndEvent, yaml.StreamEndEvent)):
                return
            if not isinstance(event, (yaml.StreamStartEvent, yaml.DocumentStartEvent)):
                yield event
    except (yaml.YAMLError, UnicodeError):
        return


def _top_level(text: str) -> Iterator[tuple[Any, Any]]:
    """(key event, value event) of a top-level mapping; nested collections are skipped."""
    events = _events(text)
    if not isinstance(next(events, None), yaml.MappingStartEvent):
        return
    for key in events:
        if isinstance(key, yaml.MappingEndEvent):
            return
        _skip_if_collection(key, events)
        value = next(events, None)
        if value is None:
            return
        _skip_if_collection(value, events)
        yield key, value


def _skip_if_collection(event: Any, events: Iterator[Any]) -> None:
    if not isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
        return
    depth = 1
    for inner in events:
        if isinstance(inner, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
        elif isinstance(inner, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            if depth == 0:
                return


def _named_file(text: str) -> str | None:
    """An agent.yaml's ``test_cases_file`` when the CLI follows it (no inline test cases)."""
    target = None
    for key, value in _top_level(text):
        name = getattr(key, "value", None)
        if name == "test_cases":
            return None
        if name == "test_cases_file" and isinstance(value, yaml.ScalarEvent):
            target = value.value
    return target if target and "\x00" not in target else None


def holds_test_cases(text: str) -> bool:
    """Whether the text's top level is a mapping with ``test_cases`` or ``test_cases_file``,
    or a list holding a mapping with ``input`` or ``turns``."""
    events = _events(text)
    first = next(events, None)
    if isinstance(first, yaml.MappingStartEvent):
        keys = {getattr(key, "value", None) for key, _ in _top_level(text)}
        return bool(keys & {"test_cases", "test_cases_file"})
    if not isinstance(first, yaml.SequenceStartEvent):
        return False
    for item in events:
        if isinstance(item, yaml.SequenceEndEvent):
            return False
        if isinstance(item, yaml.MappingStartEvent):
            for key in events:
                if isinstance(key, yaml.MappingEndEvent):
                    break
                if getattr(key, "value", None) in ("input", "turns"):
                    return True
                _skip_if_collection(key, events)
                value = next(events, None)
                _skip_if_collection(value, events)
        else:
            _skip_if_collection(item, events)
    return False
