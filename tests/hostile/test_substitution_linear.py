"""Substituting ``${NAME}`` references and placing diagnostics back is linear work.

A comment of thousands of references and a file of as many faults made placing each
fault search every reference (a quadratic step: 50,000 references and 1,000 faults
took seconds). Work is counted, never timed, as in ``tests/test_linear_work.py``:
the calls made while validating, and the lines run in the modules that substitute,
place and hide values (a loop over every reference for every fault runs its line
once per reference, where a call count alone would not see it). Each shape is
validated at 1x, 2x and 4x its size.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from holodeck_mt import pipeline
from holodeck_mt.limits import Limits
from holodeck_mt.locate import provenance as substituted
from holodeck_mt.read import substitution

pytestmark = pytest.mark.slow  # a traced validation of files of thousands of references

#: Doubling the input may cost this much more than doubling the work.
SLACK = 1.2
#: The modules whose every line run is counted.
WATCHED = {substitution.__file__, substituted.__file__, pipeline.__file__}
REFERENCES, FAULTS = 5_000, 100


@pytest.fixture(autouse=True)
def _variables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HMT_SET", "a-value-long-enough-to-hide")
    monkeypatch.delenv("HMT_UNSET", raising=False)


def _document(k: int, reference: str) -> str:
    comment = "# " + reference * (REFERENCES * k) + "\n"
    cases = "".join(
        f"  - name: c{i}\n    input: ${{HMT_SET}}\n    turns: 2\n" for i in range(FAULTS * k)
    )
    head = "name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: hi}\n"
    return head + comment + "test_cases:\n" + cases


def _work(text: str) -> tuple[int, int, int]:
    """(calls, lines run in the watched modules, diagnostics) of one validation."""
    counts = [0, 0]

    def lines(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            counts[1] += 1
        return lines

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        counts[0] += 1
        return lines if frame.f_code.co_filename in WATCHED else None

    sys.settrace(calls)
    try:
        result = pipeline.validate_text(text, path="agent.yaml", limits=Limits(max_diagnostics=0))
    finally:
        sys.settrace(None)
    return counts[0], counts[1], len(result.diagnostics)


@pytest.mark.parametrize("reference", ["${HMT_SET}", "${HMT_UNSET}"], ids=["set", "unset"])
def test_substitution_work_grows_linearly_with_references_and_faults(reference: str) -> None:
    pipeline.validate_text(_document(1, reference)[:2000], path="warm-up.yaml")  # imports
    runs = [_work(_document(k, reference)) for k in (1, 2, 4)]
    (calls1, lines1, found1), (calls2, lines2, found2), (calls4, lines4, found4) = runs
    # Each test case's turns and input are errors; an unset variable adds its one warning.
    extra = 1 if reference == "${HMT_UNSET}" else 0
    assert (found1, found2, found4) == tuple(2 * FAULTS * k + extra for k in (1, 2, 4))
    assert calls2 <= 2 * SLACK * calls1, f"calls {calls1} -> {calls2} at 2x"
    assert calls4 <= 4 * SLACK * calls1, f"calls {calls1} -> {calls4} at 4x"
    assert lines2 <= 2 * SLACK * lines1, f"lines {lines1} -> {lines2} at 2x"
    assert lines4 <= 4 * SLACK * lines1, f"lines {lines1} -> {lines4} at 4x"
