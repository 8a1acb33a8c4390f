"""Inline suppressions: ``# holodeck-mt: ignore[CODE]`` on a line, ``ignore-file[CODE]`` in
a file, the bare forms for every code, and ``--report-unused-ignores`` (HMT221)."""

from __future__ import annotations

from pathlib import Path

from holodeck_mt.locate.suppressions import MOST_SUPPRESSIONS, Screen, read
from holodeck_mt.pipeline import validate_text
from holodeck_mt.selection import Options
from tests.app.test_selection import WARNINGS
from tests.conftest import RunJson


def _found(run_json: RunJson, text: str, tmp_path: Path, *args: str) -> list[tuple[str, int]]:
    path = tmp_path / "cases.yaml"
    path.write_text(text, encoding="utf-8")
    code, document = run_json("--isolated", *args, str(path))
    assert code in (0, 1)
    return sorted((d["code"], d["line"]) for f in document["files"] for d in f["diagnostics"])


def test_a_line_suppression_silences_its_codes_on_its_line_only(
    tmp_path: Path, run_json: RunJson
) -> None:
    text = WARNINGS.replace(
        '  - name: same\n    input: "two"',
        '  - name: same # holodeck-mt: ignore[HMT201]\n    input: "two"',
    )
    assert _found(run_json, text, tmp_path) == [("HMT204", 8), ("HMT206", 6)]
    text = WARNINGS.replace("count: 0b1", "count: 0b1  # holodeck-mt: ignore[HMT204]")
    assert _found(run_json, text, tmp_path) == [("HMT201", 9), ("HMT204", 8), ("HMT206", 6)]


def test_a_bare_line_suppression_silences_every_code_on_its_line(
    tmp_path: Path, run_json: RunJson
) -> None:
    text = WARNINGS.replace(
        'year: {regexp: "^2009$"}', 'year: {regexp: "^2009$"}  #holodeck-mt: ignore'
    )
    assert _found(run_json, text, tmp_path) == [("HMT201", 9), ("HMT206", 6)]


def test_a_file_suppression_silences_its_codes_anywhere(tmp_path: Path, run_json: RunJson) -> None:
    text = "# holodeck-mt: ignore-file[HMT201, hmt20]\n" + WARNINGS
    assert _found(run_json, text, tmp_path) == []
    text = "# holodeck-mt: ignore-file[HMT206]\n" + WARNINGS
    assert _found(run_json, text, tmp_path) == [("HMT201", 10), ("HMT204", 9)]


def test_a_yaml_syntax_error_is_silenced_only_by_a_file_suppression(
    tmp_path: Path, run_json: RunJson
) -> None:
    broken = "test_cases:\n  - name: [unclosed  # holodeck-mt: ignore[HMT001]\n"
    assert [c for c, _ in _found(run_json, broken, tmp_path)] == ["HMT001"]
    broken = "# holodeck-mt: ignore-file[HMT001]\ntest_cases:\n  - name: [unclosed\n"
    assert _found(run_json, broken, tmp_path) == []


def test_unused_suppressions_are_reported_only_when_asked(
    tmp_path: Path, run_json: RunJson
) -> None:
    text = WARNINGS.replace("count: 0b1", "count: 0b1  # holodeck-mt: ignore[HMT206, HMT201]")
    assert _found(run_json, text, tmp_path) == [("HMT201", 9), ("HMT204", 8)]
    path = tmp_path / "cases.yaml"
    code, document = run_json("--isolated", "--report-unused-ignores", str(path))
    (unused,) = [d for d in document["files"][0]["diagnostics"] if d["code"] == "HMT221"]
    assert (code, unused["line"], unused["severity"]) == (0, 6, "warning")
    assert unused["message"] == "`ignore[HMT201]` silences no HMT201 diagnostic on this line"
    code, _ = run_json("--isolated", "--report-unused-ignores", "--strict", str(path))
    assert code == 1


def test_a_clean_file_reads_no_suppression() -> None:
    """The common case pays one substring search: no screen, no scan."""
    clean = "test_cases:\n  - name: a\n    input: q  # a comment\n"
    assert Screen.of(clean, "cases.yaml", Options()) is None
    assert read(clean) == []
    assert validate_text(clean).diagnostics == []


def test_the_suppressions_read_from_one_file_are_bounded() -> None:
    text = "# holodeck-mt: ignore[HMT201]\n" * (MOST_SUPPRESSIONS + 50)
    found = read(text)
    assert len(found) == MOST_SUPPRESSIONS
    assert (found[-1].line, found[-1].column) == (MOST_SUPPRESSIONS, 1)


def test_lines_are_counted_as_the_diagnostics_count_them() -> None:
    text = "a: 1\r\nb: 2\rc: 3\u2028d: 4  # holodeck-mt: ignore[HMT2]\n"
    (found,) = read(text)
    assert (found.line, found.column, found.codes) == (4, 7, ("HMT2",))
