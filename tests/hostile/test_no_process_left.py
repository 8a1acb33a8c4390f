"""Nothing outlives a run: SIGTERM or SIGKILL of the command or of a worker leaves no
process of the run behind.

A real ``validate`` over many agent.yaml files runs with several jobs (each file made
slow to validate, so that the run is caught half-way); one of its processes is killed,
and the processes that carry the run's mark in their environment are counted through
``/proc``. Killed, the command's own processes end within 5 s; a killed worker costs the
run nothing (the command validates what was lost again) and leaves nothing either. SIGTERM
of the command ends it with 143 and no partial report.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.timeouts import scaled

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc"),
]

MARK = "HOLODECK_MT_TEST_RUN"
FILES = 24
#: Seconds each file's validation is made to take.
SLOW = 0.2
#: How long the run's processes may take to end, once their parent is gone.
GRACE = 5.0
#: The command, each file made slow to validate (forked processes inherit the change).
COMMAND = f"""
import time
from holodeck_mt import pipeline
real = pipeline.validate_file
def slow(*args, **kwargs):
    time.sleep({SLOW})
    return real(*args, **kwargs)
pipeline.validate_file = slow
from holodeck_mt.app.entry import run
run()
"""
AGENT = """\
name: agent-{i}
model: {{provider: openai, name: gpt-4o}}
instructions: {{inline: hi}}
test_cases:
  - name: t
    input: hi
"""


def _environ(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:  # gone meanwhile, or not ours to read
        return b""


def _parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


def _marked(mark: str) -> dict[int, int | None]:
    """The run's processes still running: pid -> parent pid."""
    needle = f"{MARK}={mark}".encode()
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and needle in _environ(int(entry)).split(b"\0") and _alive(int(entry)):
            found[int(entry)] = _parent_of(int(entry))
    return found


def _wait_for(condition: Callable[[], object], seconds: float) -> object:
    deadline = time.monotonic() + scaled(seconds)
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    return condition()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    for i in range(FILES):
        (tmp_path / f"a{i:02}").mkdir()
        (tmp_path / f"a{i:02}" / "agent.yaml").write_text(AGENT.format(i=i))
    return tmp_path


def _start(repo: Path, mark: str, *options: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), MARK: mark}
    env.pop("HOLODECK_MT_DEBUG", None)
    return subprocess.Popen(
        [sys.executable, "-c", COMMAND, "validate", ".", "--no-cache", "--jobs", "3", *options],
        cwd=repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a stray process of the run never reaches the test's group
    )


def _roles(command: int, mark: str) -> dict[str, int] | None:
    """The command and a worker, once workers run."""
    workers = [pid for pid, parent in _marked(mark).items() if parent == command]
    return {"command": command, "worker": workers[0]} if len(workers) >= 2 else None


def _cleanup(mark: str) -> None:
    for pid in _marked(mark):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
@pytest.mark.parametrize(
    ("killed", "options"),
    [
        ("command", ()),
        ("worker", ()),
        ("command", ("--platform", "off")),  # the platform's models not imported first
        ("worker", ("--platform", "off")),
    ],
    ids=["command", "worker", "command-without-models", "worker-without-models"],
)
def test_a_killed_process_of_a_run_leaves_no_process_behind(
    repo: Path, killed: str, options: tuple[str, ...], sig: signal.Signals
) -> None:
    mark = uuid.uuid4().hex
    process = _start(repo, mark, "--format", "json", *options)
    try:
        roles = _wait_for(lambda: _roles(process.pid, mark), 60)
        assert isinstance(roles, dict), f"no workers started: {_marked(mark)}"
        os.kill(roles[killed], sig)
        if killed == "command":
            out, err = process.communicate(timeout=scaled(60))
            gone = _wait_for(lambda: not _marked(mark), GRACE)
            assert gone, f"left behind: {_marked(mark)}"
            if sig == signal.SIGTERM:
                assert process.returncode == 143
                assert out == "" and "Traceback" not in err, err
            else:
                assert process.returncode == -signal.SIGKILL
            return
        out, err = process.communicate(timeout=scaled(120))
        assert process.returncode == 0, err
        assert "Traceback" not in err
        assert len(json.loads(out)["files"]) == FILES  # every file, the lost ones again
        gone = _wait_for(lambda: not _marked(mark), GRACE)
        assert gone, f"left behind: {_marked(mark)}"
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        _cleanup(mark)
