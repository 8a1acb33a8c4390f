"""Every file the platform reads is validated: a near miss of `test_cases` at the top level,
and a test-cases file an agent.yaml names, whatever it holds (discovery, the pre-commit
hook's --by-content, explain)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.explain import run as explain_run
from holodeck_mt.limits import Limits
from holodeck_mt.project import discovery
from tests.app.test_discovery import found_by_content
from tests.conftest import RunJson

AGENT = """\
name: finance
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer.}
test_cases_file: data/cases.yaml
evaluations:
  metrics:
    - type: standard
      metric: bleu
"""


@pytest.mark.parametrize("key", ["test_case", "testcases", "test-cases", "test_cases_files"])
def test_a_near_miss_of_test_cases_at_the_top_is_a_holodeck_file_with_did_you_mean(
    tmp_path: Path, run_json: RunJson, key: str
) -> None:
    (tmp_path / "suite.yaml").write_text(f"{key}:\n  - input: hi\n", encoding="utf-8")
    (tmp_path / "compose.yaml").write_text("services: {web: {image: x}}\n", encoding="utf-8")
    assert found_by_content(tmp_path / "suite.yaml")
    code, document = run_json(str(tmp_path))
    assert code == 1
    [file] = document["files"]
    assert file["path"].endswith("suite.yaml")
    [d] = file["diagnostics"]
    assert d["code"] == "HMT100" and d["line"] == 1
    assert d["hint"] in ("did you mean 'test_cases'?", "did you mean 'test_cases_file'?")


def test_a_key_far_from_test_cases_is_not_holodecks(tmp_path: Path) -> None:
    (tmp_path / "other.yaml").write_text("tests:\n  - input: hi\n", encoding="utf-8")
    assert not found_by_content(tmp_path / "other.yaml")


def _repository(tmp_path: Path, cases: str) -> Path:
    (tmp_path / "agent.yaml").write_text(AGENT, encoding="utf-8")
    (tmp_path / "data").mkdir()
    file = tmp_path / "data" / "cases.yaml"
    file.write_text(cases, encoding="utf-8")
    return file


def test_by_content_validates_an_empty_test_cases_file_through_its_agent(
    tmp_path: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = _repository(tmp_path, "")
    monkeypatch.chdir(tmp_path)
    code, document = run_json("--by-content", str(file.relative_to(tmp_path)))
    assert code == 0
    paths = [f["path"] for f in document["files"]]
    assert paths == ["agent.yaml", "data/cases.yaml"]
    assert [d["code"] for d in document["files"][1]["diagnostics"]] == ["HMT214"]


def test_a_named_test_cases_mapping_is_read_as_its_agent_reads_it(
    tmp_path: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`{version: 1, test_cases: [...]}`: a test-cases file (HMT215), not an agent.yaml
    with an unknown key `version`."""
    file = _repository(tmp_path, "version: 1\ntest_cases:\n  - input: hi\n    ground_truth: x\n")
    monkeypatch.chdir(tmp_path)
    code, document = run_json(str(file.relative_to(tmp_path)))
    assert code == 0
    [cases] = [f for f in document["files"] if f["path"] == "data/cases.yaml"]
    assert [d["code"] for d in cases["diagnostics"]] == ["HMT215"]


def test_explain_on_a_test_cases_file_explains_under_its_agents_metrics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _repository(tmp_path, "- input: hi\n  ground_truth: x\n")
    out = io.StringIO()
    assert explain_run(str(file), None, "text", Limits(), out) == 0
    assert "bleu" in out.getvalue()
    assert capsys.readouterr().err == ""


def test_explain_on_a_test_cases_file_no_agent_names_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "cases.yaml"
    file.write_text("- input: hi\n  ground_truth: x\n", encoding="utf-8")
    out = io.StringIO()
    assert explain_run(str(file), None, "text", Limits(), out) == 0
    err = capsys.readouterr().err
    assert "no agent.yaml names" in err and "without an agent's metrics" in err


def test_the_language_servers_roles_use_the_same_naming_agent(tmp_path: Path) -> None:
    from holodeck_mt.lsp import checking

    file = _repository(tmp_path, "")
    target, _, _ = checking.decide(file, tmp_path)
    assert target.role == "test-cases-file"
    assert target.agent == tmp_path / "agent.yaml"
    assert target.base == tmp_path


def test_validate_cli_accepts_a_near_miss_file_named_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "suite.yaml").write_text("test_case:\n  - input: hi\n", encoding="utf-8")
    assert main(["validate", "--by-content", str(tmp_path / "suite.yaml")]) == 1


def test_an_agent_above_the_repository_is_never_read_to_name_a_test_cases_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "agent.yaml").write_text(AGENT.replace("data/", "repo/data/"), encoding="utf-8")
    repository = tmp_path / "repo"
    (repository / ".git").mkdir(parents=True)
    (repository / "data").mkdir()
    cases = repository / "data" / "cases.yaml"
    cases.write_text("- input: hi\n", encoding="utf-8")
    monkeypatch.chdir(repository)
    assert discovery.find_naming_agent(cases) is None
    (repository / "agent.yaml").write_text(AGENT, encoding="utf-8")
    assert discovery.find_naming_agent(cases) == repository / "agent.yaml"
