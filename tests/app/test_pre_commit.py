"""The pre-commit hook works when run by pre-commit itself.

A scratch git repository's ``.pre-commit-config.yaml`` names this checkout at its
last commit, as a user's names the repository at a tag: pre-commit clones it (so
the committed code and .pre-commit-hooks.yaml are tested), installs the package
into an environment of its own once (from the package registry: the one step of
the suite that needs it) and runs the hook on valid and invalid files.

Outside CI, when pre-commit cannot build that environment (no registry at hand),
the tests skip with the reason; in CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import NoReturn

import pytest

from tests.app.test_discovery import FAULTS, NOT_HOLODECK, make_repository
from tests.conftest import unavailable

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
#: The scratch repository and the environment pre-commit runs in.
Scratch = tuple[Path, dict[str, str]]

VALID = """\
test_cases:
  - name: convfinqa-0
    turns:
      - input: "what is the net cash from operating activities in 2009?"
        ground_truth: "206588"
"""

INVALID = """\
test_cases:
  - name: convfinqa-0
    turns:
      - input: "what is the difference?"
        ground_truth: 25587
"""


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def _unavailable(reason: str) -> NoReturn:
    unavailable(f"PRE-COMMIT HOOK TEST NOT RUN: {reason}.")


@cache
def _head() -> str:
    return _git(ROOT, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Scratch:
    """A scratch git repository holding the files, and the environment to run pre-commit in."""
    if importlib.util.find_spec("pre_commit") is None:
        _unavailable("pre-commit is not installed (it is in the `dev` extra)")
    if not (ROOT / ".git").exists():
        _unavailable(f"{ROOT} is not a git checkout")
    try:
        _git(ROOT, "cat-file", "-e", "HEAD:.pre-commit-hooks.yaml")
    except subprocess.CalledProcessError:
        pytest.fail(".pre-commit-hooks.yaml is not committed: pre-commit clones the last commit")
    repo = tmp_path_factory.mktemp("scratch-repo")
    _git(repo, "init", "-q")
    (repo / "agent.yaml").write_text(VALID, encoding="utf-8")
    (repo / "bad").mkdir()
    (repo / "bad" / "routing.test-cases.yaml").write_text(INVALID, encoding="utf-8")
    (repo / "notes.yaml").write_text(INVALID, encoding="utf-8")  # test cases, whatever the name
    make_repository(repo)  # agents, data files, and a dozen YAML files that are not HoloDeck's
    config = f"repos:\n  - repo: {ROOT}\n    rev: {_head()}\n    hooks:\n      - id: holodeck-mt\n"
    (repo / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    _git(repo, "add", ".")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PRE_COMMIT", "GIT_", "VIRTUAL_ENV"))
    }
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    return repo, env


def _run_hook(scratch: Scratch, *files: str) -> subprocess.CompletedProcess[str]:
    """Run the hook on ``files`` (on every file of the repository when none is given)."""
    repo, env = scratch
    command = [sys.executable, "-m", "pre_commit", "run", "holodeck-mt"]
    command += ["--color", "never", "--verbose"]
    command += ["--files", *files] if files else ["--all-files"]
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True)
    output = done.stdout + done.stderr
    if "An unexpected error has occurred" in output:
        _unavailable("pre-commit could not create the hook's environment:\n" + output[-3000:])
    return done


def test_hook_passes_a_valid_agent_yaml(scratch: Scratch) -> None:
    done = _run_hook(scratch, "agent.yaml")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert re.search(r"holodeck-mt\.+Passed", output), output


def test_hook_fails_an_invalid_test_cases_file_and_shows_the_diagnostic(
    scratch: Scratch,
) -> None:
    done = _run_hook(scratch, "agent.yaml", "bad/routing.test-cases.yaml")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert re.search(r"holodeck-mt\.+Failed", output), output
    assert "bad/routing.test-cases.yaml:5:23: error[HMT102]" in output


def test_hook_passes_over_yaml_files_that_hold_no_test_cases(scratch: Scratch) -> None:
    others = sorted(
        p.relative_to(NOT_HOLODECK).as_posix()
        for p in NOT_HOLODECK.rglob("*")
        if p.suffix in (".yaml", ".yml")
    )
    done = _run_hook(scratch, *others)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert re.search(r"holodeck-mt\.+Passed", output), output
    assert "error" not in output.lower()


def test_hook_on_every_file_reports_each_fault_once_and_nothing_else(scratch: Scratch) -> None:
    # notes.yaml and tests/routing.yaml hold test cases under names no glob would match.
    done = _run_hook(scratch)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    expected = [
        *FAULTS,
        ("bad/routing.test-cases.yaml", 5, "HMT102"),
        ("notes.yaml", 5, "HMT102"),
    ]
    found = sorted(
        (m[1], int(m[2]), m[3])
        for m in re.finditer(r"^(\S+?):(\d+):\d+: (?:error|warning)\[(HMT\d+)\]", output, re.M)
    )
    assert found == sorted(expected), output
    for other in NOT_HOLODECK.rglob("*"):
        assert other.relative_to(NOT_HOLODECK).as_posix() + ":" not in output
