"""The platform authors' own agent.yaml and ConvFinQA files validate with no error."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES, RunJson

pytestmark = pytest.mark.usefixtures("samples")


def test_every_real_agent_yaml_and_its_test_cases_file_validates(run_json: RunJson) -> None:
    code, document = run_json(str(SAMPLES))
    errors = [
        (f["path"], d["line"], d["message"])
        for f in document["files"]
        for d in f["diagnostics"]
        if d["severity"] == "error"
    ]
    assert errors == []
    assert code == 0
    paths = [f["path"] for f in document["files"]]
    assert len([p for p in paths if p.endswith("agent.yaml")]) == 15
    # The financial assistants' test_cases_file was followed and validated.
    assert sum(p.endswith("convfinqa_subset_retrieval.yaml") for p in paths) == 2


def test_the_133_conversation_file_validates_as_a_test_cases_file(run_json: RunJson) -> None:
    path = SAMPLES / "financial-assistant" / "claude" / "data" / "convfinqa_subset.yaml"
    code, document = run_json(str(path))
    assert code == 0
    assert document["files"][0]["stats"]["test_cases"] == 133
