"""What came from a ``${NAME}`` reference is told by where it lies, never by its characters.

YAML can split one value (``files: [${DB}]`` with ``DB=user1234,pa55word9999`` is two
items), a value can be short (``GT=42``) or quoted: none of it is shown, in any output,
and two values of the same shape print byte for byte the same reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings

from tests.support.substituted_outputs import FILES, HEAD, outputs, same_outputs, twins

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


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a shrink runs every output again
)
@example(  # one value read as two keys of one flow mapping
    (
        FILES[1],
        {name: "3B690K6 -9,H" for name in ("HMT_A", "HMT_B", "HMT_C")},
        {name: "3C681H6 -8,B" for name in ("HMT_A", "HMT_B", "HMT_C")},
    )
)
@given(twins())
def test_two_values_of_one_shape_print_the_same_bytes(
    pair: tuple[str, dict[str, str], dict[str, str]],
) -> None:
    same_outputs(*pair)


def test_a_value_from_the_agent_is_hidden_in_the_test_cases_file(tmp_path: Path) -> None:
    agent = HEAD.replace("test_cases:\n", "") + (
        "evaluations:\n  metrics:\n"
        "    - {type: standard, metric: numeric, absolute_tolerance: ${HMT_TOL}}\n"
        "test_cases_file: cases.yaml\n"
    )
    (tmp_path / "cases.yaml").write_text(
        '- {name: a, input: q, ground_truth: "0.05",'
        " evaluations: [{type: standard, metric: numeric, absolute_tolerance: 0.001}]}\n"
        '- {name: b, input: q, ground_truth: "0.07"}\n'
    )
    shown = outputs(tmp_path, agent, {"HMT_TOL": "0.25"})
    _no_piece_of("0.25", shown)
    assert "(absolute_tolerance the value of `${HMT_TOL}`) apply nowhere" in shown["text"]
    (tmp_path / "cases.yaml").write_text('- {name: a, input: q, ground_truth: "0.05"}\n')
    shown = outputs(tmp_path, agent, {"HMT_TOL": "0.25"})
    _no_piece_of("0.25", shown)
    assert "`absolute_tolerance: the value of `${HMT_TOL}``" in shown["text"]
    assert 'ground truth "0.05"' in shown["text"]  # a literal stays shown


def test_a_value_that_breaks_the_yaml_is_not_quoted_by_the_syntax_error(tmp_path: Path) -> None:
    for written, value in (("${HMT_X}", "pa55: word9999"), ('"${HMT_X}"', "pa55\\qword9999")):
        text = HEAD + f"  - name: c\n    input: {written}\n    ground_truth: g\n"
        shown = outputs(tmp_path, text, {"HMT_X": value})
        _no_piece_of("pa55,word9999", shown)
        assert "HMT001" in shown["text"] and "the value of `${HMT_X}`" in shown["text"]


@pytest.mark.parametrize(
    "written",
    [
        "    input: *${HMT_X}\n",  # an undefined alias
        "    input: &${HMT_X} q\n    ground_truth: &${HMT_X} g\n",  # an anchor twice
        "    input: !${HMT_X} q\n",  # an unknown tag
        "    ${HMT_X}: q\n    ${HMT_X}: r\n",  # a duplicate key
    ],
)
def test_a_name_the_reader_quotes_is_not_shown(written: str, tmp_path: Path) -> None:
    text = HEAD + "  - name: c\n" + written + "    ground_truth: g\n" * ("ground" not in written)
    shown = outputs(tmp_path, text, {"HMT_X": "pa55word9999"})
    _no_piece_of("pa55word9999", shown)
    assert "${HMT_X}" in shown["text"]


def test_a_key_from_a_reference_is_looked_up_once_not_per_diagnostic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from holodeck_mt.locate.provenance import Provenance
    from holodeck_mt.pipeline import validate_text

    keys: list[tuple[str | int, ...]] = []
    real = Provenance.node

    def counted(self: Provenance, parts: tuple[str | int, ...], *, key: bool = False) -> object:
        if key:
            keys.append(parts)
        return real(self, parts, key=key)

    monkeypatch.setattr(Provenance, "node", counted)
    monkeypatch.setenv("HMT_K", "files")
    items = "".join("      - 3\n" for _ in range(50))
    text = HEAD + "  - name: c\n    input: q\n    ground_truth: g\n    ${HMT_K}:\n" + items
    found = validate_text(text, path="agent.yaml", workdir=tmp_path).diagnostics
    assert len(found) >= 50
    assert {d.path for d in found if d.code == "HMT102"} == {
        f'["${{HMT_K}}"][{i}]' for i in range(50)
    }
    assert len(keys) == len(set(keys)) <= 4  # test_cases, 0, the key: each once


def test_a_fix_whose_node_holds_substituted_text_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from holodeck_mt.pipeline import validate_text

    monkeypatch.setenv("HMT_X", "pa55word9999")
    text = "test_cases:\n  - {input: q, ground_truth: g}\nnotes: [${HMT_X}, b]\nother: [a, b]\n"
    found = validate_text(text, path="cases.yaml", role="test-cases-file", workdir=tmp_path)
    assert [(d.code, d.line, d.fix is None) for d in found.diagnostics] == [
        ("HMT215", 3, True),  # removing it would edit the reference's line
        ("HMT215", 4, False),
    ]
