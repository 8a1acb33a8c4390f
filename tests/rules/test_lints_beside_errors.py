"""The run-time lints beside errors, as the user reads them: a lint is reported whatever
else is wrong with the file, but not in a test case showing an error (what it will run is
unknown until the error is fixed); an error not shown (a suppression comment, ``--ignore``,
``--select``) silences its own diagnostic and nothing else.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.app.cli import main

FILE = """\
test_cases:
  - name: broken
    turns:
      - input: "subtract"
        colour: red{comment}
        expected_tools:
          - name: subtract
            args:
              a: {{ fuzzy: "$181,001" }}
"""
SILENCED = "  # holodeck-mt: ignore[HMT100]"


def _validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], comment: str, *options: str
) -> tuple[int, list[str]]:
    path = tmp_path / "agent.yaml"
    path.write_text(FILE.format(comment=comment), encoding="utf-8")
    code = main(["validate", "--jobs", "1", *options, str(path)])
    return code, capsys.readouterr().out.splitlines()


def test_a_silenced_error_hides_no_lint_of_its_test_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _validate(tmp_path, capsys, SILENCED)
    assert code == 0
    assert out[0].endswith(
        "agent.yaml:9:27: warning[HMT306] test case 'broken' (#0) "
        "turns[0].expected_tools[0].args.a.fuzzy: the fuzzy matcher does not normalise "
        '"$": "$181,001" keeps it, so it never matches a number argument'
    )
    assert out[-1] == "All 1 file valid (1 warning)."


def test_a_test_case_showing_an_error_is_not_linted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _validate(tmp_path, capsys, "")
    assert code == 1
    assert [
        line.split(": ", 1)[1] for line in out if ": error[" in line or ": warning[" in line
    ] == ["error[HMT100] test case 'broken' (#0) turns[0].colour: unknown key 'colour' in turn"]
    assert out[-1] == "Found 1 error and 0 warnings in 1 of 1 file."


@pytest.mark.parametrize("options", [("--ignore", "HMT100"), ("--select", "HMT306")])
def test_a_deselected_error_hides_no_lint_either(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: tuple[str, ...]
) -> None:
    code, out = _validate(tmp_path, capsys, "", *options)
    assert code == 0
    assert "warning[HMT306] test case 'broken' (#0)" in out[0]
    assert out[-1] == "All 1 file valid (1 warning)."
