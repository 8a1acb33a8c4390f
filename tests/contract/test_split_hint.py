"""More test cases than the platform runs from one agent: the message says to split them
between agents (the limit is per agent, a test-cases file counting as its agent's)."""

from __future__ import annotations

from holodeck_mt.pipeline import validate_text


def test_a_test_cases_file_over_1000_is_told_to_split_it() -> None:
    text = "".join(f"- input: ticket {i}\n" for i in range(1200))
    [diagnostic] = validate_text(text, role="test-cases-file").diagnostics
    assert (diagnostic.code, diagnostic.line, diagnostic.path) == ("HMT103", 1, "")
    assert (
        diagnostic.message == "1200 test cases, at most 1000 per agent: split them between agents"
    )
    assert diagnostic.hint == (
        "keep at most 1000 here and move the rest to another agent.yaml (inline, or in a "
        "test-cases file of its own): the platform counts an agent's test cases"
    )


def test_other_lists_keep_their_count_of_items() -> None:
    files = ", ".join(["{type: pdf, path: a.pdf}"] * 11)
    [diagnostic] = validate_text(f"test_cases:\n  - input: q\n    files: [{files}]\n").diagnostics
    assert diagnostic.message == "`files` holds 11 items; at most 10 are allowed"
    assert diagnostic.hint is None
