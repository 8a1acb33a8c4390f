"""The language server keeps its last reading of an unchanged document (the server's readings)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

from holodeck_mt import pipeline
from holodeck_mt.lsp import checking, server

AGENT = "name: a\nmodel: {provider: openai, name: gpt-4o}\ntest_cases:\n  - input: hi\n"


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = pipeline.validate_document_text

    def counted(text: str, **kwargs: Any) -> Any:
        seen.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(checking, "validate_document_text", counted)
    return seen


def _server(folder: Path) -> server.HoloDeckServer:
    """A server whose workspace is ``folder`` (no client: the roots are given)."""
    ls = server.HoloDeckServer()
    ls.roots = lambda: [folder]  # type: ignore[method-assign]
    return ls


def test_the_same_text_again_is_not_validated_again(tmp_path: Path, validations: list[str]) -> None:
    ls = _server(tmp_path)
    uri = (tmp_path / "agent.yaml").as_uri()
    first = ls._diagnose(uri, AGENT)
    assert ls._diagnose(uri, AGENT) == first
    assert len(validations) == 1
    changed = AGENT.replace("input: hi", "input: ''")
    assert ls._diagnose(uri, changed) != first
    assert len(validations) == 2


def test_a_document_naming_a_test_cases_file_is_always_validated_again(
    tmp_path: Path, validations: list[str]
) -> None:
    (tmp_path / "cases.yaml").write_text("- input: hi\n", encoding="utf-8")
    text = "name: a\nmodel: {provider: openai, name: gpt-4o}\ntest_cases_file: cases.yaml\n"
    ls = _server(tmp_path)
    uri = (tmp_path / "agent.yaml").as_uri()
    ls._diagnose(uri, text)
    (tmp_path / "cases.yaml").write_text("- input: ''\n", encoding="utf-8")
    found = ls._diagnose(uri, text)
    assert len(validations) == 2
    assert found is not None


def test_a_test_cases_file_is_validated_again_when_its_agent_changes(
    tmp_path: Path, validations: list[str]
) -> None:
    agent = tmp_path / "agent.yaml"
    agent.write_text(
        "name: a\nmodel: {provider: openai, name: gpt-4o}\ntest_cases_file: cases.yaml\n",
        encoding="utf-8",
    )
    cases = "- input: hi\n  ground_truth: '1'\n"
    ls = _server(tmp_path)
    uri = (tmp_path / "cases.yaml").as_uri()
    ls._diagnose(uri, cases)
    ls._diagnose(uri, cases)
    assert len(validations) == 1
    agent.write_text(agent.read_text(encoding="utf-8") + "description: x\n", encoding="utf-8")
    ls._diagnose(uri, cases)
    assert len(validations) == 2
