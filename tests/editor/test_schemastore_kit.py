"""The SchemaStore kit passes SchemaStore's checks: Ajv 8 strict compiles its schema with
only the editor keywords declared, every file of src/test/ is valid, every file of
src/negative_test/ invalid (each parsed as YAML by Node, as SchemaStore's CLI does)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from holodeck_mt.contract.walker import EDITOR_KEYWORDS
from tests.editor.test_ajv_strict import require_ajv

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "editor" / "schemastore-check.js"
SRC = ROOT / "schemastore" / "src"


def test_every_positive_is_valid_and_every_negative_invalid_in_ajv_strict() -> None:
    require_ajv()
    done = subprocess.run(
        ["node", str(SCRIPT), str(SRC), "holodeck-mt", *sorted(EDITOR_KEYWORDS)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    positives = len(list((SRC / "test" / "holodeck-mt").glob("*.yaml")))
    negatives = len(list((SRC / "negative_test" / "holodeck-mt").glob("*.yaml")))
    assert lines[-1] == f"{positives + negatives} files, 0 wrong"
    assert sum(line.startswith("valid test/") for line in lines) == positives
    assert sum(line.startswith("invalid negative_test/") for line in lines) == negatives
