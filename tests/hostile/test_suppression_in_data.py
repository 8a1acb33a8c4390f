"""A suppression counts only in a comment: inside a quoted or block scalar it is data.

A pull request that hides ``# holodeck-mt: ignore-file`` in line 120 of a 200-line
prompt does not silence the file; the same directive written as a comment does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.locate.suppressions import read
from tests.conftest import RunJson

#: An unknown key at line 4 (HMT100), whatever the prompt above holds.
CASES = """\
- name: t
  input: |
{prompt}
  bogus: 1
"""


def _prompt(hidden: str) -> str:
    lines = [f"    line {i} of the prompt" for i in range(200)]
    lines[120] = f"    {hidden}"
    return "\n".join(lines)


def _found(run_json: RunJson, tmp_path: Path, text: str) -> tuple[int, list[tuple[str, int]]]:
    path = tmp_path / "cases.yaml"
    path.write_text(text, encoding="utf-8")
    code, document = run_json("--isolated", str(path))
    return code, [(d["code"], d["line"]) for f in document["files"] for d in f["diagnostics"]]


@pytest.mark.parametrize(
    "hidden",
    ["# holodeck-mt: ignore-file", "text # holodeck-mt: ignore-file[HMT100]"],
)
def test_a_directive_in_a_block_scalar_is_data(
    tmp_path: Path, run_json: RunJson, hidden: str
) -> None:
    text = CASES.format(prompt=_prompt(hidden))
    assert _found(run_json, tmp_path, text) == (1, [("HMT100", 203)])


@pytest.mark.parametrize(
    "value",
    [
        '"a # holodeck-mt: ignore-file"',
        "'a # holodeck-mt: ignore-file'",
        '"a\n    # holodeck-mt: ignore-file\n    b"',
        "a#holodeck-mt:ignore-file",
    ],
)
def test_a_directive_in_a_quoted_or_plain_scalar_is_data(
    tmp_path: Path, run_json: RunJson, value: str
) -> None:
    text = f"- name: t\n  input: {value}\n  bogus: 1\n"
    code, found = _found(run_json, tmp_path, text)
    assert code == 1 and [c for c, _ in found] == ["HMT100"]


def test_a_line_directive_in_a_string_on_the_line_is_data(
    tmp_path: Path, run_json: RunJson
) -> None:
    text = '- name: t\n  bogus: "# holodeck-mt: ignore[HMT100]"\n  input: q\n'
    assert _found(run_json, tmp_path, text) == (1, [("HMT100", 2)])


def test_the_same_directive_in_a_comment_counts(tmp_path: Path, run_json: RunJson) -> None:
    text = CASES.format(prompt=_prompt("line")) + "# holodeck-mt: ignore-file[HMT100]\n"
    assert _found(run_json, tmp_path, text) == (0, [])
    text = '- name: t  # "quoted" # holodeck-mt: ignore-file\n  input: q\n  bogus: 1\n'
    assert _found(run_json, tmp_path, text) == (0, [])
    text = '- name: t\n  bogus: "a # b" # holodeck-mt: ignore[HMT100]\n  input: q\n'
    assert _found(run_json, tmp_path, text) == (0, [])


def test_a_quoted_string_left_open_silences_nothing(tmp_path: Path, run_json: RunJson) -> None:
    """The rest of the text after a syntax error is nobody's comment: the error shows."""
    text = '- name: t\n  input: "open\n# holodeck-mt: ignore-file\n'
    code, found = _found(run_json, tmp_path, text)
    assert code == 1 and [c for c, _ in found] == ["HMT001"]


def test_directives_in_data_are_bounded() -> None:
    inside = '"# holodeck-mt: ignore-file"\n' * 50_000
    assert read("- " + inside.replace("\n", "\n- ") + "# holodeck-mt: ignore\n") == []
