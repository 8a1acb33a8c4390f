"""A new turn field needs one edit: its entry in schema/turn.schema.json.

The repository's tracked files are copied into a scratch folder, one optional
number field is added to the turn's ``properties``, and `make schema`'s recipe
(read from the Makefile, run with this interpreter) regenerates what derives from
the schema. In that copy, with no other edit, the validator reads the field the
platform's way (a quoted number is a warning that says how the platform reads
it), both bundles offer it to editors, the reference documents it, and a
misspelling of it is an unknown key whose hint names it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, copy_checkout

pytestmark = pytest.mark.slow  # copies the repository and starts processes

FIELD = "max_latency_ms"
SPEC: dict[str, Any] = {
    "type": "number",
    "minimum": 0,
    "description": "Longest time the agent may take to answer this turn, in milliseconds.",
}
CASES = """\
test_cases:
  - name: latency
    turns:
      - input: what is the net cash?
        max_latency_ms: "5"
      - input: and in 2008?
        max_latncy_ms: 5
"""


def _schema_recipe() -> list[list[str]]:
    """The commands of `make schema`, each a script and its arguments."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    block = makefile.split("\nschema:", 1)[1].split("\n\n", 1)[0]
    lines = block.splitlines()[1:]
    return [line.removeprefix("\t$(PY) ").split() for line in lines if line.startswith("\t$(PY) ")]


def _run(copy: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, *argv], cwd=copy, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = copy_checkout(tmp_path_factory.mktemp("repository"))
    turn_file = copy / "schema" / "turn.schema.json"
    turn = json.loads(turn_file.read_text(encoding="utf-8"))
    turn["$defs"]["Turn"]["properties"][FIELD] = SPEC  # the one edit
    turn_file.write_text(json.dumps(turn, indent=2) + "\n", encoding="utf-8")
    where = _run(copy, "-c", "import holodeck_mt; print(holodeck_mt.__file__)").stdout
    assert Path(where.strip()).is_relative_to(copy), where  # the copy's code, not ours
    recipe = _schema_recipe()
    assert ["scripts/bundle_schema.py"] in recipe and ["scripts/gen_docs.py"] in recipe
    for command in recipe:
        done = _run(copy, *command)
        assert done.returncode == 0, done.stdout + done.stderr
    (copy / "cases.yaml").write_text(CASES, encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def diagnostics(copy: Path) -> list[dict[str, Any]]:
    done = _run(copy, "-m", "holodeck_mt", "validate", "--format", "json", "cases.yaml")
    assert done.returncode == 1, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)["files"][0]["diagnostics"]
    return found


def test_a_quoted_number_in_a_new_turn_field_is_the_platforms_conversion_warning(
    diagnostics: list[dict[str, Any]],
) -> None:
    warning = next(d for d in diagnostics if d["code"] == "HMT210")
    assert warning["severity"] == "warning"
    assert warning["path"] == f"turns[0].{FIELD}"
    assert warning["line"] == 5
    assert warning["message"] == (
        f'the platform reads {FIELD} "5" as the number 5; write {FIELD}: 5'
    )


def test_a_misspelt_new_turn_field_is_an_unknown_key_whose_hint_names_it(
    diagnostics: list[dict[str, Any]],
) -> None:
    unknown = next(d for d in diagnostics if d["code"] == "HMT100")
    assert unknown["path"] == "turns[1].max_latncy_ms"
    assert unknown["line"] == 7
    assert unknown["message"] == "unknown key 'max_latncy_ms' in turn"
    assert FIELD in unknown["hint"]
    assert sorted(d["code"] for d in diagnostics) == ["HMT100", "HMT210"]


@pytest.mark.parametrize(
    "bundle",
    ["schema/bundle/holodeck-mt.schema.json", "schemastore/src/schemas/json/holodeck-mt.json"],
)
def test_the_editor_bundle_offers_a_new_turn_field(copy: Path, bundle: str) -> None:
    schema = json.loads((copy / bundle).read_text(encoding="utf-8"))
    assert schema["$defs"]["Turn"]["properties"][FIELD]["type"] == "number"


def test_the_reference_documents_a_new_turn_field(copy: Path) -> None:
    reference = (copy / "docs" / "reference.md").read_text(encoding="utf-8")
    assert f"`{FIELD}`" in reference
    assert str(SPEC["description"]) in reference
