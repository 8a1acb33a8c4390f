"""``${NAME}`` substituted before parsing, as the platform does, every position in the file
as written (holodeck_mt/read/substitution.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt import validate_text
from holodeck_mt.model import Diagnostic
from holodeck_mt.read import substitution

METRIC = """\
test_cases:
  - input: hi
    ground_truth: "4"
evaluations:
  metrics:
    - type: standard
      metric: bleu
      threshold: ${HMT_T}
"""


@pytest.fixture(autouse=True)
def _no_env_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No `.env` of the repository or of the user's home is read, unless a test writes one."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("HMT_T", "HMT_KEY", "HMT_X"):
        monkeypatch.delenv(name, raising=False)


def _seen(text: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in _diagnostics(text)]


def _diagnostics(text: str) -> list[Diagnostic]:
    return validate_text(text, path="agent.yaml").diagnostics


def test_an_unset_variable_in_a_number_field_is_only_the_hmt213_warning() -> None:
    assert _seen(METRIC) == [("HMT213", 8, 18)]


def test_a_variable_set_to_a_number_makes_the_number_field_valid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HMT_T", "0.7")
    assert _seen(METRIC) == []


@pytest.mark.parametrize("braces", [0, 1, 1023, 1024, 1025, 3000])
def test_a_variable_after_many_braces_is_substituted_all_the_same(
    monkeypatch: pytest.MonkeyPatch, braces: int
) -> None:
    monkeypatch.setenv("HMT_T", "0.7")
    comments = "".join(f"# {{ }} {i}\n" for i in range(braces))
    assert _seen(comments + METRIC) == []


def test_a_variable_set_to_a_word_is_the_type_error_at_its_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HMT_T", "hot")
    [d] = _diagnostics(METRIC)
    assert (d.code, d.line, d.column, d.path) == (
        "HMT102",
        8,
        18,
        "evaluations.metrics[0].threshold",
    )
    assert d.message == "`threshold` must be a number, got string `${HMT_T}`"


def test_an_unset_reference_in_a_flow_mapping_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "name: a\nmodel: {provider: openai, name: gpt-4o, api_key: ${HMT_KEY}}\n" + (
        "instructions: {inline: x}\ntest_cases:\n  - input: hi\n"
    )
    assert _seen(text) == [("HMT213", 2, 50)]
    monkeypatch.setenv("HMT_KEY", "sk-123")
    assert _seen(text) == []


def test_a_value_that_breaks_the_yaml_is_a_syntax_error_at_its_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HMT_KEY", "a, b: c}")
    text = "test_cases:\n  - {input: ${HMT_KEY}, ground_truth: x}\n"
    [d] = _diagnostics(text)
    assert d.code == "HMT001" and d.line == 2
    assert 13 <= d.column <= 13 + len("${HMT_KEY}")


def test_a_longer_value_leaves_later_columns_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HMT_X", "a value much longer than its reference")
    text = "test_cases:\n  - {input: ${HMT_X}, ground_truth: 5}\n"
    [d] = _diagnostics(text)
    assert (d.code, d.line, d.column) == ("HMT102", 2, 37)
    assert text.splitlines()[1][d.column - 1] == "5"


def test_a_variable_in_dot_env_counts_as_set(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("HMT_T=0.7\n", encoding="utf-8")
    assert _seen(METRIC) == []


def test_the_environment_wins_over_dot_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("HMT_T=0.7\n", encoding="utf-8")
    monkeypatch.setenv("HMT_T", "hot")
    assert [d.code for d in _diagnostics(METRIC)] == ["HMT102"]


def test_the_users_holodeck_env_counts_after_the_working_folders(tmp_path: Path) -> None:
    home = tmp_path / "home" / ".holodeck"
    home.mkdir(parents=True)
    (home / ".env").write_text("HMT_T=hot\n", encoding="utf-8")
    assert [d.code for d in _diagnostics(METRIC)] == ["HMT102"]
    (tmp_path / ".env").write_text("HMT_T=0.5\n", encoding="utf-8")
    assert _seen(METRIC) == []


def test_a_dot_env_that_is_a_folder_is_passed_over_too_large_refused(tmp_path: Path) -> None:
    (tmp_path / ".env").mkdir()
    assert _seen(METRIC) == [("HMT213", 8, 18)]
    (tmp_path / ".env").rmdir()
    (tmp_path / ".env").write_text(
        "HMT_T=0.7\n" + "#" * substitution.MAX_ENV_FILE, encoding="utf-8"
    )
    assert _seen(METRIC) == [("HMT213", 8, 18), ("HMT213", 8, 18)]  # the refusal, the unset


def test_offsets_map_back_around_each_replaced_reference() -> None:
    sub = substitution.substitute("a: ${A} b: ${B}\n", {"A": "1234567890", "B": ""})
    assert sub.text == "a: 1234567890 b: \n"
    assert sub.original(3) == 3  # the value's start: the reference's
    assert sub.original(8) == 3  # inside the value
    assert sub.original(13, end=True) == 7  # the value's end: the reference's
    assert sub.original(14) == 8  # after it, shifted back
    assert sub.original(17) == 15  # after the empty value
