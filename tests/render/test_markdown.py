"""``--format markdown``: the step summary's report, as GitHub would render it."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.render import markdown


def _run(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    (tmp_path / "cases.yaml").write_text(text, encoding="utf-8")
    code = main(
        ["validate", "--no-cache", "--format", "markdown", *args, str(tmp_path / "cases.yaml")]
    )
    out = capsys.readouterr().out
    assert code in (0, 1)
    return out


def _faulty(count: int, field: str = "turns: 3") -> str:
    return "test_cases:\n" + "".join(f"  - name: t{i}\n    {field}\n" for i in range(count))


def test_a_clean_file_says_passed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(tmp_path, "test_cases:\n  - input: hi\n", capsys)
    assert out.splitlines()[0] == "### holodeck-mt: passed"
    assert "All 1 file valid." in out
    assert "|" not in out


def test_each_fault_is_a_row_with_its_place_code_test_case_and_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(tmp_path, _faulty(2), capsys)
    assert out.splitlines()[0] == "### holodeck-mt: failed"
    rows = [line for line in out.splitlines() if line.startswith("| ") and "cases.yaml" in line]
    assert len(rows) == 2
    assert (
        "cases.yaml\\:3\\:12 | error | HMT102 wrong-type | test case 't0' (\\#0), turns" in rows[0]
    )
    assert "GitHub shows" not in out


def test_past_ten_errors_a_line_says_github_shows_only_ten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(tmp_path, _faulty(12), capsys)
    assert "GitHub shows the first 10 errors and 10 warnings of a step as annotations: " in out
    assert "this run has 12 errors, all in the job's log." in out


def test_past_the_table_the_rest_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(tmp_path, _faulty(markdown.MAX_ROWS + 7), capsys)
    rows = [line for line in out.splitlines() if line.startswith("| ") and "cases.yaml" in line]
    assert len(rows) == markdown.MAX_ROWS
    assert "7 more not listed here." in out


@pytest.mark.parametrize(
    "name",
    [
        "a | b",
        "<img src=x onerror=alert(1)>",
        "@octocat",
        "[x](https://evil.example)",
        "`code`",
        "*bold*",
    ],
)
def test_text_from_the_file_cannot_make_markup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    quoted = name.replace("'", "''")
    out = _run(tmp_path, f"test_cases:\n  - name: '{quoted}'\n    turns: 3\n", capsys)
    (row,) = [line for line in out.splitlines() if line.startswith("| ") and "HMT" in line]
    assert row.count(" | ") == 4  # five cells, whatever the name holds
    for mark in "|<>@[]`*":
        assert f"\\{mark}" in row or mark not in name


def test_control_characters_are_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(tmp_path, 'test_cases:\n  - name: "a\\x1b[31mb"\n    turns: 3\n', capsys)
    assert "\x1b" not in out
