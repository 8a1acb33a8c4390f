"""A folder search never skips in silence, never recurses itself to death, never reads /proc.

A folder or a YAML file it cannot read is an error naming it (exit 2), never "all
files valid"; a tree deeper than Python's recursion limit is walked; an agent.yaml
that is a link to ``/proc/self/environ`` or out of the tree is refused (``HMT120``)
and its content never reaches the output.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.project import discovery
from tests.hostile.test_hostile import diagnostics, run_cli

AGENT = "name: a\ntest_cases:\n  - input: hi\n"


def _denied(path: object) -> OSError:
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def test_an_unreadable_folder_is_an_error_not_all_valid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "agent.yaml").write_text(AGENT)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "agent.yaml").write_text("name: [\n")
    scandir = os.scandir

    def scan(path: str | os.PathLike[str]) -> object:
        if Path(path).name == "locked":
            raise _denied(path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", scan)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "."]) == 2
    err = capsys.readouterr().err
    assert "holodeck-mt: error: cannot read folder 'locked': Permission denied" in err


def test_an_unreadable_yaml_file_is_an_error_not_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "agent.yaml").write_text(AGENT)
    (tmp_path / "cases.yaml").write_text("- input: hi\n")
    open_file = os.open

    def refuse(path: str, *args: Any, **kwargs: Any) -> int:
        if Path(path).name == "cases.yaml":
            raise _denied(path)
        return open_file(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "."]) == 2
    assert "cannot read 'cases.yaml': Permission denied" in capsys.readouterr().err


def test_a_tree_deeper_than_the_recursion_limit_is_walked(tmp_path: Path) -> None:
    depth = max(1100, sys.getrecursionlimit() + 100)
    deep = str(tmp_path)
    for _ in range(depth):  # os.makedirs and Path.mkdir recurse themselves
        deep += "/d"
        os.mkdir(deep)
    Path(deep, "agent.yaml").write_text(AGENT)
    try:
        found = discovery.find([str(tmp_path)])
        assert found.problems == []
        assert found.files == [str(Path(deep, "agent.yaml"))]
    finally:  # shutil.rmtree recurses too: pytest could not clean this tree up
        os.unlink(Path(deep, "agent.yaml"))
        for _ in range(depth):
            os.rmdir(deep)
            deep = os.path.dirname(deep)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc here")
@pytest.mark.parametrize("argument", [".", "agent.yaml"])
def test_an_agent_file_linked_to_proc_is_refused_unread(argument: str, tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").symlink_to("/proc/self/environ")
    env = {"HOLODECK_SECRET_TOKEN": "token-in-the-environment"}
    os.environ.update(env)
    try:
        code, out, err = run_cli(argument, "--format", "json", cwd=tmp_path)
    finally:
        os.environ.pop("HOLODECK_SECRET_TOKEN")
    assert "token-in-the-environment" not in out + err
    assert "HOLODECK_SECRET_TOKEN" not in out + err
    assert code == 1, err
    assert [(d["code"], d["line"]) for d in diagnostics(out)] == [("HMT120", 1)]


def test_an_agent_file_linked_out_of_the_tree_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "secret.yaml").write_text("name: [SECRET-VALUE-42\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "agent.yaml").symlink_to(tmp_path / "secret.yaml")
    code, out, err = run_cli(".", "--format", "json", cwd=repo)
    assert "SECRET" not in out + err
    assert code == 1
    found = diagnostics(out)
    assert [d["code"] for d in found] == ["HMT120"]
    assert "leaves the repository tree" in found[0]["message"]


def test_a_file_name_with_control_characters_is_escaped_in_every_format(tmp_path: Path) -> None:
    name = os.fsdecode(b"cases-\x1b[2J\xff.yaml")
    (tmp_path / name).write_text("- input: hi\n  ground_truht: x\n")
    for fmt in ("text", "github", "json"):
        code, out, err = run_cli(".", "--format", fmt, cwd=tmp_path)
        assert code == 1, err
        assert "\x1b" not in out + err
        assert "\\x1b[2J\\xff" in out or "\\u001b[2J" in out
