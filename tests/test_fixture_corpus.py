"""The fixture corpus: every invalid file yields exactly its expected diagnostics.

Each fixture under ``tests/fixtures/invalid`` and ``tests/fixtures/warnings``
names its rule (``# rule:``), optional CLI options (``# options:``) and every
diagnostic it must produce (``# expect: {json}``: code, test case, index, path,
line; ``file`` for a diagnostic in a referenced test-cases file; ``message`` and
``hint``, word for word, where given: what the user reads). Nothing else may be reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.rules.registry import CODES
from tests.conftest import FIXTURES, ROOT, RunJson, fixture_header

GENERIC_WORDING = (
    "is not valid under any of the given schemas",
    "is valid under each of",
    "oneOf",
    "anyOf",
    "Failed validating",
)


def _fixtures() -> list[Path]:
    found = []
    for folder in ("invalid", "warnings"):
        for path in sorted((FIXTURES / folder).rglob("*.yaml")):
            if "# expect:" in path.read_text(encoding="utf-8", errors="replace"):
                found.append(path)
    return found


FIXTURE_FILES = _fixtures()


def _key(item: dict[str, Any], fixture: Path, file_path: str) -> tuple[Any, ...]:
    target = (fixture.parent / item["file"]).resolve() if "file" in item else fixture.resolve()
    if file_path:
        target = Path(file_path).resolve()
    return (
        str(target),
        item["code"],
        item["test_case"],
        item["test_case_index"],
        item["path"],
        item["line"],
    )


#: The CLI's exit code and JSON report on each fixture, run once for the tests below.
_REPORTS: dict[Path, tuple[int, dict[str, Any]]] = {}


@pytest.fixture(scope="module", autouse=True)
def _reports_of_this_run() -> Iterator[None]:
    """The reports are this run's: a second test run in the same process (mutmut's, on
    mutated code) runs the validator again."""
    _REPORTS.clear()
    yield
    _REPORTS.clear()


def _reported(fixture: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``validate`` with the fixture's options, from the root, on its relative path."""
    if fixture not in _REPORTS:
        monkeypatch.chdir(ROOT)
        options, _ = fixture_header(fixture)
        _REPORTS[fixture] = run_json(*options, str(fixture.relative_to(ROOT)))
    return _REPORTS[fixture]


def _id(path: Path) -> str:
    return str(path.relative_to(FIXTURES).with_suffix(""))


def test_corpus_is_not_empty() -> None:
    assert len(FIXTURE_FILES) >= 20


def test_every_code_is_produced_and_worded_by_a_fixture() -> None:
    """Each catalogued code has a fixture that pins its message and hint word for word."""
    worded = {
        item["code"]
        for fixture in FIXTURE_FILES
        for item in fixture_header(fixture)[1]
        if "message" in item and "hint" in item
    }
    assert sorted({c for c in CODES if not CODES[c].retired} - worded) == []


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=_id)
def test_fixture_reports_exactly_its_expected_diagnostics(
    fixture: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, document = _reported(fixture, run_json, monkeypatch)
    _, expected = fixture_header(fixture)
    actual = Counter(
        _key(d, fixture, f["path"]) for f in document["files"] for d in f["diagnostics"]
    )
    wanted = Counter(_key(e, fixture, "") for e in expected)
    assert actual == wanted
    hints = {
        _key(d, fixture, f["path"]): d["hint"] for f in document["files"] for d in f["diagnostics"]
    }
    messages = {
        _key(d, fixture, f["path"]): d["message"]
        for f in document["files"]
        for d in f["diagnostics"]
    }
    for item in expected:
        if "message" in item:
            assert messages[_key(item, fixture, "")] == item["message"]
        if "hint" in item:
            assert hints[_key(item, fixture, "")] == item["hint"]
    has_error = any(d["severity"] == "error" for f in document["files"] for d in f["diagnostics"])
    assert code == (1 if has_error else 0)


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=_id)
def test_messages_are_one_specific_line(
    fixture: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, document = _reported(fixture, run_json, monkeypatch)
    for file in document["files"]:
        for d in file["diagnostics"]:
            for text in (d["message"], d["hint"] or ""):
                assert "\n" not in text and "\r" not in text
                for generic in GENERIC_WORDING:
                    assert generic not in text
            assert d["line"] >= 1 and d["column"] >= 1
            assert d["pointer"] == "" or d["pointer"].startswith("/")
