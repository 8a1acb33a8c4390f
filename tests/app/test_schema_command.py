"""``holodeck-mt schema`` prints the bundled schema; ``--path`` says where it is installed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "schema" / "bundle" / "holodeck-mt.schema.json"


def test_schema_prints_the_bundle_byte_for_byte(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    out = capsys.readouterr().out
    assert out == BUNDLE.read_text(encoding="utf-8")
    assert json.loads(out)["$id"].endswith("/holodeck-mt.schema.json")


def test_schema_path_prints_an_absolute_path_to_the_same_schema(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["schema", "--path"]) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert printed.is_absolute() and printed.is_file()
    assert printed.name == "holodeck-mt.schema.json"
    assert json.loads(printed.read_text(encoding="utf-8")) == json.loads(
        BUNDLE.read_text(encoding="utf-8")
    )


@pytest.mark.slow
def test_schema_path_works_from_another_folder_as_a_module(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "schema", "--path"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(done.stdout.strip()).is_file()
    assert done.stderr == ""
