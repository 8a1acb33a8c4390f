"""``init-editor`` on a hostile checkout: refused or kept, never a traceback, never bad JSON.

Settings with numbers JSON cannot write back, nesting deep enough to crash a recursive
parser, a FIFO or a folder where the file should be, a link out of the repository: each
is a one-line refusal (exit 2) and nothing is written. The bindings it writes name only
the files it means.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.project import writes

CASES = "- input: hi\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".vscode").mkdir(parents=True)
    (root / "agent.yaml").write_text("name: a\ntest_cases_file: cases.yaml\n")
    (root / "cases.yaml").write_text(CASES)
    return root


def _run(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["init-editor", str(root)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ('{"a": 1e400}', "too large to write back"),
        ('{"a": ' + "9" * 5000 + "}", "digits is not written back"),
        ('{"a": NaN}', "NaN"),
        ("[" * 100_000 + "]" * 100_000, "not rewritten"),
        ('{"a": ' + "[" * 500 + "]" * 500 + "}", "nests deeper"),
    ],
    ids=["1e400", "huge-integer", "nan", "deep-array", "deep-nesting"],
)
def test_settings_that_cannot_be_written_back_as_json_are_refused(
    content: str, says: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = repo / ".vscode" / "settings.json"
    settings.write_text(content)
    code, _, err = _run(repo, capsys)
    assert code == 2
    assert says in err
    assert len(err.strip().splitlines()) == 1
    assert settings.read_text() == content


def test_a_fifo_as_settings_is_refused_without_blocking(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.mkfifo(repo / ".vscode" / "settings.json")
    code, _, err = _run(repo, capsys)
    assert code == 2
    assert "settings.json" in err


def test_a_folder_as_settings_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / ".vscode" / "settings.json").mkdir()
    code, _, err = _run(repo, capsys)
    assert code == 2
    assert "settings.json" in err


@pytest.mark.parametrize("linked", ["settings", "folder"])
def test_a_link_out_of_the_tree_is_never_written_through(
    linked: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = repo.parent / "outside"
    outside.mkdir()
    (outside / "settings.json").write_text("{}")
    if linked == "settings":
        (repo / ".vscode" / "settings.json").symlink_to(outside / "settings.json")
    else:
        (repo / ".vscode").rmdir()
        (repo / ".vscode").symlink_to(outside)
    code, _, err = _run(repo, capsys)
    assert code == 2
    assert "leaves the repository tree" in err
    assert sorted(p.name for p in outside.iterdir()) == ["settings.json"]
    assert (outside / "settings.json").read_text() == "{}"


def test_a_name_a_glob_reads_as_a_pattern_is_not_bound(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\n")
    (repo / "*.yml").write_text(CASES)
    code, out, _ = _run(repo, capsys)
    assert code == 0
    settings = json.loads((repo / ".vscode" / "settings.json").read_text())
    assert settings["yaml.schemas"] == {
        "./.vscode/holodeck-mt.schema.json": ["agent.yaml", "cases.yaml"]
    }
    assert "Not bound by name" in out and "  *.yml" in out


def test_file_names_are_escaped_in_its_output(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "x\x1b[2J.yaml").write_text(CASES)
    (repo / "y\n::error::owned.yaml").write_text(CASES)
    code, out, _ = _run(repo, capsys)
    assert code == 0
    assert "\x1b" not in out
    assert not any(line.lstrip().startswith("::") for line in out.splitlines())
    assert "  x\\x1b[2J.yaml" in out


def test_a_full_disk_leaves_the_settings_as_they_were(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = repo / ".vscode" / "settings.json"
    settings.write_text('{"editor.tabSize": 2}')

    def full(descriptor: int, chunk: memoryview) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(writes, "_write_chunk", full)
    code, _, err = _run(repo, capsys)
    assert code == 2
    assert "No space left on device" in err
    assert settings.read_text() == '{"editor.tabSize": 2}'
    assert sorted(p.name for p in (repo / ".vscode").iterdir()) == ["settings.json"]


AGENT_SCHEMA = '{"properties": {"model": {}, "instructions": {}, "test_cases": {}}, "x": %s}'


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("schemas/agent.schema.json", AGENT_SCHEMA % "1e400"),
        ("schemas/agent.schema.json", AGENT_SCHEMA % ("9" * 5000)),
        ("schemas/agent.schema.json", AGENT_SCHEMA % "NaN"),
        ("schemas/agent.schema.json", AGENT_SCHEMA % ("[" * 100_000 + "]" * 100_000)),
        ("schemas/agent.schema.json", "\xff not JSON"),
        ("/etc/passwd", None),
        ("../outside.schema.json", AGENT_SCHEMA % "1"),
        ("schemas/link.schema.json", "link"),
    ],
    ids=["1e400", "huge-integer", "nan", "deep", "not-json", "absolute", "dot-dot", "link-out"],
)
def test_a_bound_schema_it_cannot_compose_is_left_bound_as_it_was(
    repo: Path, capsys: pytest.CaptureFixture[str], name: str, content: str | None
) -> None:
    """HoloDeck's agent schema is composed with ours only when it is a JSON file of the
    repository that it can write back whole; any other binding stays as it is."""
    outside = repo.parent / "outside.schema.json"
    outside.write_text(AGENT_SCHEMA % "1", encoding="utf-8")
    if content == "link":
        (repo / "schemas").mkdir()
        (repo / name).symlink_to(outside)
    elif content is not None and not name.startswith(".."):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(content, encoding="utf-8")
    settings = {"yaml.schemas": {name: ["**/agent.yaml"]}}
    (repo / ".vscode" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    code, _, err = _run(repo, capsys)
    assert (code, err) == (0, "")
    written = json.loads((repo / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert written["yaml.schemas"][name] == ["**/agent.yaml"]
    assert not (repo / ".vscode" / "holodeck-agent.schema.json").exists()
