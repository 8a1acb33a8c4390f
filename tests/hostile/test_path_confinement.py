"""Paths a document names stay in its repository tree, and nothing else is ever printed.

``test_cases_file`` and ``files[*].path`` (``--check-files``) come from the pull
request: an absolute path, a ``../`` or a link must not make the validator read
(and quote into the CI log) ``/etc/passwd``, ``/proc/self/environ`` or a
credentials file beside the checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.hostile.test_hostile import diagnostics, run_cli

SECRET = "aws_secret_access_key = SECRET-VALUE-42"


def _repo(tmp_path: Path) -> Path:
    """A checkout at tmp/repo with a secret beside it (tmp/secret.yaml)."""
    (tmp_path / "secret.yaml").write_text(f"- {SECRET}\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    return repo


@pytest.mark.parametrize(
    "target",
    ["../secret.yaml", "{tmp}/secret.yaml", "link.yaml", "/etc/passwd", "/proc/self/environ"],
    ids=["dot-dot", "absolute", "symlink", "etc-passwd", "proc"],
)
def test_a_test_cases_file_outside_the_tree_is_refused_unread(target: str, tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "link.yaml").symlink_to(tmp_path / "secret.yaml")
    (repo / "agent.yaml").write_text(f"name: a\ntest_cases_file: {target.format(tmp=tmp_path)}\n")
    for fmt in ("text", "json", "junit"):
        code, out, err = run_cli("agent.yaml", "--format", fmt, cwd=repo)
        assert code == 1, err
        assert "SECRET" not in out + err
        assert "root:" not in out + err
    _, out, _ = run_cli("agent.yaml", "--format", "json", cwd=repo)
    assert [(d["code"], d["line"]) for d in diagnostics(out)] == [("HMT120", 2)]


def test_allow_outside_paths_follows_a_file_beside_the_tree(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (tmp_path / "cases.yaml").write_text("- input: hi\n")
    (repo / "agent.yaml").write_text("name: a\ntest_cases_file: ../cases.yaml\n")
    code, out, _ = run_cli("agent.yaml", "--format", "json", "--allow-outside-paths", cwd=repo)
    assert (code, diagnostics(out)) == (0, [])


def test_proc_stays_refused_with_allow_outside_paths(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text("name: a\ntest_cases_file: /proc/self/environ\n")
    code, out, err = run_cli(
        "agent.yaml", "--format", "json", "--allow-outside-paths", cwd=tmp_path
    )
    assert code == 1
    assert [d["code"] for d in diagnostics(out)] == ["HMT120"]
    assert "PATH=" not in out + err


def test_an_agent_yaml_outside_the_working_directory_may_use_its_own_folder(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    (project / "cases").mkdir(parents=True)
    (project / "cases" / "all.yaml").write_text("- input: hi\n")
    (project / "agent.yaml").write_text("name: a\ntest_cases_file: cases/all.yaml\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, out, err = run_cli(str(project / "agent.yaml"), "--format", "json", cwd=elsewhere)
    assert (code, diagnostics(out)) == (0, []), err


def _files_entry(path: str) -> str:
    return (
        "name: a\ntest_cases:\n  - name: t\n    input: 1\n"
        f"    files:\n      - path: {path}\n        type: text\n"
    )


@pytest.mark.parametrize("target", ["../secret.yaml", "/etc/passwd", "/dev/zero", "/proc/1/mem"])
def test_check_files_refuses_a_path_outside_the_tree(target: str, tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "agent.yaml").write_text(_files_entry(target))
    code, out, err = run_cli("agent.yaml", "--format", "json", "--check-files", cwd=repo)
    assert code == 1, err
    assert sorted(d["code"] for d in diagnostics(out)) == ["HMT102", "HMT120"]


def test_check_files_with_a_5000_character_path_keeps_the_files_other_diagnostics(
    tmp_path: Path,
) -> None:
    (tmp_path / "agent.yaml").write_text(_files_entry("x" * 5000))
    code, out, err = run_cli("agent.yaml", "--format", "json", "--check-files", cwd=tmp_path)
    assert code == 1, err
    assert "Traceback" not in err
    found = diagnostics(out)
    assert sorted(d["code"] for d in found) == ["HMT102", "HMT112"]
    assert all(len(d["message"]) <= 400 for d in found)


def test_check_files_refuses_a_fifo_without_opening_it(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "agent.yaml").write_text(_files_entry("pipe.txt"))
    code, out, _ = run_cli("agent.yaml", "--format", "json", "--check-files", cwd=tmp_path)
    assert code == 1
    assert "not a regular file" in " ".join(d["message"] for d in diagnostics(out))
