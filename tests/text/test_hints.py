"""How a value is shown in every message (``holodeck_mt.wording.hints``): escaped as JSON
escapes it, clipped, written the way YAML and JSON write values."""

from __future__ import annotations

import difflib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holodeck_mt.model import MARKS, VALUE
from holodeck_mt.model import unmarked as plain
from holodeck_mt.text.safe_text import escape_as_json as safe
from holodeck_mt.wording import hints
from holodeck_mt.wording.hints import close_match, did_you_mean


def quote(text: str, limit: int = 60) -> str:
    """``hints.quote`` as shown where no reference is near: marked, then plain."""
    marked = hints.quote(text, limit)
    assert marked[0] == VALUE and not any(m in marked[1:-1] for m in MARKS)
    return plain(marked)


def literal(value: Any, limit: int = 60) -> str:
    marked = hints.literal(value, limit)
    assert marked[0] == VALUE and not any(m in marked[1:-1] for m in MARKS)
    return plain(marked)


@pytest.mark.parametrize(
    "character",
    [
        "\x00",
        "\x1b",
        "\x7f",
        "\x85",  # C1
        "\u200f",  # right-to-left mark (format)
        "\u202e",  # right-to-left override
        "\u2028",  # line separator
        "\u2029",  # paragraph separator
        "\ue000",  # private use
        "\u0378",  # unassigned
        "\U000e0001",  # a format character beyond the basic plane: a surrogate pair
        "\U000f0000",  # private use beyond the basic plane
    ],
)
def test_a_character_that_could_act_on_a_terminal_is_escaped_as_json_escapes_it(
    character: str,
) -> None:
    assert safe(f"a{character}b") == f"a{json.dumps(character)[1:-1]}b"


@pytest.mark.parametrize("text", ["plain", "é ü ß", "tab\there", "日本語", "emoji 😀", ""])
def test_printable_text_and_tabs_stay_as_they_are(text: str) -> None:
    expected = text.replace("\t", "\\u0009")
    assert safe(text) == expected


def test_a_newline_is_escaped_unless_kept() -> None:
    assert safe("a\nb") == "a\\u000ab"
    assert safe("a\nb", keep="\n") == "a\nb"
    assert safe("a\n\x1bb", keep="\n") == "a\n\\u001bb"


def test_quote_writes_a_json_string_clipped_to_its_limit() -> None:
    assert quote("ab") == '"ab"'
    assert quote('say "hi"') == '"say \\"hi\\""'
    assert quote("a\x1b") == '"a\\u001b"'
    assert quote("a" * 70) == '"' + "a" * 59 + '…"'
    assert quote("a" * 10, limit=5) == '"aaaa…"'
    assert quote("a" * 60) == '"' + "a" * 60 + '"'


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (True, "true"),
        (False, "false"),
        (None, "null"),
        ([1, 2], "[1, 2]"),
        ({"a": 1}, '{"a": 1}'),
        (1.5, "1.5"),
        (206588, "206588"),
        ("x", '"x"'),
        (float("inf"), "Infinity"),
        (float("nan"), "NaN"),
        (10**70, "1" + "0" * 58 + "…"),
        (b"\x00", "b'\\x00'"),
        ({1, 2}, "{1, 2}"),
    ],
)
def test_literal_writes_a_value_the_way_yaml_and_json_write_it(value: Any, shown: str) -> None:
    assert literal(value) == shown


def test_literal_clips_a_long_value_and_escapes_what_it_holds() -> None:
    assert literal(["\x1b"]) == '["\\u001b"]'
    assert literal(list(range(40)), limit=10) == "[0, 1, 2,…"


def test_a_lone_surrogate_and_a_noncharacter_are_escaped() -> None:
    assert safe("a\ud800b") == "a\\ud800b"
    assert safe("\uffff") == "\\uffff"


def test_literal_keeps_non_ascii_text_as_written() -> None:
    assert literal(["é", "日本"]) == '["é", "日本"]'
    assert literal({"ü": 1}) == '{"ü": 1}'


_NAMES = ["input", "ground_truth", "expected_tools", "name", "turns", "files", "regex", "fuzzy"]


@given(st.text(alphabet="abcdefghinprstu_", max_size=20), st.sampled_from([0.6, 0.7]))
def test_a_close_match_is_difflibs(word: str, cutoff: float) -> None:
    found = difflib.get_close_matches(word, _NAMES, n=1, cutoff=cutoff)
    assert close_match(word, _NAMES, cutoff) == (found[0] if found else None)


def test_a_word_too_long_to_be_a_typo_is_compared_with_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refused(*_: object, **__: object) -> None:
        raise AssertionError("a megabyte word was indexed")

    monkeypatch.setattr(difflib, "SequenceMatcher", refused)
    assert close_match("input" * 200_000, _NAMES, 0.6) is None
    assert did_you_mean("input" * 200_000, _NAMES) is None
