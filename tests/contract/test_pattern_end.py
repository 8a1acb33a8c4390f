"""A schema pattern's `$` is the end of the text, as editors and the platform read it.

ECMA-262 (editors), the Rust engines (jsonschema-rs; pydantic's ``Field(pattern=...)``,
which the platform's `grader` is checked with) end `$` at the end of the text; Python's
``re`` also before a final newline. The Python validator reads it the others' way.
"""

from __future__ import annotations

import pytest

from holodeck_mt import validate_text
from holodeck_mt.contract.keywords import _ending_at_end


@pytest.mark.parametrize(
    ("regex", "text", "matches"),
    [
        ("^a$", "a", True),
        ("^a$", "a\n", False),
        ("^a\\n?$", "a\n", True),
        ("^a[$]", "a$", True),
        ("^a\\$", "a$", True),
        ("^[\\]$]+$", "]$", True),
        ("^(?!(?:input)$)", "input\n", True),
        ("^(?!(?:input)$)", "input", False),
    ],
)
def test_a_dollar_anchor_is_the_end_of_the_text(regex: str, text: str, matches: bool) -> None:
    assert (_ending_at_end(regex).search(text) is not None) is matches


def _errors(metric: str) -> list[tuple[str, str, int]]:
    head = "test_cases:\n  - name: t\n    input: hi\n    ground_truth: x\n"
    text = f"{head}    evaluations:\n{metric}"
    return [(d.code, d.path, d.line) for d in validate_text(text).diagnostics]


@pytest.mark.parametrize("engine", ["python", "auto"])
def test_a_grader_ending_in_a_line_break_is_refused(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOLODECK_MT_ENGINE", engine)
    block = "      - type: code\n        grader: |\n          graders.fin:score\n"
    assert _errors(block) == [("HMT103", "evaluations[0].grader", 7)]
    assert _errors('      - type: code\n        grader: "graders.fin:score"\n') == []


@pytest.mark.parametrize("engine", ["python", "auto"])
@pytest.mark.parametrize(
    ("path", "loads"),
    [
        ('"items[\\u0663].score"', True),  # Arabic-Indic three: the platform's `\d`
        ('"items[\\U0001D7D8]"', True),
        ('"answer\\n"', True),  # Python's `$`, which the platform's grammar uses
        ('"answer\\n\\n"', False),
        ('"\\u00e4nswer"', False),
        ('"items[x]"', False),
    ],
)
def test_a_response_path_reads_as_the_platform_grammar_does(
    engine: str, path: str, loads: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOLODECK_MT_ENGINE", engine)
    metric = f"      - type: standard\n        metric: equality\n        response_path: {path}\n"
    assert _errors(metric) == ([] if loads else [("HMT103", "evaluations[0].response_path", 8)])
