"""The documents explain reads: the file given and the test-cases file it names, as the
validator judged them (never read again here), with no error, so every shape is the schema's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from holodeck_mt.limits import Limits
from holodeck_mt.model import JsonPath
from holodeck_mt.pipeline import Checked
from holodeck_mt.semantics.precedence import Origin


@dataclass(frozen=True)
class Source:
    display: str
    checked: Checked
    limits: Limits

    @property
    def data(self) -> Any:
        document = self.checked.document
        return document.data if document is not None else None

    def line(self, parts: JsonPath) -> int:
        return self.checked.line(parts, self.limits)


@dataclass(frozen=True)
class Sources:
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


def _source(checked: Checked, display: str, limits: Limits) -> Source | None:
    return Source(display, checked, limits) if checked.document is not None else None


def of(checked: list[Checked], display: str, limits: Limits) -> Sources:
    """The documents the validator judged (``checked``: the file given, shown as
    ``display``, then the test-cases file it names, if it followed one)."""
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
        other = _source(followed, followed.result.path, limits) if followed else None
        inner = other.data if other is not None else None
        base: JsonPath = ("test_cases",) if isinstance(inner, dict) else ()
        return Sources(main, other, base, "test-cases")
    return Sources(main, None, (), "agent")
