"""The Python API: diagnostics for YAML text or for a path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from holodeck_mt import validate_file, validate_text
from holodeck_mt.pipeline import validate_document_text
from holodeck_mt.read import files


def test_validate_text_returns_located_diagnostics() -> None:
    result = validate_text(
        "- name: a\n  turns:\n    - input: x\n      count: 2\n", role="test-cases-file"
    )
    assert not result.valid
    (d,) = result.diagnostics
    assert (d.code, d.test_case, d.test_case_index, d.path, d.line, d.column) == (
        "HMT100",
        "a",
        0,
        "turns[0].count",
        4,
        7,
    )
    assert d.pointer == "/0/turns/0/count"


def test_validate_text_of_a_valid_document_has_no_diagnostics() -> None:
    result = validate_text("test_cases:\n  - input: hello\n    ground_truth: hi\n")
    assert result.valid and result.diagnostics == []
    assert result.stats == {"test_cases": 1, "turns": 1}


def test_validate_file_follows_test_cases_file(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text("test_cases_file: cases.yaml\n", encoding="utf-8")
    (tmp_path / "cases.yaml").write_text("test_cases:\n  - turns: []\n", encoding="utf-8")
    agent, cases = validate_file(tmp_path / "agent.yaml")
    assert agent.valid
    assert [d.code for d in cases.diagnostics] == ["HMT105"]
    assert cases.path == str(tmp_path / "cases.yaml")


@pytest.mark.parametrize("role", ["bogus", "agent", "", None, 1])
def test_a_role_that_is_not_one_of_the_two_is_a_value_error_naming_them(role: object) -> None:
    with pytest.raises(ValueError, match="role must be one of 'document', 'test-cases-file'"):
        validate_text("- input: hi\n", role=role)  # type: ignore[arg-type]


def test_a_test_cases_file_an_editor_holds_is_judged_from_its_text_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cases.yaml").write_bytes(b"- input: \xff\n")  # the saved text: not UTF-8
    read: list[Path] = []
    real = files.read

    def counted(path: Path, limit: int, **how: Any) -> files.Content:
        if limit:  # its place is checked, reading none of it
            read.append(path)
        return real(path, limit, **how)

    monkeypatch.setattr(files, "read", counted)
    results = validate_document_text(
        "name: a\ntest_cases_file: cases.yaml\n",
        path=str(tmp_path / "agent.yaml"),
        base_dir=tmp_path,
        followed_text="- input: hi\n  ground_truth: 7\n",
        tree=tmp_path,
    )
    assert read == []
    found = [(Path(r.path).name, d.code, d.line, d.path) for r in results for d in r.diagnostics]
    assert found == [("cases.yaml", "HMT102", 2, "ground_truth")]
