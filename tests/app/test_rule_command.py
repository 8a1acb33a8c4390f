"""``holodeck-mt rule CODE`` prints a code's documentation offline, with its example."""

from __future__ import annotations

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.rules.registry import REGISTRY
from holodeck_mt.urls import REPOSITORY


def _rule(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["rule", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_code_prints_its_meaning_example_output_and_link(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _rule(capsys, "HMT102")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "## HMT102"
    assert "**wrong-type** (error). A value has the wrong type." in lines
    # The example file, then what the validator prints for it, hint included.
    assert "`docs/examples/HMT102.yaml`:" in lines
    assert "        ground_truth: 25587" in lines
    assert "`holodeck-mt validate docs/examples/HMT102.yaml` prints (exit code 1):" in lines
    assert '  hint: quote it: ground_truth: "25587"' in lines
    assert lines[-1] == f"Documentation: {REPOSITORY}/blob/main/docs/diagnostics.md#hmt102"


def test_a_rule_of_its_own_module_adds_the_modules_documentation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _rule(capsys, "HMT305")
    assert code == 0
    assert "HMT305: a regex matcher that matches an integer's digits but not its float form." in out
    assert out.index("```text") < out.index("HMT305: a regex matcher")


@pytest.mark.parametrize("name", ["hmt102", "wrong-type", " HMT102 "])
def test_a_code_in_lower_case_or_a_rule_name_finds_the_same_entry(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, _ = _rule(capsys, name)
    assert code == 0
    assert out.startswith("## HMT102\n")


def test_a_retired_code_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _rule(capsys, "HMT202")
    assert code == 0
    assert "**unknown-top-level-key** (retired)." in out


def test_an_unknown_code_is_a_usage_error_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _rule(capsys, "HMT999\x1b[31m")
    assert (code, out) == (2, "")
    assert err == (
        "holodeck-mt: error: no code or rule named 'HMT999\\x1b[31m'; "
        "`holodeck-mt rule --list` lists every one\n"
    )


def test_neither_a_code_nor_all_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["rule"])
    assert exited.value.code == 2
    assert "one of the arguments CODE --all --list is required" in capsys.readouterr().err


def test_all_prints_every_code_in_the_registrys_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _rule(capsys, "--all")
    assert code == 0
    headings = [line[3:] for line in out.splitlines() if line.startswith("## ")]
    assert headings == [entry.code for entry in REGISTRY]
