"""Loader findings of the hostile round: lines with CR-only endings, a key set three times,
and a merge key written with its tag (``!!merge <<:``).
"""

from __future__ import annotations

from pathlib import Path

from holodeck_mt.pipeline import validate_file, validate_text


def _found(path: Path) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for r in validate_file(path) for d in r.diagnostics]


def test_cr_only_line_endings_put_an_invalid_byte_on_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_bytes(b"test_cases:\r  - name: a\r    input: h\xffi\r")
    [(code, line, column)] = _found(path)
    assert (code, line, column) == ("HMT005", 3, 13)


def test_cr_only_line_endings_put_a_nul_on_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_bytes(b"test_cases:\r  - name: a\r    input: h\x00i\r")
    assert _found(path) == [("HMT005", 3, 13)]


def test_cr_only_line_endings_put_a_schema_error_on_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_bytes(b"test_cases:\r  - name: a\r    input: hi\r    bogus: 1\r")
    assert _found(path) == [("HMT100", 4, 5)]


def test_cr_only_line_endings_put_a_syntax_error_on_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_bytes(b"test_cases:\r  - name: a\r    input: [unclosed\r")
    [(code, line, column)] = _found(path)
    assert (code, line, column) == ("HMT001", 3, 12)  # where the bracket opened


def test_a_key_set_three_times_is_reported_at_each_repetition() -> None:
    text = "test_cases:\n  - name: a\n    input: one\n    input: two\n    input: three\n"
    result = validate_text(text)
    found = [(d.code, d.line, d.path, d.message) for d in result.diagnostics]
    assert found == [
        ("HMT002", 4, "input", "duplicate key 'input' (first set at line 3)"),
        ("HMT002", 5, "input", "duplicate key 'input' (first set at line 3), set for the 3rd time"),
    ]


def test_a_key_set_three_times_in_a_flow_mapping_is_reported_twice() -> None:
    result = validate_text("test_cases:\n  - {name: a, input: x, input: y, input: z}\n")
    assert [(d.code, d.line) for d in result.diagnostics] == [("HMT002", 2), ("HMT002", 2)]


def test_a_tagged_merge_key_merges_like_a_plain_one() -> None:
    text = "- &base {name: base, input: hi}\n- !!merge <<: *base\n  name: merged\n"
    result = validate_text(text, role="test-cases-file")
    assert result.diagnostics == []
    assert result.stats == {"test_cases": 2, "turns": 2}


def test_a_tagged_merge_key_of_a_scalar_is_an_error_at_its_line() -> None:
    result = validate_text("test_cases:\n  - name: a\n    input: hi\n    !!merge <<: 1\n")
    assert [(d.code, d.line) for d in result.diagnostics] == [("HMT003", 4)]


_ONE_TURN = "test_cases:\n  - name: a\n    turns:\n      - input: hi\n"


def test_a_sexagesimal_float_past_the_float_range_does_not_load_as_on_the_platform() -> None:
    # PyYAML sums the digits times powers of 60 as integers: past the float range the
    # platform's load raises, so this is an error at the value, not a crash or an inf.
    for written in ("1" + ":1" * 200 + ".5", "!!float 1" + ":1" * 200):
        text = f"{_ONE_TURN}        ground_truth: {written}\n"
        [d] = validate_text(text).diagnostics
        assert (d.code, d.line, d.column, d.path) == ("HMT007", 5, 23, "turns[0].ground_truth")


def test_an_infinite_first_sexagesimal_digit_is_infinite_as_on_the_platform() -> None:
    text = f"{_ONE_TURN}        ground_truth: !!float inf:5\n"
    [d] = validate_text(text).diagnostics
    assert (d.code, d.line) == ("HMT102", 5)
    assert d.message.endswith("got number .inf")
