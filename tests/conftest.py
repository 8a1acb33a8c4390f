"""Shared helpers: run the CLI in-process and read its JSON document."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SAMPLES = ROOT.parent / "shared" / "data" / "holodeck-samples"

RunJson = Callable[..., tuple[int, dict[str, Any]]]


@pytest.fixture
def run_json(capsys: pytest.CaptureFixture[str]) -> RunJson:
    """``run_json(*args) -> (exit code, JSON document)`` of ``validate ... --format json``."""

    def run(*args: str) -> tuple[int, dict[str, Any]]:
        code = main(["validate", *args, "--format", "json", "--jobs", "1"])
        out = capsys.readouterr().out
        return code, json.loads(out)

    return run
