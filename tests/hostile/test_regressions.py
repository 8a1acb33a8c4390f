"""Every input the fuzzer saved (``make fuzz``) replays without a crash.

A saved input is a file that once made the validator raise, hang or take too
long. It must now load and validate into diagnostics like any other file.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bench import fuzz
from holodeck_mt.model import FileResult
from holodeck_mt.pipeline import validate_text
from holodeck_mt.read import loader
from holodeck_mt.render import FORMATS, renderer

REGRESSIONS = Path(__file__).resolve().parent / "regressions"
SAVED = sorted(p for p in REGRESSIONS.iterdir() if p.is_file()) if REGRESSIONS.is_dir() else []


@pytest.mark.parametrize("path", SAVED, ids=[p.name for p in SAVED])
def test_a_saved_fuzzer_input_validates_into_diagnostics(path: Path) -> None:
    text, problem = loader.decode(path.read_bytes())
    if text is None:
        assert problem is not None
        results = [FileResult(path=path.name, diagnostics=[problem])]
    else:
        results = [
            validate_text(text, path=path.name, role=role)
            for role in ("document", "test-cases-file")
        ]
    for result in results:
        for d in result.diagnostics:
            assert d.line >= 1
            assert d.column >= 1
    for name in FORMATS:
        out = io.StringIO()
        renderer(name)(results, out)
        fuzz.check_output(name, out.getvalue(), results)  # the fuzzer's budgets, replayed
