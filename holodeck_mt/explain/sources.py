"""The documents explain reads: the file given, and the test-cases file it names.

Only called once the validator found no error in either, so every shape is the
schema's and the followed path is one the validator already accepted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_mt.limits import Limits
from holodeck_mt.model import JsonPath
from holodeck_mt.read import loader
from holodeck_mt.read.files import read_text
from holodeck_mt.semantics.precedence import Origin


@dataclass(frozen=True)
class Source:
    """One loaded document, the path shown for it, and the positions of its nodes."""

    display: str
    document: loader.Document

    @property
    def data(self) -> Any:
        return self.document.data

    def line(self, parts: JsonPath) -> int:
        positions = self.document.positions
        if positions is None:
            return 1
        return positions.value(self.data, parts)[0]


@dataclass(frozen=True)
class Sources:
    """The agent (None for a bare test-cases file) and where the test cases are."""

    agent: Source | None
    cases: Source | None
    cases_base: JsonPath
    cases_origin: Origin

    def of(self, origin: Origin) -> Source | None:
        return self.agent if origin == "agent" else self.cases

    def case_list(self) -> list[Any]:
        if self.cases is None:
            return []
        data = self.cases.data
        for part in self.cases_base:
            data = data[part]
        return data if isinstance(data, list) else []


def _load(path: Path, display: str, limits: Limits) -> Source | None:
    text, _ = read_text(path, limits)
    if text is None:
        return None
    document = loader.load(text, limits=limits)
    return Source(display, document) if document.loaded else None


def load(path: Path, display: str, followed: str | None, limits: Limits) -> Sources:
    """The documents of ``path``; ``followed`` is the display path of its test-cases file."""
    main = _load(path, display, limits)
    data = main.data if main is not None else None
    if isinstance(data, list):
        return Sources(None, main, (), "test-cases")
    if not isinstance(data, dict):
        return Sources(None, None, (), "agent")
    if isinstance(data.get("test_cases"), list):
        return Sources(main, main, ("test_cases",), "agent")
    target = data.get("test_cases_file")
    if isinstance(target, str) and target:
        shown = followed or os.path.normpath(os.path.join(os.path.dirname(display), target))
        other = _load(path.parent / target, shown, limits)
        inner = other.data if other is not None else None
        base: JsonPath = ("test_cases",) if isinstance(inner, dict) else ()
        return Sources(main, other, base, "test-cases")
    return Sources(main, None, (), "agent")
