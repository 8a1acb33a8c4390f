"""What came from a ``${NAME}`` reference is told by where it lies, never by its characters.

YAML can split one value (``files: [${DB}]`` with ``DB=user1234,pa55word9999`` is two
items), a value can be short (``GT=42``) or quoted: none of it is shown, in any output,
and two values of the same shape print byte for byte the same reports.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from tests.support.substituted_outputs import outputs

HEAD = """\
name: a
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer.}
test_cases:
"""
SPLIT = HEAD + "  - {name: c, input: q, ground_truth: g, files: [${HMT_DB}]}\n"
DB = "user1234,pa55word9999"


def _no_piece_of(value: str, shown: dict[str, str]) -> None:
    for name, out in shown.items():
        for piece in value.split(","):
            assert piece not in out, (name, piece, out)


def test_a_value_yaml_splits_is_shown_in_no_output(tmp_path: Path) -> None:
    shown = outputs(tmp_path, SPLIT, {"HMT_DB": DB})
    _no_piece_of(DB, shown)
    assert "`files[1]` must be a mapping, got string `${HMT_DB}`" in shown["text"]
    assert "`files[1]` must be a mapping, got string `${HMT_DB}`" in shown["lsp"]
    assert "${HMT_DB}" in shown["sarif"] and "HMT\\_DB" in shown["markdown"]


def test_the_same_from_dot_env(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"HMT_DB={DB}\n")
    shown = outputs(tmp_path, SPLIT, {})
    _no_piece_of(DB, shown)
    assert "got string `${HMT_DB}`" in shown["json"]


def test_a_short_value_is_hidden_and_its_fix_dropped(tmp_path: Path) -> None:
    text = HEAD + "  - name: c\n    input: q\n    ground_truth: ${HMT_GT}\n"
    shown = outputs(tmp_path, text, {"HMT_GT": "42"})
    assert "42" not in shown["text"].replace("agent.yaml:", "")
    assert "got integer `${HMT_GT}`" in shown["text"]
    assert '"42"' not in shown["fix"] and "Would fix 0" in shown["fix"]


def test_a_quoted_value_in_an_integer_field(tmp_path: Path) -> None:
    text = HEAD + (
        "  - name: c\n    input: q\n    ground_truth: g\n"
        '    expected_tools: [{name: t, count: "${HMT_N}"}]\n'
    )
    shown = outputs(tmp_path, text, {"HMT_N": "12345678"})
    _no_piece_of("12345678", shown)
    assert "${HMT_N}" in shown["text"]


def test_a_name_and_a_key_from_a_reference_are_shown_as_written(tmp_path: Path) -> None:
    text = HEAD + "  - name: case-${HMT_X}\n    input: q\n    ${HMT_X}: 1\n"
    shown = outputs(tmp_path, text, {"HMT_X": "QZJW"})
    _no_piece_of("QZJW", shown)
    assert "test case 'case-${HMT_X}' (#0)" in shown["text"]
    assert '"path": "${HMT_X}"' in shown["json"] or "${HMT_X}" in shown["json"]


def test_a_literal_beside_a_reference_elsewhere_is_shown(tmp_path: Path) -> None:
    text = HEAD + (
        "  - {name: a, input: '${HMT_X}', ground_truth: g}\n"
        "  - {name: b, input: q, ground_truth: 25587}\n"
    )
    shown = outputs(tmp_path, text, {"HMT_X": "secret-words-here"})
    _no_piece_of("secret-words-here", shown)
    assert "got integer 25587" in shown["text"]
    assert '+  - {name: b, input: q, ground_truth: "25587"}' in shown["fix"]


# --- two values of the same shape: the same bytes in every output -------------------------

#: Letters forming no YAML keyword and no key of the schema; literals in the files are
#: lowercase, so no substituted value equals one.
LETTERS = "BCDHIJKMPQVW"
DIGITS = "0123456789"
SPECIAL = ", -"
FILES = (
    HEAD + "  - name: case-${HMT_A}\n    input: ${HMT_B}\n    ground_truth: ${HMT_C}\n"
    "    files: [${HMT_A}]\n",
    HEAD + "  - name: ${HMT_B}\n    input: q\n    ground_truth: g\n"
    "    expected_tools: [${HMT_A}, {name: t, args: {${HMT_C}: 1}}]\n",
    HEAD + "  - name: x\n    turns:\n      - input: ${HMT_A}\n        ground_truth: ${HMT_B}\n"
    "        ${HMT_C}: 1\n  - {name: y, input: q, ground_truth: 3}\n",
    HEAD + '  - name: "${HMT_A}"\n    input: q-${HMT_B}\n    ground_truth: g\n'
    "    evaluations: [{metric: ${HMT_C}, threshold: 0.5}]\n",
)


def _shape(text: str) -> object:
    """The structure of types ``yaml.safe_load`` reads, or that it fails."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return "fails"

    def of(node: object) -> object:
        if isinstance(node, dict):
            return [(of(k), of(v)) for k, v in node.items()]
        if isinstance(node, list):
            return [of(item) for item in node]
        return type(node).__name__

    return of(data)


_value = st.text(alphabet=LETTERS + DIGITS + SPECIAL, min_size=1, max_size=12).filter(
    lambda v: v.strip(" ") == v and v.strip("-,") == v
)


@st.composite
def _twins(draw: st.DrawFn) -> tuple[str, dict[str, str], dict[str, str]]:
    text = draw(st.sampled_from(FILES))
    letters = draw(st.permutations(LETTERS))
    digits = draw(st.permutations(DIGITS))
    table = str.maketrans(LETTERS + DIGITS, "".join(letters) + "".join(digits))
    one = {name: draw(_value) for name in ("HMT_A", "HMT_B", "HMT_C")}
    two = {name: value.translate(table) for name, value in one.items()}
    return text, one, two


def _substituted(text: str, variables: dict[str, str]) -> str:
    for name, value in variables.items():
        text = text.replace("${" + name + "}", value)
    return text


def _same_outputs(text: str, one: dict[str, str], two: dict[str, str]) -> None:
    assume(one != two)
    assume(_shape(_substituted(text, one)) == _shape(_substituted(text, two)))
    with tempfile.TemporaryDirectory() as folder:
        first = outputs(Path(folder), text, one)
        second = outputs(Path(folder), text, two)
    for name in first:
        assert first[name] == second[name], name


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a shrink runs every output again
)
@given(_twins())
def test_two_values_of_one_shape_print_the_same_bytes(
    twins: tuple[str, dict[str, str], dict[str, str]],
) -> None:
    _same_outputs(*twins)
