"""--select and --ignore: which codes a run reports, as ruff chooses them.

A code or a prefix (``HMT2``: every HMT2xx); the closer selector wins; an unknown code is
a usage error (exit 2) naming the option; the selection is made before the cap on
diagnostics, so what is not selected is not counted as "not shown" either.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from tests.conftest import RunJson

#: Two test cases of the same name (HMT201), a literal like a matcher (HMT204), and an
#: integer written as YAML 1.1 reads it (HMT206) -- three warnings.
WARNINGS = """\
test_cases:
  - name: same
    input: "one"
    expected_tools:
      - name: lookup
        count: 0b1
        args:
          year: {regexp: "^2009$"}
  - name: same
    input: "two"
"""


@pytest.fixture
def warnings_file(tmp_path: Path) -> Path:
    path = tmp_path / "cases.yaml"
    path.write_text(WARNINGS, encoding="utf-8")
    return path


def _codes(run_json: RunJson, *args: str) -> list[str]:
    code, document = run_json("--isolated", *args)
    assert code == 0
    return sorted(d["code"] for f in document["files"] for d in f["diagnostics"])


def test_every_code_is_reported_by_default(warnings_file: Path, run_json: RunJson) -> None:
    assert _codes(run_json, str(warnings_file)) == ["HMT201", "HMT204", "HMT206"]


def test_select_reports_only_the_codes_named(warnings_file: Path, run_json: RunJson) -> None:
    assert _codes(run_json, "--select", "HMT201,HMT206", str(warnings_file)) == [
        "HMT201",
        "HMT206",
    ]
    assert _codes(run_json, "--select", "HMT201", "--select", "HMT204", str(warnings_file)) == [
        "HMT201",
        "HMT204",
    ]


def test_a_prefix_selects_a_range_of_codes(warnings_file: Path, run_json: RunJson) -> None:
    assert _codes(run_json, "--select", "HMT20", str(warnings_file)) == [
        "HMT201",
        "HMT204",
        "HMT206",
    ]
    assert _codes(run_json, "--select", "HMT1", str(warnings_file)) == []


def test_ignore_drops_codes_and_the_closer_selector_wins(
    warnings_file: Path, run_json: RunJson
) -> None:
    assert _codes(run_json, "--ignore", "hmt204", str(warnings_file)) == ["HMT201", "HMT206"]
    assert _codes(run_json, "--select", "HMT2", "--ignore", "HMT20", str(warnings_file)) == []
    assert _codes(run_json, "--ignore", "HMT2", "--select", "HMT201", str(warnings_file)) == [
        "HMT201"
    ]


def test_an_unknown_code_is_a_usage_error_naming_the_option(
    warnings_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for option, value in [("--select", "HMT999"), ("--ignore", "E501"), ("--select", "HMT2x")]:
        assert main(["validate", option, value, str(warnings_file)]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"holodeck-mt: error: {option}: unknown code '{value}'"), error
        assert len(error.splitlines()) == 1


def test_an_ignored_error_leaves_the_file_valid(tmp_path: Path, run_json: RunJson) -> None:
    path = tmp_path / "cases.yaml"
    path.write_text('- name: a\n  input: q\n  turns: [{input: "x"}]\n', encoding="utf-8")
    code, _ = run_json("--isolated", str(path))
    assert code == 1
    code, document = run_json("--isolated", "--ignore", "HMT1", str(path))
    assert code == 0 and document["files"][0]["diagnostics"] == []


def test_what_is_not_selected_is_not_counted_by_the_cap(tmp_path: Path, run_json: RunJson) -> None:
    cases = "".join(f"  - name: c{i}\n    input: q\n    bogus: {i}\n" for i in range(10))
    path = tmp_path / "agent.yaml"
    path.write_text("test_cases:\n" + cases + "  - name: c0\n    input: q\n", encoding="utf-8")
    code, document = run_json(
        "--isolated", "--max-diagnostics", "3", "--select", "HMT201", str(path)
    )
    assert [d["code"] for d in document["files"][0]["diagnostics"]] == ["HMT201"]
    assert code == 0


def test_validate_help_documents_the_selection_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    shown = capsys.readouterr().out
    for option in ("--select", "--ignore", "--config", "--isolated", "--report-unused-ignores"):
        assert option in shown
