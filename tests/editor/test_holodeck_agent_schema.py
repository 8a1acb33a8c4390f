"""HoloDeck's own agent schema beside ours, in yaml-language-server, after ``init-editor``.

``holodeck init`` (the oracle's holodeck-ai release) binds its ``schemas/agent.schema.json`` to
``**/agent.yaml``, ``agents/**/*.yaml`` and ``**/*agent*.yaml``. That schema knows no
``test_cases_file``: on an agent.yaml the platform loads, the editor shows "Property
test_cases_file is not allowed", and on a test-cases file its globs reach, missing
``name``, ``model`` and ``instructions``. After ``init-editor`` (which composes the two,
:mod:`holodeck_mt.app.editor_setup`), both files show nothing, and a real fault, of
HoloDeck's schema or of ours, still shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from tests.app.test_init_editor import with_holodeck_schema
from tests.platform_oracle import available, judge_file

from .test_init_editor_in_editor import Server
from .test_language_server import _require_server

AGENT = "agents/finance/agent.yaml"
CASES = "agents/finance/data/convfinqa.yaml"
FILES = {
    AGENT: (
        "name: finance\n"
        "description: Answers questions about a company's filings\n"
        "model:\n"
        "  provider: openai\n"
        "  name: gpt-4o\n"
        "  temperature: 0.0\n"
        "instructions:\n"
        "  inline: You answer questions about financial filings.\n"
        "test_cases_file: data/convfinqa.yaml\n"
    ),
    CASES: (
        "test_cases:\n"
        "  - name: convfinqa-0\n"
        "    turns:\n"
        '      - input: "what is the net cash from operating activities in 2009?"\n'
        '        ground_truth: "206588"\n'
        '      - input: "and the difference from 2008?"\n'
        '        ground_truth: "25587"\n'
        "        expected_tools: [subtract]\n"
    ),
}


def _project(root: Path) -> Path:
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return with_holodeck_schema(root)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    _require_server()
    yield _project(tmp_path / "project")


def test_the_platform_loads_the_project(tmp_path: Path) -> None:
    if available() is not None:
        pytest.skip(f"the platform is not importable: {available()}")
    root = _project(tmp_path)
    verdict = judge_file(root / AGENT, whole=True)
    assert verdict.loads, verdict.reason


def _problems(root: Path) -> dict[str, list[str]]:
    """The message of each diagnostic yaml-language-server shows on each file."""
    server = Server(root)
    try:
        return {name: [message for _, message in server.problems(name)] for name in FILES}
    finally:
        server.client.close()


def test_holodecks_binding_alone_shows_the_false_error(project: Path) -> None:
    """What a user sees before init-editor: the reason it composes the two."""
    found = _problems(project)
    assert any("test_cases_file is not allowed" in m for m in found[AGENT]), found
    assert any('Missing property "model"' in m for m in found[CASES]), found


def test_after_init_editor_a_file_the_platform_loads_shows_nothing(project: Path) -> None:
    assert main(["init-editor", str(project)]) == 0
    assert _problems(project) == {AGENT: [], CASES: []}


def test_after_init_editor_real_faults_of_both_schemas_still_show(project: Path) -> None:
    assert main(["init-editor", str(project)]) == 0
    agent = FILES[AGENT].replace("provider: openai", "provider: openia")
    cases = FILES[CASES].replace('ground_truth: "25587"', "ground_truth: 25587")
    (project / AGENT).write_text(agent, encoding="utf-8")
    (project / CASES).write_text(cases, encoding="utf-8")
    found = _problems(project)
    # HoloDeck's schema still judges the agent's own sections...
    assert len(found[AGENT]) == 1 and "openai" in found[AGENT][0], found
    # ...and ours the test cases.
    assert len(found[CASES]) == 1 and "Incorrect type" in found[CASES][0], found
