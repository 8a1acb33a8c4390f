"""A diagnostic spans the offending key or value: ``end_line``/``end_column`` in the record.

The range starts where the loader locates the fault and ends just after the node's last
character (1-based, end exclusive), so editors underline the whole key or value.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_mt import validate_text
from tests.conftest import RunJson


def _spans(text: str) -> list[tuple[str, str]]:
    """(code, the text each diagnostic covers) for a single-line range, else '<lines a-b>'."""
    lines = text.splitlines()
    out = []
    for d in validate_text(text).diagnostics:
        assert d.end_line is not None and d.end_column is not None
        if d.end_line == d.line:
            out.append((d.code, lines[d.line - 1][d.column - 1 : d.end_column - 1]))
        else:
            out.append((d.code, f"<lines {d.line}-{d.end_line}>"))
    return out


def test_a_wrong_value_spans_the_value_as_written() -> None:
    text = 'test_cases:\n  - input: "q"\n    ground_truth: 206588.10  # total\n'
    assert _spans(text) == [("HMT102", "206588.10")]


def test_a_quoted_value_spans_its_quotes() -> None:
    text = 'test_cases:\n  - input: "q"\n    ground_truth: "a"\n    evaluations: "x y"\n'
    assert _spans(text) == [("HMT102", '"x y"')]


def test_an_unknown_key_spans_the_key_not_its_mapping() -> None:
    text = "test_cases:\n  - ground_truht: a\n    input: q\n"
    assert _spans(text) == [("HMT100", "ground_truht")]


def test_a_flow_mapping_value_spans_its_braces() -> None:
    text = (
        "test_cases:\n  - input: q\n    expected_tools:\n      - name: t\n"
        '        args: { a: { fuzzy: "1", regex: "1" } }\n'
    )
    assert _spans(text) == [("HMT106", '{ fuzzy: "1", regex: "1" }')]


def test_a_missing_key_spans_the_whole_mapping() -> None:
    text = "test_cases:\n  - input: q\n    files:\n      - type: pdf\n        description: d\n"
    assert _spans(text) == [("HMT107", "<lines 4-5>")]


def test_a_syntax_error_spans_the_token_written_at_its_position() -> None:
    text = "test_cases:\n  - input: [q\n"
    assert _spans(text) == [("HMT001", "[q")]


def test_the_json_record_carries_the_end(tmp_path: Path, run_json: RunJson) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text("- input: q\n  ground_truth: 25587\n", encoding="utf-8")
    code, document = run_json(str(path))
    [d] = document["files"][0]["diagnostics"]
    fields: dict[str, Any] = {k: d[k] for k in ("line", "column", "end_line", "end_column")}
    assert code == 1 and document["version"] == 1
    assert fields == {"line": 2, "column": 17, "end_line": 2, "end_column": 22}


def test_columns_count_characters_not_bytes() -> None:
    text = 'test_cases:\n  - input: "é"\n    expected_tools: ["ünï😀", 12]\n'
    assert _spans(text) == [("HMT102", "12")]
