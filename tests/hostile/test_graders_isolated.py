"""--import-graders: each grader imported on its own, its prints kept off the report."""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostile.test_hostile import diagnostics, run_cli

AGENT = (
    "evaluations:\n  metrics:\n    - type: code\n      grader: graders:{name}\n"
    "test_cases:\n  - input: hi\n"
)


def test_two_folders_with_a_graders_module_each_import_their_own(tmp_path: Path) -> None:
    for folder, name in (("one", "grade"), ("two", "score")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "graders.py").write_text(f"def {name}(*args):\n    return 1.0\n")
        (tmp_path / folder / "agent.yaml").write_text(AGENT.format(name=name))
    code, out, err = run_cli(".", "--import-graders", "--format", "json", cwd=tmp_path)
    assert (code, diagnostics(out)) == (0, []), err
    assert not list(tmp_path.rglob("__pycache__"))  # nothing written into the user's tree


def test_a_grader_that_prints_while_imported_leaves_json_valid(tmp_path: Path) -> None:
    (tmp_path / "graders.py").write_text(
        "import os, sys\nprint('::error::from the grader')\nos.write(1, b'raw bytes\\n')\n"
        "def grade(*args):\n    return 1.0\n"
    )
    (tmp_path / "agent.yaml").write_text(AGENT.format(name="grade"))
    code, out, err = run_cli("agent.yaml", "--import-graders", "--format", "json", cwd=tmp_path)
    assert code == 0, err
    assert json.loads(out)["summary"]["valid"] == 1
    assert "from the grader" not in out and "raw bytes" not in out
