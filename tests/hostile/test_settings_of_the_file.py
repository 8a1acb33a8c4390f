"""A file is judged with its own folder's configuration, however the run reaches it.

A pull request that adds ``a/.holodeck-mt.toml`` (``ignore = ["HMT100"]``) and an
``a/agent.yaml`` naming ``../z/cases.yaml`` does not silence ``z/cases.yaml``: whether
validated alone, through that agent.yaml or by a folder search, on one process or
several, afresh or from the result cache, ``z/cases.yaml`` answers to the
configuration found from ``z/`` upward, its ``per-file-ignores`` and ``strict`` too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app.cli import main

AGENT = """\
name: {name}
model: {{provider: openai, name: gpt-4o}}
instructions: {{inline: hi}}
test_cases_file: {target}
"""
#: An error at line 3 (HMT100, an unknown key).
BAD = "- name: t\n  input: hi\n  bogus: 1\n"
#: A warning at line 3 (HMT203, a tool listed twice).
WARNED = "- name: t\n  input: hi\n  expected_tools: [a, a]\n"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``a/agent.yaml`` naming ``../z/cases.yaml``, ``z/agent.yaml`` naming ``cases.yaml``."""
    (tmp_path / ".git").mkdir()
    for name, target in (("a", "../z/cases.yaml"), ("z", "cases.yaml")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "agent.yaml").write_text(AGENT.format(name=name, target=target))
    (tmp_path / "z" / "cases.yaml").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[tuple[Any, ...]]]:
    code = main(["validate", *args, "--format", "json"])
    out = capsys.readouterr().out
    found = [
        (file["path"], d["code"], d["line"])
        for file in json.loads(out)["files"]
        for d in file["diagnostics"]
    ]
    return code, found


@pytest.mark.parametrize("jobs", ["1", "3"])
@pytest.mark.parametrize("given", [["."], ["a/agent.yaml"], ["a/agent.yaml", "z/agent.yaml"]])
def test_another_folders_configuration_does_not_silence_a_file_it_reaches(
    repo: Path, capsys: pytest.CaptureFixture[str], given: list[str], jobs: str
) -> None:
    (repo / "a" / ".holodeck-mt.toml").write_text('ignore = ["HMT100"]\n')
    for _ in range(2):  # afresh, then from the result cache
        code, found = _run(capsys, *given, "--jobs", jobs)
        assert code == 1
        assert found == [("z/cases.yaml", "HMT100", 3)]


def test_the_files_own_configuration_silences_it_however_reached(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "z" / ".holodeck-mt.toml").write_text('ignore = ["HMT100"]\n')
    for given in (["a/agent.yaml"], ["z/agent.yaml"], ["z/cases.yaml"], ["."]):
        assert _run(capsys, *given, "--jobs", "1") == (0, []), given


def test_a_configuration_added_later_applies_to_a_stored_result(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(capsys, "a/agent.yaml", "--jobs", "1")[0] == 1
    (repo / "z" / ".holodeck-mt.toml").write_text('ignore = ["HMT100"]\n')
    assert _run(capsys, "a/agent.yaml", "--jobs", "1") == (0, [])
    (repo / "z" / ".holodeck-mt.toml").unlink()
    assert _run(capsys, "a/agent.yaml", "--jobs", "1")[0] == 1


def test_per_file_ignores_are_relative_to_the_files_own_configuration(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "z" / "cases.yaml").unlink()
    (repo / "z" / "cases").mkdir()
    (repo / "z" / "cases" / "c.yaml").write_text(BAD)
    (repo / "a" / "agent.yaml").write_text(AGENT.format(name="a", target="../z/cases/c.yaml"))
    # a's glob, relative to a/, would name z's file by its name alone: it is not a's file.
    (repo / "a" / ".holodeck-mt.toml").write_text('per-file-ignores = { "*.yaml" = ["HMT1"] }\n')
    assert _run(capsys, "a/agent.yaml", "--jobs", "1") == (1, [("z/cases/c.yaml", "HMT100", 3)])
    (repo / "z" / ".holodeck-mt.toml").write_text(
        'per-file-ignores = { "cases/*.yaml" = ["HMT100"] }\n'
    )
    assert _run(capsys, "a/agent.yaml", "--jobs", "1") == (0, [])


def test_strict_is_the_files_own(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "z" / "cases.yaml").write_text(WARNED)
    (repo / "a" / ".holodeck-mt.toml").write_text("strict = true\n")  # a's warnings only
    assert _run(capsys, "a/agent.yaml", "--jobs", "1") == (0, [("z/cases.yaml", "HMT203", 3)])
    (repo / "a" / ".holodeck-mt.toml").unlink()
    (repo / "z" / ".holodeck-mt.toml").write_text("strict = true\n")
    for _ in range(2):  # afresh, then from the result cache
        assert _run(capsys, "a/agent.yaml", "--jobs", "1") == (1, [("z/cases.yaml", "HMT203", 3)])


def test_an_unusable_configuration_of_the_file_reached_is_a_usage_error(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "z" / ".holodeck-mt.toml").write_text('ignore = ["NOPE"]\n')
    assert main(["validate", "a/agent.yaml", "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("holodeck-mt: error: ")
    assert "z/.holodeck-mt.toml" in captured.err and "unknown code 'NOPE'" in captured.err
