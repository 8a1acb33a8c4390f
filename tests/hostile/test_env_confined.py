"""``.env`` is read as confined as every other file: a pull request's ``.env`` that is a
link to a credentials file, to ``/proc/self/environ``, a FIFO, or a file too large or too
costly to expand is refused with one warning, its values never used nor printed.

The user's own ``~/.holodeck/.env`` lies outside any repository and is read there, but
never through a link into ``/proc``, ``/sys`` or ``/dev`` nor when it is not a regular file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.read import substitution
from tests.timeouts import scaled

ROOT = Path(__file__).resolve().parents[2]
SECRET = "SECRET-VALUE-42"
MARKER = "HMT_ENVIRON_MARKER"

AGENT = """\
name: a
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: be brief
test_cases:
  - name: leak
    turns: ${aws_secret_access_key}
"""
REFERENCE_LINE = 9
#: A value that makes the agent valid once it is read.
TURNS = "'[{input: hi}]'"


def _checkout(tmp_path: Path) -> tuple[Path, Path]:
    """A repository at tmp/repo, and a home beside it holding a credentials file."""
    repo, home = tmp_path / "repo", tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text(
        f"[default]\naws_secret_access_key = {SECRET}\n", encoding="utf-8"
    )
    repo.mkdir()
    (repo / "agent.yaml").write_text(AGENT, encoding="utf-8")
    return repo, home


def _run(repo: Path, home: Path, *args: str, timeout: float = 120) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(home), MARKER: SECRET}
    for name in ("HOLODECK_MT_DEBUG", "aws_secret_access_key", "PYTHON_DOTENV_DISABLED"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "validate", "agent.yaml", "--jobs", "1", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=scaled(timeout),
        env=env,
    )
    return done.returncode, done.stdout, done.stderr


def _diagnostics(out: str) -> list[dict[str, Any]]:
    return [d for f in json.loads(out)["files"] for d in f["diagnostics"]]


def _refused(repo: Path, home: Path, why: str, name: str = "`.env`") -> None:
    """Validating shows the refusal and the variable unset, never the secret, in any format."""
    for fmt in ("text", "json", "sarif", "junit", "github"):
        code, out, err = _run(repo, home, "--format", fmt)
        assert "Traceback" not in err
        assert SECRET not in out + err
        assert code == 0, (out, err)
    _, out, _ = _run(repo, home, "--format", "json")
    found = [(d["code"], d["line"], d["message"]) for d in _diagnostics(out)]
    assert len(found) == 2, found
    assert found[0] == (
        "HMT213",
        REFERENCE_LINE,
        f"{name} {why}, so its variables are not used here: a variable set only there counts "
        "as unset, though the `holodeck` command reads the file",
    )
    assert found[1][:2] == ("HMT213", REFERENCE_LINE)
    assert "aws_secret_access_key is not set" in found[1][2]


def test_a_dot_env_linked_to_a_credentials_file_is_refused(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    (repo / ".env").symlink_to("../home/.aws/credentials")
    _refused(repo, home, "leaves the repository tree")


def test_a_dot_env_linked_absolutely_out_of_the_tree_is_refused(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    (tmp_path / "beside.env").write_text(f"aws_secret_access_key={SECRET}\n", encoding="utf-8")
    (repo / ".env").symlink_to(tmp_path / "beside.env")
    _refused(repo, home, "leaves the repository tree")


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc here")
def test_a_dot_env_linked_to_proc_self_environ_is_never_opened(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    (repo / ".env").symlink_to("/proc/self/environ")
    _refused(repo, home, "is under /proc, which is never read")


def test_a_fifo_dot_env_is_refused_without_blocking(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    os.mkfifo(repo / ".env")
    started = time.monotonic()
    _refused(repo, home, "is not a regular file")
    assert time.monotonic() - started < scaled(100)  # five runs; a blocked one never returns


def test_an_oversized_dot_env_is_refused(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    (repo / ".env").write_text(
        f"aws_secret_access_key={SECRET}\n" + "#" * substitution.MAX_ENV_FILE, encoding="utf-8"
    )
    _refused(repo, home, "is larger than 256 KiB")


def test_a_dot_env_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    (repo / ".env").write_bytes(f"aws_secret_access_key={SECRET}\n\xff\n".encode("latin-1"))
    _refused(repo, home, "is not UTF-8 text (the `holodeck` command fails reading it)")


@pytest.mark.parametrize(
    "lines",
    [
        # Each line twice the one above: 2**40 characters, were it expanded.
        ["A0=xxxxxxxxxxxxxxxx"] + [f"A{i}=${{A{i - 1}}}${{A{i - 1}}}" for i in range(1, 41)],
        # Unclosed references: python-dotenv's search for them is quadratic.
        ["A=" + "${" * (substitution.MAX_ENV_FILE // 2 - 64)],
        # Each line one longer than the one above: a quadratic total.
        ["B0=x"] + [f"B{i}=${{B{i - 1}}}x" for i in range(1, 12000)],
    ],
    ids=["doubling", "unclosed", "growing"],
)
def test_a_dot_env_too_costly_to_expand_is_refused_in_bounded_time(
    lines: list[str], tmp_path: Path
) -> None:
    repo, _ = _checkout(tmp_path)
    text = "\n".join([f"aws_secret_access_key={SECRET}", *lines]) + "\n"
    assert len(text) <= substitution.MAX_ENV_FILE
    (repo / ".env").write_text(text, encoding="utf-8")
    started = time.monotonic()
    found = substitution.environment(repo, {})
    assert time.monotonic() - started < scaled(10)
    assert found.variables == {}
    assert found.refused == ("`.env` is over 1024 KiB once its references are expanded",)


def test_the_users_file_linked_into_proc_is_refused(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    (home / ".holodeck").mkdir()
    (home / ".holodeck" / ".env").symlink_to("/proc/self/environ")
    _refused(repo, home, "is under /proc, which is never read", name="`~/.holodeck/.env`")


def test_the_users_file_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    (home / ".holodeck").mkdir()
    os.mkfifo(home / ".holodeck" / ".env")
    _refused(repo, home, "is not a regular file", name="`~/.holodeck/.env`")


def test_the_users_file_is_read_outside_the_repository(tmp_path: Path) -> None:
    """The user's own file, outside any repository (a link to another of their files
    included), is what the command reads: its variables count as set."""
    repo, home = _checkout(tmp_path)
    (home / ".holodeck").mkdir()
    (home / "mine.env").write_text(f"aws_secret_access_key={TURNS}\n", encoding="utf-8")
    (home / ".holodeck" / ".env").symlink_to(home / "mine.env")
    code, out, _ = _run(repo, home, "--format", "json")
    assert (code, _diagnostics(out)) == (0, [])


def test_a_dot_env_linked_inside_the_tree_is_read(tmp_path: Path) -> None:
    repo, home = _checkout(tmp_path)
    (repo / "config").mkdir()
    (repo / "config" / "shared.env").write_text(
        f"aws_secret_access_key={TURNS}\n", encoding="utf-8"
    )
    (repo / ".env").symlink_to("config/shared.env")
    code, out, _ = _run(repo, home, "--format", "json")
    assert (code, _diagnostics(out)) == (0, [])
