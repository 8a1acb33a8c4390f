"""The process ends without the interpreter's teardown, but never at the cost of output.

``python -m holodeck_mt`` and ``holodeck-mt`` flush their output and leave with
``os._exit``; an output that cannot be flushed, or a child process still running, gets
the ordinary exit instead, with the same exit code.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_mt.app import entry
from tests.conftest import ROOT


class _Broken(io.StringIO):
    def flush(self) -> None:
        raise OSError("the reader went away")


def test_a_flushed_run_ends_at_once_with_its_exit_code(monkeypatch: pytest.MonkeyPatch) -> None:
    ended: list[int] = []
    monkeypatch.setattr(entry, "main", lambda: 3)
    monkeypatch.setattr(os, "_exit", ended.append)
    entry.run()
    assert ended == [3]


def test_an_output_that_does_not_flush_gets_the_ordinary_exit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ended: list[int] = []
    monkeypatch.setattr(entry, "main", lambda: 1)
    monkeypatch.setattr(os, "_exit", ended.append)
    monkeypatch.setattr(sys, "stdout", _Broken())
    with pytest.raises(SystemExit) as exited:
        entry.run()
    assert exited.value.code == 1 and ended == []


@pytest.mark.slow
def test_a_large_report_reaches_a_pipe_whole(tmp_path: Path) -> None:
    cases = "".join(
        f"- name: case-{i}\n  input: q\n  ground_truth: a\n  expected_tools: [t, t]\n"
        for i in range(400)
    )
    path = tmp_path / "cases.yaml"
    path.write_text(cases, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "holodeck_mt",
            "validate",
            str(path),
            "--no-cache",
            "--format",
            "json",
        ],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(b"}") and b'"HMT203"' in done.stdout
    assert done.stdout.count(b'"HMT203"') == 400
