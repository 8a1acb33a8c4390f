"""Where things sit in a document: test cases, turns, metrics, expected tools, args. Each
walker yields only what has the expected shape (the schema reports the rest)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from holodeck_mt.model import JsonPath, clip

Node = tuple[JsonPath, Any]


def test_case_list(data: Any) -> tuple[list[Any], JsonPath] | None:
    """The document's list of test cases and the path to it, if it has one."""
    if isinstance(data, list):
        return data, ()
    if isinstance(data, dict) and isinstance(data.get("test_cases"), list):
        return data["test_cases"], ("test_cases",)
    return None


def test_cases(data: Any) -> Iterator[tuple[int, JsonPath, Any]]:
    """``(index, path, test_case)`` for every test case of an agent.yaml or test-cases file."""
    items, base = test_case_list(data) or ([], ())
    for i, case in enumerate(items):
        yield i, (*base, i), case


def name_of(case: Any) -> str | None:
    """A test case's name: its ``name`` when that is a non-empty string, else None."""
    name = case.get("name") if isinstance(case, dict) else None
    return name if isinstance(name, str) and name else None


def test_case_name(data: Any, index: int) -> str | None:
    """The name of the document's ``index``-th test case, as :func:`name_of` reads it."""
    cases = (test_case_list(data) or ([], ()))[0]
    return name_of(cases[index]) if 0 <= index < len(cases) else None


def test_case_of(data: Any, parts: JsonPath) -> tuple[int | None, JsonPath]:
    """The index of the test case holding ``parts`` and the path relative to it."""
    found = test_case_list(data)
    if found is not None:
        depth = len(found[1])
        index = parts[depth] if len(parts) > depth and parts[:depth] == found[1] else None
        if isinstance(index, int):
            return index, parts[depth + 1 :]
    return None, parts


def scopes(data: Any) -> Iterator[tuple[JsonPath, int | None, dict[str, Any]]]:
    """``(test case's path, turn index, mapping)`` for every mapping carrying a single
    turn's fields: a turn of a multi-turn test case, or a single-turn test case (no index)."""
    for _, path, case in test_cases(data):
        if not isinstance(case, dict):
            continue
        turns = case.get("turns")
        if isinstance(turns, list):
            for j, turn in enumerate(turns):
                if isinstance(turn, dict):
                    yield path, j, turn
        else:
            yield path, None, case


def _fields(data: Any, key: str, *, turns_only: bool = False) -> Iterator[Node]:
    """The path and value of ``key`` in every scope holding it (only turns: ``turns_only``)."""
    for path, j, scope in scopes(data):
        if key not in scope or (turns_only and j is None):
            continue
        yield ((*path, key) if j is None else (*path, "turns", j, key)), scope[key]


def _mappings(lists: Iterable[Node]) -> Iterator[Node]:
    """Each mapping of each list among ``lists``, with its path."""
    for path, found in lists:
        if isinstance(found, list):
            for i, item in enumerate(found):
                if isinstance(item, dict):
                    yield (*path, i), item


def metrics(data: Any) -> Iterator[Node]:
    """Every metric mapping: agent level, test-case level and turn level."""
    evaluations = data.get("evaluations") if isinstance(data, dict) else None
    if isinstance(evaluations, dict):
        yield from _mappings([(("evaluations", "metrics"), evaluations.get("metrics"))])
    # Streamed, not listed: a file of a million test cases costs no list of them.
    cases = (
        ((*path, "evaluations"), case["evaluations"])
        for _, path, case in test_cases(data)
        if isinstance(case, dict) and "evaluations" in case
    )
    yield from _mappings(itertools.chain(cases, _fields(data, "evaluations", turns_only=True)))


def expected_tool_lists(data: Any) -> Iterator[Node]:
    for path, tools in _fields(data, "expected_tools"):
        if isinstance(tools, list):
            yield path, tools


def arg_values(data: Any) -> Iterator[Node]:
    """Every value of an expected tool's ``args``."""
    for path, tool in _mappings(expected_tool_lists(data)):
        if isinstance(tool.get("args"), dict):
            for name, value in tool["args"].items():
                yield (*path, "args", name), value


def files(data: Any) -> Iterator[Node]:
    return _mappings(_fields(data, "files"))


def stats(data: Any) -> dict[str, int]:
    """How many test cases and turns the document holds (a single-turn case is one turn)."""
    cases = turns = 0
    for _, _, case in test_cases(data):
        cases += 1
        listed = case.get("turns") if isinstance(case, dict) else None
        turns += len(listed) if isinstance(listed, list) else 1
    return {"test_cases": cases, "turns": turns}


def names(data: Any) -> list[str | None]:
    """Each test case's name (clipped, as :func:`name_of` reads it) by index, or None."""
    shown = (name_of(case) for _, _, case in test_cases(data))
    return [clip(name) if name is not None else None for name in shown]
