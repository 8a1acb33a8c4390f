"""A field both kinds of test case take needs one edit: its entry in the turn fields.

The repository's tracked files are copied into a scratch folder, one optional number
field is added to the ``properties`` of ``TurnFields`` (schema/turn.schema.json: the
fields a turn and a single-turn test case both take), and `make schema`'s recipe (read
from the Makefile, run with this interpreter) regenerates what derives from the schema.
In that copy, with no other edit: a turn and a single-turn test case both take the
field, read the platform's way (a quoted number is a warning that says how the platform
reads it); a multi-turn test case refuses it beside ``turns`` as it refuses ``input``;
both bundles offer it to editors in both places; the reference documents it; and a
misspelling of it is an unknown key whose hint names it, in a turn as in a test case; and
the copy's whole fast suite passes, so that no test holds a list of the fields by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, SAMPLES, copy_checkout

pytestmark = pytest.mark.slow  # copies the repository and starts processes

FIELD = "max_latency_ms"
SPEC: dict[str, Any] = {
    "type": "number",
    "minimum": 0,
    "description": "Longest time the agent may take to answer, in milliseconds.",
    "examples": [5000],
    "x-holodeck-yaml": "max_latency_ms: 5000",
}
CASES = """\
test_cases:
  - name: latency
    turns:
      - input: what is the net cash?
        max_latency_ms: "5"
      - input: and in 2008?
        max_latncy_ms: 5
  - name: single
    input: hello
    max_latency_ms: 5
  - name: single-quoted
    input: hello
    max_latency_ms: "7"
  - name: single-misspelt
    input: hello
    max_latncy_ms: 5
  - name: beside-turns
    max_latency_ms: 5
    turns:
      - input: hi
"""


def _schema_recipe() -> list[list[str]]:
    """The commands of `make schema`, each a script and its arguments."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    block = makefile.split("\nschema:", 1)[1].split("\n\n", 1)[0]
    lines = block.splitlines()[1:]
    return [line.removeprefix("\t$(PY) ").split() for line in lines if line.startswith("\t$(PY) ")]


def _run(copy: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "NO_COLOR": "1"}
    if SAMPLES.is_dir():  # the copy has no shared/ beside it: it reads the checkout's samples
        env["HOLODECK_MT_SAMPLES"] = str(SAMPLES)
    return subprocess.run(
        [sys.executable, *argv], cwd=copy, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = copy_checkout(tmp_path_factory.mktemp("repository"))
    turn_file = copy / "schema" / "turn.schema.json"
    turn = json.loads(turn_file.read_text(encoding="utf-8"))
    turn["$defs"]["TurnFields"]["properties"][FIELD] = SPEC  # the one edit
    turn_file.write_text(json.dumps(turn, indent=2) + "\n", encoding="utf-8")
    where = _run(copy, "-c", "import holodeck_mt; print(holodeck_mt.__file__)").stdout
    assert Path(where.strip()).is_relative_to(copy), where  # the copy's code, not ours
    recipe = _schema_recipe()
    assert ["-m", "scripts.bundle_schema"] in recipe and ["-m", "scripts.gen_docs"] in recipe
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


def _of(diagnostics: list[dict[str, Any]], case: str) -> list[dict[str, Any]]:
    return [d for d in diagnostics if d["test_case"] == case]


def test_the_schema_build_leaves_the_copy_checked(copy: Path) -> None:
    done = _run(copy, "scripts/schema_check.py")
    assert done.returncode == 0, done.stderr


def test_a_quoted_number_in_a_new_turn_field_is_the_platforms_conversion_warning(
    diagnostics: list[dict[str, Any]],
) -> None:
    warning = _of(diagnostics, "latency")[0]
    assert (warning["code"], warning["severity"]) == ("HMT210", "warning")
    assert (warning["path"], warning["line"]) == (f"turns[0].{FIELD}", 5)
    assert warning["message"] == (
        f'the platform reads {FIELD} "5" as the number 5; write {FIELD}: 5'
    )


def test_a_misspelt_new_turn_field_is_an_unknown_key_whose_hint_names_it(
    diagnostics: list[dict[str, Any]],
) -> None:
    unknown = _of(diagnostics, "latency")[1]
    assert unknown["code"] == "HMT100"
    assert (unknown["path"], unknown["line"]) == ("turns[1].max_latncy_ms", 7)
    assert unknown["message"] == "unknown key 'max_latncy_ms' in turn"
    assert unknown["hint"] == f"did you mean '{FIELD}'?"


def test_a_single_turn_test_case_takes_the_new_field_read_the_platforms_way(
    diagnostics: list[dict[str, Any]],
) -> None:
    assert _of(diagnostics, "single") == []
    [warning] = _of(diagnostics, "single-quoted")
    assert (warning["code"], warning["path"], warning["line"]) == ("HMT210", FIELD, 13)
    assert warning["message"] == (
        f'the platform reads {FIELD} "7" as the number 7; write {FIELD}: 7'
    )


def test_a_misspelt_new_field_on_a_single_turn_test_case_gets_the_did_you_mean(
    diagnostics: list[dict[str, Any]],
) -> None:
    [unknown] = _of(diagnostics, "single-misspelt")
    assert (unknown["code"], unknown["path"], unknown["line"]) == ("HMT100", "max_latncy_ms", 16)
    assert unknown["message"] == "unknown key 'max_latncy_ms' in single-turn test case"
    assert unknown["hint"] == f"did you mean '{FIELD}'?"


def test_a_multi_turn_test_case_refuses_the_new_field_beside_turns(
    diagnostics: list[dict[str, Any]],
) -> None:
    [refused] = _of(diagnostics, "beside-turns")
    assert (refused["code"], refused["path"], refused["line"]) == ("HMT105", FIELD, 18)
    assert refused["message"] == (
        f"`{FIELD}` is not allowed on a multi-turn test case (it has `turns`)"
    )
    assert len(diagnostics) == 5


@pytest.mark.parametrize(
    "bundle",
    ["schema/bundle/holodeck-mt.schema.json", "schemastore/src/schemas/json/holodeck-mt.json"],
)
def test_the_editor_bundle_offers_a_new_turn_field_in_both_places(copy: Path, bundle: str) -> None:
    definitions = json.loads((copy / bundle).read_text(encoding="utf-8"))["$defs"]
    for name in ("Turn", "SingleTurnTestCase"):
        offered = definitions[name]["properties"][FIELD]
        assert (offered["type"], offered["description"]) == ("number", SPEC["description"])
        assert offered["markdownDescription"] == (
            f"{SPEC['description']}\n\n```yaml\n{SPEC['x-holodeck-yaml']}\n```"
        )
        assert "x-holodeck-yaml" not in offered
        assert "doNotSuggest" not in offered
        assert definitions[name]["additionalProperties"] is False
    multi = definitions["MultiTurnTestCase"]
    assert multi["properties"][FIELD]["doNotSuggest"] is True
    assert FIELD in multi["propertyNames"]["pattern"]
    assert FIELD in multi["propertyNames"]["patternErrorMessage"]


def test_the_reference_documents_a_new_turn_field_in_both_places(copy: Path) -> None:
    reference = (copy / "docs" / "reference.md").read_text(encoding="utf-8")
    for name in ("Turn", "SingleTurnTestCase"):
        assert f"{name}.`{FIELD}`" in reference, name
    assert str(SPEC["description"]) in reference


@pytest.mark.recipe
def test_no_test_of_the_fast_suite_breaks_in_the_copy(copy: Path, tmp_path: Path) -> None:
    done = _run(
        copy,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-m",
        "not slow",
        "-x",
        "--basetemp",
        str(tmp_path / "runs"),
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
