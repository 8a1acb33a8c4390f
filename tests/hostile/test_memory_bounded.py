"""Memory follows the input, not the number of faults times the size of a value."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from holodeck_mt.model import FileResult
from holodeck_mt.pipeline import validate_text


def _validated_with_peak(text: str) -> tuple[FileResult, int]:
    """The text's result, and the most memory Python held while validating it."""
    tracemalloc.start()
    try:
        result = validate_text(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def test_errors_on_a_long_aliased_value_do_not_copy_it_into_messages() -> None:
    big = "v" * 200_000
    tools = "".join("      - *big\n" for _ in range(300))
    text = (
        "test_cases:\n  - input: hi\n    expected_tools:\n"
        f"      - &big {{name: 1, args: {big}}}\n" + tools
    )
    result, peak = _validated_with_peak(text)
    assert result.diagnostics
    # The document is 200 KB; 300 errors each quoting it would be 60 MB and more.
    assert peak < 30_000_000, peak


def test_the_checks_keep_no_list_of_a_walk_past_the_most_kept_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file of millions of test cases is walked again by each check, never held."""
    from holodeck_mt import layout
    from holodeck_mt import rules as checks

    data = [{"input": "q", "expected_tools": [{"name": "t", "args": {"a": i}}]} for i in range(5)]
    everything = list(layout.arg_values(data))
    small = checks.Context(data=data, base_dir=Path("."))
    assert list(small.walk(layout.arg_values)) == everything
    assert "walked:arg_values" in small.cache  # shared by the next check

    monkeypatch.setattr(checks, "MOST_KEPT", 3)
    large = checks.Context(data=data, base_dir=Path("."))
    found = large.walk(layout.arg_values)
    assert not isinstance(found, list)
    assert list(found) == everything
    assert large.cache == {}


def test_a_file_of_single_number_test_cases_validates_within_memory() -> None:
    result, peak = _validated_with_peak("- 1\n" * 200_000)
    assert result.diagnostics
    # The positions of 200,000 items and their faults' capped diagnostics (35 MB), no
    # list of every test case beside them (60 MB).
    assert peak < 50_000_000, peak


def test_a_list_of_too_many_test_cases_is_not_copied_into_its_message() -> None:
    text = f"test_cases:\n  - input: &v {'v' * 100_000}\n" + "  - input: *v\n" * 1000
    result, peak = _validated_with_peak(text)
    assert [(d.code, d.line, d.path) for d in result.diagnostics] == [("HMT103", 2, "test_cases")]
    # The list worded whole would be 100 MB.
    assert peak < 30_000_000, peak
