"""Memory follows the input, not the number of faults times the size of a value."""

from __future__ import annotations

import tracemalloc

from holodeck_mt.validate import validate_text


def test_errors_on_a_long_aliased_value_do_not_copy_it_into_messages() -> None:
    big = "v" * 200_000
    tools = "".join("      - *big\n" for _ in range(300))
    text = (
        "test_cases:\n  - input: hi\n    expected_tools:\n"
        f"      - &big {{name: 1, args: {big}}}\n" + tools
    )
    tracemalloc.start()
    try:
        result = validate_text(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.diagnostics
    # The document is 200 KB; 300 errors each quoting it would be 60 MB and more.
    assert peak < 30_000_000, peak
