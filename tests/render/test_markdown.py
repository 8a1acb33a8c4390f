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
    (row,) = [line for line in out.splitlines() if "cases.yaml\\:" in line]
    assert row.count(" | ") == 4  # five cells, whatever the name holds
    for mark in "|<>@[]`*":
        assert f"\\{mark}" in row or mark not in name


def test_control_characters_are_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(tmp_path, 'test_cases:\n  - name: "a\\x1b[31mb"\n    turns: 3\n', capsys)
    assert "\x1b" not in out


def _table(out: str, head: str) -> list[str]:
    """The rows of the table under ``head``."""
    return out[out.index(head) :].split("\n\n")[0].splitlines()[2:]


def test_many_faults_in_several_files_are_counted_by_code_and_file_and_drawn_from_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """1,500 faults in four files: the counts are whole, and the table takes its rows from
    every file in turn, not the first 50 of the first file."""
    monkeypatch.chdir(tmp_path)
    sizes = {"a.yaml": 700, "b.yaml": 500, "c.yaml": 299}
    for name, count in sizes.items():
        (tmp_path / name).write_text(_faulty(count), encoding="utf-8")
    (tmp_path / "d.yaml").write_text("test_cases:\n  - input: hi\n    colour: 3\n", "utf-8")
    assert main(["validate", "--no-cache", "-j", "1", "--format", "markdown", "."]) == 1
    out = capsys.readouterr().out
    assert "Found 1,500 errors and 0 warnings in 4 of 4 files." in out
    assert "this run has 1,500 errors, all in the job's log." in out
    assert _table(out, "| Code | Level | Count |") == [
        "| HMT102 wrong-type | error | 1,499 |",
        "| HMT100 unknown-key | error | 1 |",
    ]
    assert _table(out, "| File | Errors | Warnings |") == [
        "| a.yaml | 700 | 0 |",
        "| b.yaml | 500 | 0 |",
        "| c.yaml | 299 | 0 |",
        "| d.yaml | 1 | 0 |",
    ]
    rows = [row.split(" | ")[0][2:] for row in _table(out, "| Where | Level |")]
    assert len(rows) == markdown.MAX_ROWS
    per_file = {name: sum(row.startswith(name) for row in rows) for name in (*sizes, "d.yaml")}
    assert per_file == {"a.yaml": 17, "b.yaml": 16, "c.yaml": 16, "d.yaml": 1}
    assert {"a.yaml\\:3\\:12", "b.yaml\\:3\\:12", "c.yaml\\:3\\:12", "d.yaml\\:3\\:5"} <= set(rows)
    assert "1,450 more not listed here." in out
