"""The command line as CI scripts and people use it: exit codes, text output, options."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from tests.conftest import FIXTURES, ROOT, RunJson

VALID = """\
test_cases:
  - name: convfinqa-0
    turns:
      - input: "what is the net cash from operating activities in 2009?"
        ground_truth: "206588"
      - input: "what is the difference?"
        ground_truth: "25587"
        expected_tools: ["subtract"]
"""

INVALID = """\
test_cases:
  - name: convfinqa-0
    turns:
      - input: "what is the difference?"
        ground_truth: 25587
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_exit_0_when_every_file_is_valid(tmp_path: Path, run_json: RunJson) -> None:
    code, document = run_json(str(_write(tmp_path, "agent.yaml", VALID)))
    assert code == 0
    assert document["summary"] == {
        "files": 1,
        "valid": 1,
        "invalid": 0,
        "errors": 0,
        "warnings": 0,
        "unchecked_sections": [],
        "check_unchecked_with": None,
        "unchecked_because": None,
    }
    assert document["files"][0]["stats"] == {"test_cases": 1, "turns": 2}


def test_exit_1_when_a_file_has_an_error(tmp_path: Path, run_json: RunJson) -> None:
    code, document = run_json(str(_write(tmp_path, "agent.yaml", INVALID)))
    assert code == 1
    assert document["files"][0]["valid"] is False


def test_exit_0_with_warnings_and_1_with_strict(tmp_path: Path, run_json: RunJson) -> None:
    path = str(FIXTURES / "warnings" / "ineffective-flag.yaml")
    assert run_json(path)[0] == 0
    assert run_json("--strict", path)[0] == 1


def test_exit_2_for_a_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "nope.yaml")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "nope.yaml" in err and "Traceback" not in err


def test_exit_2_for_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["validate", "--format", "yaml"])
    assert exit_.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_lsp_without_its_extra_says_what_to_install_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import holodeck_mt.lsp

    monkeypatch.setitem(sys.modules, "holodeck_mt.lsp.server", None)  # the import fails
    monkeypatch.delattr(holodeck_mt.lsp, "server", raising=False)
    assert main(["lsp"]) == 2
    assert capsys.readouterr() == (
        "",
        "holodeck-mt: error: the language server needs holodeck_mt.lsp.server: "
        "pip install 'holodeck-mt[lsp]'\n",
    )


@pytest.mark.slow
def test_version_prints_the_version_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    from holodeck_mt import __version__

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr() == (f"holodeck-mt {__version__}\n", "")
    completed = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "--version"], capture_output=True, text=True
    )
    assert (completed.returncode, completed.stdout) == (0, f"holodeck-mt {__version__}\n")


def test_exit_2_when_one_of_several_paths_is_missing(tmp_path: Path, run_json: RunJson) -> None:
    good = str(_write(tmp_path, "agent.yaml", VALID))
    code, document = run_json(good, str(tmp_path / "missing.yaml"))
    assert code == 2
    assert document["summary"]["files"] == 1


def test_folder_is_searched_for_agent_files(tmp_path: Path, run_json: RunJson) -> None:
    _write(tmp_path, "a/agent.yaml", VALID)
    _write(tmp_path, "b/c/agent.yml", INVALID)
    _write(tmp_path, "b/notes.yaml", "not: [an, agent]")
    _write(tmp_path, "node_modules/x/agent.yaml", INVALID)
    code, document = run_json(str(tmp_path))
    assert code == 1
    paths = sorted(Path(f["path"]).relative_to(tmp_path).as_posix() for f in document["files"])
    assert paths == ["a/agent.yaml", "b/c/agent.yml"]


def test_folder_without_any_holodeck_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(tmp_path)]) == 2
    (tmp_path / "ci.yaml").write_text("on: push\njobs: {}\n", encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no agent.yaml, agent.yml or YAML file holding test cases found under" in err


def test_default_path_is_agent_yaml_in_the_current_folder(
    tmp_path: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, "agent.yaml", INVALID)
    monkeypatch.chdir(tmp_path)
    code, document = run_json()
    assert code == 1
    assert document["files"][0]["path"] == "agent.yaml"


def test_referenced_test_cases_file_is_reported_with_its_own_path(
    tmp_path: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, "agent.yaml", "name: a\ntest_cases_file: data/cases.yaml\n")
    _write(tmp_path, "data/cases.yaml", "- name: x\n  input: 5\n")
    monkeypatch.chdir(tmp_path)
    code, document = run_json("agent.yaml")
    assert code == 1
    assert [f["path"] for f in document["files"]] == [
        "agent.yaml",
        os.path.join("data", "cases.yaml"),
    ]
    (diagnostic,) = document["files"][1]["diagnostics"]
    assert (diagnostic["code"], diagnostic["path"], diagnostic["line"]) == ("HMT102", "input", 2)


def test_test_cases_and_test_cases_file_together_is_an_error(
    tmp_path: Path, run_json: RunJson
) -> None:
    path = _write(
        tmp_path, "agent.yaml", "test_cases:\n  - input: hi\ntest_cases_file: cases.yaml\n"
    )
    code, document = run_json(str(path))
    assert code == 1
    (d,) = document["files"][0]["diagnostics"]
    assert (d["code"], d["path"], d["line"], d["column"]) == ("HMT110", "test_cases_file", 3, 1)


def test_text_output_names_file_line_test_case_path_and_points_at_the_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, "agent.yaml", INVALID)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["validate", "agent.yaml"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "agent.yaml:5:23: error[HMT102] test case 'convfinqa-0' (#0) turns[0].ground_truth: "
        "`ground_truth` must be a string, got integer 25587"
    )
    assert lines[1] == "    5 |         ground_truth: 25587"
    assert lines[2] == "      |                       ^~~~~"
    assert lines[3] == '  hint: quote it: ground_truth: "25587"'
    assert lines[-1] == "Found 1 error and 0 warnings in 1 of 1 file."
    assert "\x1b[" not in "\n".join(lines)  # not a terminal: no colour


def test_text_output_names_an_unnamed_test_case_by_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "agent.yaml", "test_cases:\n  - input: a\n  - turns: []\n")
    main(["validate", str(path)])
    assert "error[HMT105] test case #1 turns: `turns` must not be empty" in capsys.readouterr().out


def test_no_colour_when_no_color_is_set_even_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from holodeck_mt.render.text import use_colour

    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert use_colour(Terminal())  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Terminal())  # type: ignore[arg-type]


@pytest.mark.slow
def test_module_entry_point_runs_without_traceback(tmp_path: Path) -> None:
    path = _write(tmp_path, "agent.yaml", INVALID)
    done = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "validate", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1
    assert "error[HMT102]" in done.stdout
    assert "Traceback" not in done.stderr


def test_grader_modules_are_not_imported_without_the_option(
    tmp_path: Path, run_json: RunJson
) -> None:
    marker = tmp_path / "imported"
    _write(tmp_path, "evil_grader.py", f"open({str(marker)!r}, 'w').close()\ndef g(): pass\n")
    path = _write(
        tmp_path,
        "agent.yaml",
        "test_cases:\n  - input: x\n    evaluations:\n      - grader: 'evil_grader:g'\n",
    )
    assert run_json(str(path))[0] == 0
    assert not marker.exists()
    assert run_json("--import-graders", str(path))[0] == 0
    assert marker.exists()


@pytest.mark.slow
def test_validating_to_standard_output_imports_no_front_end_and_no_file_writer(
    tmp_path: Path,
) -> None:
    """Start-up is a benchmarked target (docs/performance.md): a plain run imports what it
    uses, not the report-file writer (tempfile, hashlib) nor another command's modules."""
    (tmp_path / "cases.yaml").write_text("test_cases:\n  - name: a\n    input: hi\n")
    probe = (
        "import sys\n"
        "from holodeck_mt.app.cli import main\n"
        f"code = main(['validate', {str(tmp_path / 'cases.yaml')!r}, '--no-cache'])\n"
        "print(code, *sorted(m for m in sys.modules if m in WATCHED), file=sys.stderr)\n"
    )
    watched = [
        "tempfile",
        "holodeck_mt.project.writes",
        "holodeck_mt.explain",
        "holodeck_mt.fix",
        "holodeck_mt.lsp",
        "holodeck_mt.app.editor_setup",
    ]
    done = subprocess.run(
        [sys.executable, "-c", f"WATCHED = {watched!r}\n{probe}"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.stderr.strip() == "0", done.stderr
