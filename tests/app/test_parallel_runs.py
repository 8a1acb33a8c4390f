"""A run over many files on several processes reads as the same run on one.

The workers are forked from the command once it has imported what they need; whatever
happens to them, the report, the exit code and what is said on stderr are those of
``--jobs 1``, and Ctrl-C leaves no process behind.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app import cli
from holodeck_mt.render import FORMATS
from tests.conftest import FIXTURES, ROOT
from tests.timeouts import scaled

#: The longest a run below may take, however loaded the machine.
GUARD = 120


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every fixture (errors, warnings, syntax errors, the platform's models' faults,
    agent.yaml files naming test-cases files), with one folder's configuration turning
    the platform's models off."""
    root = tmp_path_factory.mktemp("parallel") / "fixtures"
    shutil.copytree(FIXTURES, root)
    (root / "invalid" / "platform-models" / ".holodeck-mt.toml").write_text('platform = "off"\n')
    return root


def _validate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["validate", *args, "--no-cache"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_folder_validated_on_several_processes_reports_as_on_one(
    fmt: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _validate(capsys, str(folder), "--format", fmt, "--jobs", "1")
    assert one[0] == 1 and one[1]
    assert _validate(capsys, str(folder), "--format", fmt) == one  # every core
    assert _validate(capsys, str(folder), "--format", fmt, "--jobs", "3") == one


@pytest.mark.slow
def test_a_run_without_two_files_to_hand_out_at_once_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two files found, one validated through the other: no batch of two to hand over.
    (tmp_path / "agent.yaml").write_text("test_cases_file: cases.yaml\n")
    (tmp_path / "cases.yaml").write_text("- input: 1\n")
    paths = [str(tmp_path / "agent.yaml"), str(tmp_path / "cases.yaml")]
    one = _validate(capsys, *paths, "--format", "json", "--jobs", "1")
    assert one[0] == 1
    assert _validate(capsys, *paths, "--format", "json", "--jobs", "2") == one


@pytest.mark.slow
@pytest.mark.parametrize("platform", ["auto", "off"], ids=["platform-models", "without"])
def test_a_worker_that_dies_while_files_are_still_handed_out_costs_no_file(
    platform: str, folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ProcessPoolExecutor

    submit = ProcessPoolExecutor.submit
    handed: list[int] = []

    def a_worker_dies_first(pool: ProcessPoolExecutor, *args: Any, **kwargs: Any) -> Any:
        handed.append(1)
        if len(handed) == 2:  # the pool breaks before the second chunk is handed out
            os.kill(next(iter(pool._processes)), signal.SIGKILL)
            deadline = time.monotonic() + scaled(30)
            while not pool._broken and time.monotonic() < deadline:
                time.sleep(0.01)
        return submit(pool, *args, **kwargs)

    options = ("--format", "json", "--platform", platform)
    one = _validate(capsys, str(folder), *options, "--jobs", "1")
    monkeypatch.setattr(ProcessPoolExecutor, "submit", a_worker_dies_first)
    assert _validate(capsys, str(folder), *options, "--jobs", "2") == one


def _group(pgid: int) -> list[tuple[int, float]]:
    """The live processes of process group ``pgid`` and the CPU time each has used
    (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            found.append((int(entry.name), cpu))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_ctrl_c_on_a_parallel_run_ends_quietly_and_leaves_no_process(tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"agent-{i}").mkdir()
        (tmp_path / f"agent-{i}" / "agent.yaml").write_text(
            "test_cases:\n" + "".join(f"  - input: {n}\n" for n in range(60_000))
        )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "holodeck_mt", "validate", ".", "--jobs", "2", "--no-cache"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,  # a group of its own, as a shell gives a command
    )
    # Past start-up, inside the workers' run: as a terminal does, the signal goes to every
    # process of the group.
    deadline = time.monotonic() + scaled(GUARD)
    while process.poll() is None and time.monotonic() < deadline:
        if len(_group(process.pid)) > 2 and sum(cpu for _, cpu in _group(process.pid)) > 1.0:
            break
        time.sleep(0.02)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
    try:
        _out, err = process.communicate(timeout=scaled(10))
    finally:
        # The command waits for the workers it forked, and ends them if they linger.
        deadline = time.monotonic() + scaled(5)
        while (left := _group(process.pid)) and time.monotonic() < deadline:
            time.sleep(0.02)
        if left:  # whatever the test says, nothing of it outlives the test
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    if process.returncode in (0, 1):  # finished before the signal: nothing to check
        pytest.skip("the run ended before Ctrl-C")
    assert process.returncode == cli.EXIT_INTERRUPTED
    assert err == b""
    assert left == []
