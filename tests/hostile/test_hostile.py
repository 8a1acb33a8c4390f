"""Hostile and broken input: nothing crashes, nothing hangs, nothing runs.

Every case of :mod:`tests.hostile.cases` runs through the real CLI in its own
process, as CI runs it on a pull request's files: the exit code, each expected
diagnostic's code and line, and a stderr without a traceback. Each is named
``agent.yaml``: a named file of another name is read only if it holds test cases.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app import cli
from tests.hostile.cases import CASES, Case, alias_bomb, deep_flow

ROOT = Path(__file__).resolve().parents[2]
#: A guard against a hang taking the suite down with it; not a timing assertion.
GUARD = 120
#: No message or hint may be longer than this, whatever the input holds.
MAX_MESSAGE = 400


def run_cli(*args: str, cwd: Path) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("HOLODECK_MT_DEBUG", None)
    done = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "validate", *args, "--jobs", "1"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=GUARD,
        env=env,
    )
    return done.returncode, done.stdout, done.stderr


def diagnostics(stdout: str) -> list[dict[str, Any]]:
    document = json.loads(stdout)
    return [d for file in document["files"] for d in file["diagnostics"]]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_input_yields_located_diagnostics_and_no_traceback(
    case: Case, tmp_path: Path
) -> None:
    path = tmp_path / "agent.yaml"
    path.write_bytes(case.data())
    code, out, err = run_cli(path.name, "--format", "json", *case.options, cwd=tmp_path)
    assert "Traceback" not in err
    assert code == case.exit, (out, err)
    found = diagnostics(out)
    located = {(d["code"], d["line"]) for d in found}
    for expected in case.expect:
        assert expected in located, found
    if case.expect and case.says:
        first = next(d for d in found if (d["code"], d["line"]) == case.expect[0])
        said = first["message"] + " " + (first["hint"] or "")
        for word in case.says:
            assert word in said
    for d in found:
        assert len(d["message"]) <= MAX_MESSAGE
        assert len(d["hint"] or "") <= MAX_MESSAGE
    if case.exit == 0:
        assert not [d for d in found if d["severity"] == "error"]
        assert err == ""  # not even a warning from a library


def test_every_hostile_file_in_text_format_prints_a_located_line_and_no_traceback(
    tmp_path: Path,
) -> None:
    for case in CASES:
        if not case.options:
            (tmp_path / case.name).mkdir()
            (tmp_path / case.name / "agent.yaml").write_bytes(case.data())
    names = sorted(f"{p.name}/agent.yaml" for p in tmp_path.iterdir())
    code, out, err = run_cli(*names, cwd=tmp_path)
    assert code == 1
    assert "Traceback" not in err
    for case in CASES:
        if case.expect and not case.options:
            code_, line = case.expect[0]
            assert f"{case.name}/agent.yaml:{line}:" in out
            assert f"[{code_}]" in out


def test_python_tags_are_refused_and_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "MARKER"
    (tmp_path / "agent.yaml").write_text(
        "test_cases:\n"
        f'  - input: !!python/object/apply:os.system ["touch {marker}"]\n'
        f"  - input: !!python/object/apply:subprocess.check_call [[touch, {marker}]]\n"
        f"  - input: !!python/object/new:os.system [touch {marker}]\n"
    )
    code, out, err = run_cli("agent.yaml", "--format", "json", cwd=tmp_path)
    assert code == 1
    assert "Traceback" not in err
    assert not marker.exists()
    assert {(d["code"], d["line"]) for d in diagnostics(out)} >= {
        ("HMT003", 2),
        ("HMT003", 3),
        ("HMT003", 4),
    }


def test_grader_modules_are_imported_only_with_import_graders(tmp_path: Path) -> None:
    marker = tmp_path / "IMPORTED"
    (tmp_path / "graders.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n\ndef grade(*args):\n    return 1.0\n"
    )
    (tmp_path / "agent.yaml").write_text(
        "evaluations:\n  metrics:\n    - type: code\n      grader: graders:grade\n"
        "test_cases:\n  - input: hi\n"
    )
    code, _, err = run_cli("agent.yaml", cwd=tmp_path)
    assert (code, err) == (0, "")
    assert not marker.exists()
    code, _, err = run_cli("agent.yaml", "--import-graders", cwd=tmp_path)
    assert code == 0
    assert marker.exists()


# --- limits are options ---------------------------------------------------------


def _small_bomb() -> bytes:
    """Three levels of ten aliases: 1,110 nodes once expanded."""
    return b"a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [" + b"*a, " * 9 + b"*a]\n"


def test_alias_limit_is_an_option(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_bytes(_small_bomb())
    _, out, _ = run_cli("agent.yaml", "--format", "json", cwd=tmp_path)
    assert "HMT004" not in {d["code"] for d in diagnostics(out)}
    code, out, err = run_cli(
        "agent.yaml", "--format", "json", "--max-alias-nodes", "50", cwd=tmp_path
    )
    assert code == 1
    assert "Traceback" not in err
    assert ("HMT004", 2) in {(d["code"], d["line"]) for d in diagnostics(out)}


def test_depth_limit_is_an_option(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_bytes(deep_flow(100))
    _, out, _ = run_cli("agent.yaml", "--format", "json", cwd=tmp_path)
    assert ("HMT004", 1) in {(d["code"], d["line"]) for d in diagnostics(out)}
    code, out, err = run_cli("agent.yaml", "--format", "json", "--max-depth", "200", cwd=tmp_path)
    assert "Traceback" not in err
    assert code == 1  # a list of lists is no test case, but it is read
    assert "HMT004" not in {d["code"] for d in diagnostics(out)}


def test_size_limit_is_an_option(tmp_path: Path) -> None:
    (tmp_path / "big.yaml").write_bytes(b"test_cases:\n  - input: hi\n" + b"# pad\n" * 400)
    code, out, _ = run_cli("big.yaml", "--format", "json", "--max-file-size", "1k", cwd=tmp_path)
    assert (code, [d["code"] for d in diagnostics(out)]) == (1, ["HMT004"])
    code, out, _ = run_cli("big.yaml", "--format", "json", "--max-file-size", "1M", cwd=tmp_path)
    assert (code, diagnostics(out)) == (0, [])


def test_the_alias_bomb_fits_in_two_kilobytes() -> None:
    assert len(alias_bomb()) < 2048


# --- paths that are not files -------------------------------------------------------


def _usage_error(cwd: Path, *args: str) -> str:
    code, _, err = run_cli(*args, cwd=cwd)
    assert code == 2
    assert "Traceback" not in err
    assert err.startswith("holodeck-mt: error: ")
    return err


def test_a_folder_without_agent_yaml_is_a_clear_usage_error(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "compose.yaml").write_text("services: {web: {image: nginx}}\n")
    assert "no agent.yaml" in _usage_error(tmp_path, "folder/")


def test_a_dangling_symlink_is_a_clear_usage_error(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").symlink_to(tmp_path / "nowhere.yaml")
    assert "cannot read 'agent.yaml'" in _usage_error(tmp_path, "agent.yaml")


def test_a_fifo_is_refused_without_blocking_on_it(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "agent.yaml")
    assert "not a regular file" in _usage_error(tmp_path, "agent.yaml")


def test_a_fifo_named_agent_yaml_in_a_searched_folder_is_refused_not_read(tmp_path: Path) -> None:
    (tmp_path / "folder" / "sub").mkdir(parents=True)
    os.mkfifo(tmp_path / "folder" / "sub" / "agent.yaml")
    assert "not a regular file" in _usage_error(tmp_path, "folder")


def test_a_name_too_long_is_a_clear_usage_error(tmp_path: Path) -> None:
    assert "cannot read" in _usage_error(tmp_path, "x" * 5000 + ".yaml")


def test_a_missing_file_is_a_clear_usage_error(tmp_path: Path) -> None:
    assert "no such file" in _usage_error(tmp_path, "absent.yaml")


@pytest.mark.parametrize(
    "target",
    ["fifo.yaml", "folder", "x" * 5000, "a\\0b"],
    ids=["fifo", "folder", "name-too-long", "nul-in-name"],
)
def test_a_test_cases_file_that_is_not_a_file_is_hmt110_on_its_line(
    target: str, tmp_path: Path
) -> None:
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "folder").mkdir()
    (tmp_path / "agent.yaml").write_text(f'name: a\ntest_cases_file: "{target}"\n')
    code, out, err = run_cli("agent.yaml", "--format", "json", cwd=tmp_path)
    assert "Traceback" not in err
    assert code == 1
    assert [(d["code"], d["line"]) for d in diagnostics(out)] == [("HMT110", 2)]
    assert len(diagnostics(out)[0]["message"]) <= MAX_MESSAGE


# --- a bug of ours -------------------------------------------------------------------


def test_an_internal_error_is_one_line_and_exit_2_without_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr("holodeck_mt.pipeline.validate_file", broken)
    monkeypatch.delenv("HOLODECK_MT_DEBUG", raising=False)
    (tmp_path / "agent.yaml").write_text("test_cases:\n  - input: hi\n")
    code = cli.main(["validate", str(tmp_path / "agent.yaml"), "--jobs", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err
    assert err.startswith("holodeck-mt: error: internal error while validating")
    assert "RecursionError" in err


def test_the_api_reports_a_lone_surrogate_in_text_instead_of_raising() -> None:
    from holodeck_mt.pipeline import validate_text

    result = validate_text("test_cases:\n  - input: a\udc80b\n")
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [("HMT005", 2, 13)]
