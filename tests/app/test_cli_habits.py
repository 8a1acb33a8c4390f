"""What users bring from ruff and check-jsonschema: standard input, a report file, counts by
code, the files a search takes, true totals past the cap, a closed pipe, every setting of
the configuration honoured by every command."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main

BROKEN = "test_cases:\n  - name: a\n    turns: 3\n"


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))


# --- standard input -----------------------------------------------------------------------


def test_standard_input_is_validated_as_dash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, BROKEN)
    assert main(["validate", "-"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("-:3:12: error[HMT102] test case 'a' (#0) turns: `turns` must be a list")


def test_stdin_filename_names_the_file_and_its_folder_settings_and_test_cases_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    (project / ".holodeck-mt.toml").write_text('ignore = ["HMT201"]\n', encoding="utf-8")
    (project / "data" / "cases.yaml").write_text(
        "- name: x\n  input: hi\n- name: x\n  turns: 3\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    _stdin(monkeypatch, "test_cases_file: data/cases.yaml\n")
    code = main(["validate", "-", "--stdin-filename", "project/agent.yaml", "--format", "json"])
    assert code == 1
    files = json.loads(capsys.readouterr().out)["files"]
    assert [f["path"] for f in files] == ["project/agent.yaml", "project/data/cases.yaml"]
    assert [d["code"] for d in files[1]["diagnostics"]] == ["HMT102"]  # HMT201 ignored


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["-", "agent.yaml"], "`-` (standard input) must be the only path"),
        (["--stdin-filename", "a.yaml", "agent.yaml"], "--stdin-filename goes with the path `-`"),
    ],
)
def test_standard_input_misused_is_a_usage_error(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", *args]) == 2
    assert said in capsys.readouterr().err


def test_standard_input_is_bounded(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "a: b\n" * 1000)
    assert main(["validate", "-", "--max-file-size", "1k"]) == 1
    assert "error[HMT004]" in capsys.readouterr().out


# --- the report's file -----------------------------------------------------------------------


def test_output_file_holds_the_report_and_stdout_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases.yaml").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "report.json").write_text("old", encoding="utf-8")
    code = main(["validate", "--no-cache", "--format", "json", "-o", "report.json", "cases.yaml"])
    assert code == 1
    assert capsys.readouterr().out == ""
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["errors"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.yaml", "report.json"]


def test_an_output_file_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases.yaml").write_text(BROKEN, encoding="utf-8")
    code = main(["validate", "--no-cache", "-o", "missing/report.txt", "cases.yaml"])
    assert code == 2
    assert "cannot write 'missing/report.txt'" in capsys.readouterr().err


def test_one_run_writes_each_report_as_its_format_prints_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases.yaml").write_text(BROKEN, encoding="utf-8")
    printed = {}
    for name in ("sarif", "markdown", "github"):
        assert main(["validate", "--no-cache", "--format", name, "cases.yaml"]) == 1
        printed[name] = capsys.readouterr().out
    reports = ["--report", "sarif:out/r.sarif", "--report", "markdown:summary.md"]
    (tmp_path / "out").mkdir()
    code = main(["validate", "--no-cache", "--statistics", *reports, "cases.yaml"])
    assert code == 1
    assert capsys.readouterr().out.startswith("1  HMT102  error")  # --statistics still prints
    assert (tmp_path / "out" / "r.sarif").read_text(encoding="utf-8") == printed["sarif"]
    assert (tmp_path / "summary.md").read_text(encoding="utf-8") == printed["markdown"]
    assert (
        main(
            [
                "validate",
                "--no-cache",
                "--format",
                "github",
                "-o",
                "a.txt",
                *reports[:2],
                "cases.yaml",
            ]
        )
        == 1
    )
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == printed["github"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["--report", "sarif"],
            "argument --report: not FORMAT:PATH (text|json|github|sarif|junit|markdown): 'sarif'",
        ),
        (
            ["--report", "xml:r.xml"],
            "argument --report: not FORMAT:PATH (text|json|github|sarif|junit|markdown): 'xml:",
        ),
        (
            ["--report", "sarif:r", "--report", "json:sub/../r"],
            "two reports (-o, --report) go to the same file",
        ),
        (["-o", "r", "--report", "json:r"], "two reports (-o, --report) go to the same file"),
        (["--show-files", "--report", "json:r"], "--show-files validates nothing"),
    ],
)
def test_a_report_option_that_cannot_be_followed_is_a_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases.yaml").write_text(BROKEN, encoding="utf-8")
    try:
        code = main(["validate", "--no-cache", *args, "cases.yaml"])
    except SystemExit as e:  # argparse's own errors
        code = int(str(e.code))
    assert code == 2
    assert said in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.yaml"]


# --- statistics ------------------------------------------------------------------------------


def test_statistics_count_each_code_most_frequent_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    cases = "".join(f"  - name: t{i}\n    turns: 3\n" for i in range(3))
    (tmp_path / "cases.yaml").write_text(
        "test_cases:\n" + cases + "  - name: u\n    inptu: x\n", encoding="utf-8"
    )
    assert main(["validate", "--no-cache", "--statistics", "cases.yaml"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["3  HMT102  error    wrong-type", "1  HMT100  error    unknown-key"]
    assert lines[2].startswith("Found 4 errors")
    assert main(["validate", "--no-cache", "--statistics", "--format", "json", "cases.yaml"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert rows[0] == {"code": "HMT102", "name": "wrong-type", "severity": "error", "count": 3}


def test_statistics_in_another_format_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--statistics", "--format", "sarif", "x.yaml"]) == 2
    assert "--statistics prints text or json, not sarif" in capsys.readouterr().err


# --- the files a search takes -----------------------------------------------------------------


@pytest.mark.slow
def test_show_files_lists_what_is_validated_and_what_is_passed_over_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".holodeck-mt.toml").write_text('exclude = ["old/*"]\n', encoding="utf-8")
    (tmp_path / "agent.yaml").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "compose.yaml").write_text("services: {}\n", encoding="utf-8")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "cases.yaml").write_text(BROKEN, encoding="utf-8")
    assert main(["validate", "--show-files", "."]) == 0  # validates nothing
    out = capsys.readouterr().out.splitlines()
    assert "validate  agent.yaml" in out
    assert "skip      compose.yaml  (neither an agent.yaml nor a file holding test cases)" in out
    assert any(
        line.startswith("skip      old/cases.yaml  (excluded by `exclude` in ") for line in out
    )


# --- totals past the cap ---------------------------------------------------------------------


def test_the_summary_counts_what_the_cap_did_not_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text(
        "test_cases:\n  - name: a\n    turns: 3\n    input: 4\n    ground_truth: 5\n    files: 3\n",
        encoding="utf-8",
    )
    assert main(["validate", "--no-cache", "--max-diagnostics", "1", "c.yaml"]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "Found 4 errors and 0 warnings in 1 of 1 file (1 of 4 errors shown)."


# --- a closed pipe ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["validate", "--no-cache", "cases.yaml"],
        ["validate", "--no-cache", "--format", "json", "cases.yaml"],
        ["explain", "cases.yaml"],
        ["schema"],
    ],
)
def test_a_reader_gone_ends_the_command_quietly_with_its_usual_code(
    tmp_path: Path, command: list[str]
) -> None:
    cases = "".join(f"  - name: t{i}\n    input: hi\n    turns: 3\n" for i in range(300))
    (tmp_path / "cases.yaml").write_text("test_cases:\n" + cases, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "holodeck_mt", *command],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # `| head -1`
    err = process.stderr.read().decode()
    process.stderr.close()
    code = process.wait(timeout=60)
    assert "Traceback" not in err and "Error" not in err, err
    assert code == (0 if command == ["schema"] else 1)


# --- the configuration, honoured by every command ---------------------------------------------


def _shadowed_platform(tmp_path: Path) -> dict[str, str]:
    shadow = tmp_path / "shadow" / "holodeck"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('absent')\n", encoding="utf-8")
    return {**os.environ, "PYTHONPATH": str(shadow.parent)}


@pytest.mark.slow
def test_platform_required_in_the_configuration_is_enforced(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "agent.yaml").write_text("test_cases:\n  - input: hi\n", encoding="utf-8")
    (project / ".holodeck-mt.toml").write_text('platform = "required"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "validate", "--no-cache", "agent.yaml"],
        cwd=project,
        env=_shadowed_platform(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "the platform's models do not import" in done.stderr


def test_fix_leaves_what_the_configuration_or_a_comment_silences(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    quoted = 'test_cases:\n  - name: a\n    input: hi\n    ground_truth: "5"\n'
    (tmp_path / "agent.yaml").write_text(quoted.replace('"5"', "5"), encoding="utf-8")
    (tmp_path / ".holodeck-mt.toml").write_text('ignore = ["HMT102"]\n', encoding="utf-8")
    assert main(["fix", "agent.yaml"]) == 0
    assert (tmp_path / "agent.yaml").read_text(encoding="utf-8") == quoted.replace('"5"', "5")
    assert main(["fix", "--isolated", "agent.yaml"]) == 0
    assert (tmp_path / "agent.yaml").read_text(encoding="utf-8") == quoted
    (tmp_path / ".holodeck-mt.toml").unlink()
    silenced = quoted.replace('"5"', "5  # holodeck-mt: ignore[HMT102]")
    (tmp_path / "agent.yaml").write_text(silenced, encoding="utf-8")
    assert main(["fix", "agent.yaml"]) == 0
    assert (tmp_path / "agent.yaml").read_text(encoding="utf-8") == silenced
    capsys.readouterr()
