"""The "quote it" hint quotes the scalar exactly as written, so following it keeps the value."""

from __future__ import annotations

import pytest
import yaml

from holodeck_mt.pipeline import validate_text
from holodeck_mt.read import loader
from holodeck_mt.text.quoting import quoted


def _hints(ground_truth_lines: str) -> list[tuple[str, int, str | None]]:
    text = f"- name: t\n  input: hi\n  ground_truth: {ground_truth_lines}\n"
    result = validate_text(text, role="test-cases-file")
    return [(d.code, d.line, d.hint) for d in result.diagnostics]


@pytest.mark.parametrize(
    ("written", "hint"),
    [
        ("14.10", 'quote it: ground_truth: "14.10"'),
        ("0x1F", 'quote it: ground_truth: "0x1F"'),
        ("2024-01-31", 'quote it: ground_truth: "2024-01-31"'),
        ("-0.50", 'quote it: ground_truth: "-0.50"'),
        ("&answer 007", 'quote it: ground_truth: "007"'),
    ],
)
def test_the_hint_quotes_the_number_as_written_not_as_read(written: str, hint: str) -> None:
    assert _hints(written) == [("HMT102", 3, hint)]


def _read_as_string(scalar: str) -> bool:
    return isinstance(loader.load(f"v: {scalar}\n").data["v"], str)


@pytest.mark.parametrize("written", ["1e5", "1_000", "yes"])
def test_a_yaml_1_1_or_1_2_only_number_or_boolean_is_quoted_as_written(written: str) -> None:
    # Whichever YAML version reads these as non-strings, the hint keeps the characters.
    if _read_as_string(written):  # a string to the platform, a number to editors: a warning
        assert _hints(written) == [("HMT207", 3, f'"{written}" reads the same in YAML 1.1 and 1.2')]
    else:
        assert _hints(written) == [("HMT102", 3, f'quote it: ground_truth: "{written}"')]


def test_yes_and_1_000_are_read_as_the_platform_reads_them() -> None:
    if _read_as_string("yes"):
        pytest.skip("this loader reads YAML 1.2, where `yes` and `1_000` are strings")
    assert _hints("yes") == [("HMT102", 3, 'quote it: ground_truth: "yes"')]
    assert _hints("1_000") == [("HMT102", 3, 'quote it: ground_truth: "1_000"')]


def test_a_multi_line_date_is_quoted_folded_as_quoting_it_in_place_would_read() -> None:
    hints = _hints("2001-12-14\n    21:59:43.10-05:00")
    assert hints == [("HMT102", 3, 'quote it: ground_truth: "2001-12-14 21:59:43.10-05:00"')]
    # Quoting the two lines in place gives exactly the string the hint shows.
    fixed = 'v: "2001-12-14\n    21:59:43.10-05:00"\n'
    assert yaml.safe_load(fixed)["v"] == "2001-12-14 21:59:43.10-05:00"


def test_a_tool_name_in_a_flow_list_is_quoted_without_a_key() -> None:
    text = "- input: hi\n  expected_tools: [0x10, 1.50]\n"
    hints = [d.hint for d in validate_text(text, role="test-cases-file").diagnostics]
    assert hints == ['quote it: "0x10"', 'quote it: "1.50"']


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("14.10", '"14.10"'),
        ("a\\d", "'a\\d'"),
        ('say "x"', "'say \"x\"'"),
        ("it's \\ \"", "'it''s \\ \"'"),
        ("!!float 1", '"1"'),
        ("&a !!int 0o17", '"0o17"'),
        ("1\n  2", '"1 2"'),
        ('"already"', None),
        ("|\n  block", None),
        ("9" * 61, None),
    ],
)
def test_the_quotes_chosen_keep_every_character(written: str, expected: str | None) -> None:
    assert quoted(written) == expected
    if expected is not None:
        # The quoted text reads back as the scalar's characters (folded, without properties).
        plain = expected[1:-1].replace("''", "'") if expected[0] == "'" else expected[1:-1]
        assert yaml.safe_load(f"v: {expected}")["v"] == plain
