"""Property: on documents with fixable faults, fix leaves no diagnostic and changes nothing else.

A valid document (tests/strategies.py) gets faults whose fixes are known: an unquoted
number where a string goes, a quoted number where a number goes, a flag with no effect, a
misspelt key, a bare tool name listed twice. After ``fix --unsafe-fixes`` the file has no
error and no fixable diagnostic, and its loaded data equals the original document with
exactly the fixes' changes.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holodeck_mt import layout, validate_text
from holodeck_mt.fix import engine as fixes
from holodeck_mt.read import loader
from tests import strategies

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow

FAULTS = ("quote", "unquote", "flag", "rename", "repeat")


@st.composite
def faulty(draw: st.DrawFn) -> tuple[str, Any]:
    """(YAML text with faults, the data its fixes must give)."""
    document = draw(strategies.documents())
    broken, expected = copy.deepcopy(document), copy.deepcopy(document)
    broken_scopes = [scope for _, _, scope in layout.scopes(broken)]
    expected_scopes = [scope for _, _, scope in layout.scopes(expected)]
    chosen = draw(st.lists(st.sampled_from(FAULTS), min_size=1, max_size=5, unique=True))
    where = draw(st.integers(0, len(broken_scopes) - 1))
    scope, wanted = broken_scopes[where], expected_scopes[where]
    if "quote" in chosen:
        number = draw(st.integers(0, 10**9))
        scope["ground_truth"], wanted["ground_truth"] = number, str(number)
    if "rename" in chosen:
        if "ground_truth" not in scope:
            scope["ground_truth"] = wanted["ground_truth"] = "probe"
        _rename(scope, "ground_truth", "ground_truht")
    if "unquote" in chosen:
        metric = {"type": "standard", "metric": "numeric", "threshold": "0.5"}
        scope.setdefault("evaluations", []).append(metric)
        wanted.setdefault("evaluations", []).append({**metric, "threshold": 0.5})
    if "flag" in chosen:
        metric = {"type": "standard", "metric": "equality"}
        scope.setdefault("evaluations", []).append({**metric, "absolute_tolerance": 0.5})
        wanted.setdefault("evaluations", []).append(metric)
    if "repeat" in chosen:
        tools = [t for t in scope.get("expected_tools", []) if isinstance(t, str)]
        if not tools:  # a name the strategy never draws (it has a digit)
            tools = ["probe9"]
            scope.setdefault("expected_tools", []).append("probe9")
            wanted.setdefault("expected_tools", []).append("probe9")
        name = draw(st.sampled_from(tools))
        scope["expected_tools"].append(name)
        at = wanted["expected_tools"].index(name)
        wanted["expected_tools"][at] = {"name": name, "count": 2}
    return strategies.emit(broken).text, expected


def _rename(mapping: dict[str, Any], old: str, new: str) -> None:
    items = [(new if k == old else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)


def _diagnose(text: str) -> list[Any]:
    return validate_text(text).diagnostics


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faulty())
def test_fix_leaves_no_fixable_diagnostic_and_changes_nothing_else(case: tuple[str, Any]) -> None:
    text, expected = case
    assert any(d.fix is not None for d in _diagnose(text))
    outcome = fixes.fix_all(text, _diagnose, unsafe=True)
    after = _diagnose(outcome.text)
    assert [d for d in after if d.fix is not None or d.severity == "error"] == []
    assert loader.load(outcome.text).data == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faulty())
def test_safe_fixes_leave_only_unsafe_ones(case: tuple[str, Any]) -> None:
    text, _ = case
    outcome = fixes.fix_all(text, _diagnose)
    left = fixes.fixes(outcome.text, _diagnose(outcome.text))
    assert all(not f.safe for f in left)
    assert {f.edits for f in left} == {f.edits for f in outcome.unsafe_left}
