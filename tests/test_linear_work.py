"""No quadratic step: twice the file is at most about twice the work.

Work is counted, never timed: the calls the profiler sees (every Python function and
builtin called while validating) and the characters handed to the functions that
turn an offset into a line and a column (a count of line breaks from the start of the
text for each of many nodes is the classic quadratic step, and is one call each).
Each file shape is validated at 1x, 2x and 4x its size.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from holodeck_mt import pipeline
from holodeck_mt.text import positions

pytestmark = pytest.mark.slow  # a profiled validation of files of thousands of test cases

#: Doubling the input may cost this much more than doubling the work (fixed costs
#: make a real run's ratio smaller than 2; a quadratic step makes it near 4).
SLACK = 1.2


def _case(i: int, kind: str) -> str:
    truth = f"'{i * 7}'"
    lines = [
        f"  - name: case-{i}",
        "    turns:",
        "      - input: |",
        f"          Filing excerpt {i}:",
        "          | year | revenue |",
        f"          | 2019 | {i} |",
        "",
        f"          What was the revenue in {2000 + i % 20}?",
        f"        ground_truth: {truth}",
        "      - input: and the year before?",
    ]
    if kind == "warnings":  # no ground truth under an agent-level numeric: HMT304
        lines.append("        expected_tools: [subtract, subtract]")
    else:
        lines.append(f"        ground_truth: '{i}'")
    if kind == "one error" and i == 3:
        lines.append("        ground_truht: '1'")
    return "\n".join(lines)


def _document(cases: int, kind: str) -> str:
    head = [
        "name: bench",
        "model: {provider: openai, name: gpt-4o}",
        "instructions: {inline: Answer from the filings.}",
        "evaluations:",
        "  metrics:",
        "    - type: standard",
        "      metric: numeric",
        "      relative_tolerance: 0.01",
        "test_cases:",
    ]
    body = [_case(i, kind) for i in range(cases)]
    return "\n".join([*head, *body, "execution: {parallel_test_cases: 2}", ""])


#: Each shape and its 1x size in test cases (over the limit: above 1,000 at 1x already).
SHAPES = {
    "valid": 150,
    "one error": 150,
    "many warnings": 150,
    "over the test-case limit": 1100,
}


def _kind(shape: str) -> str:
    return {"many warnings": "warnings", "one error": "one error"}.get(shape, "valid")


def _scanning_counted(counter: list[int]) -> Iterator[tuple[Any, str, Callable[..., Any]]]:
    """Every reference in the package to the offset-to-position functions, and a
    counting stand-in for each."""
    plain, after = positions.line_column, positions.line_column_after

    def counted_plain(text: str, offset: int) -> tuple[int, int]:
        counter[0] += offset
        return plain(text, offset)

    def counted_after(text: str, anchor: int, at: tuple[int, int], offset: int) -> Any:
        counter[0] += offset - anchor
        return after(text, anchor, at, offset)

    stand_ins = (("line_column", counted_plain), ("line_column_after", counted_after))
    for name, module in list(sys.modules.items()):
        if not name.startswith("holodeck_mt"):
            continue
        for attr, stand_in in stand_ins:
            if getattr(module, attr, None) in (plain, after):
                yield module, attr, stand_in


def _work(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, list[str]]:
    """(calls, characters scanned for positions, diagnostic codes) of one validation."""
    scanned = [0]
    with monkeypatch.context() as patch:
        for module, attr, stand_in in _scanning_counted(scanned):
            patch.setattr(module, attr, stand_in)
        profile = cProfile.Profile()
        result = profile.runcall(pipeline.validate_text, text, path="agent.yaml")
    calls = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
    return calls, scanned[0], sorted({d.code for d in result.diagnostics})


@pytest.mark.parametrize("shape", list(SHAPES))
def test_validation_work_grows_linearly_with_the_file(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = SHAPES[shape]
    pipeline.validate_text(_document(base, _kind(shape)), path="warm-up.yaml")  # imports
    runs = [_work(_document(base * k, _kind(shape)), monkeypatch) for k in (1, 2, 4)]
    codes = runs[0][2]
    expected = {
        "valid": [],
        "one error": ["HMT100"],
        "many warnings": ["HMT203", "HMT304"],
        "over the test-case limit": ["HMT103"],
    }[shape]
    assert codes == expected, f"{shape}: the file draws {codes}"
    (calls1, scan1, _), (calls2, scan2, _), (calls4, scan4, _) = runs
    assert calls2 <= 2 * SLACK * calls1, f"{shape}: calls {calls1} -> {calls2} at 2x"
    assert calls4 <= 4 * SLACK * calls1, f"{shape}: calls {calls1} -> {calls4} at 4x"
    size1 = len(_document(base, _kind(shape)))
    # Characters read to place nodes: at most a few passes over the text, at any size.
    for k, scanned in ((1, scan1), (2, scan2), (4, scan4)):
        assert scanned <= 3 * k * size1, f"{shape}: {scanned:,} characters scanned at {k}x"
