"""Which ``#`` of a text is a comment's, as the YAML scanner reads the text."""

from __future__ import annotations

import pytest

from holodeck_mt.read.comments import in_comments


def _verdicts(text: str) -> list[bool]:
    return in_comments(text, [i for i, c in enumerate(text) if c == "#"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('a: "x # y"  # c\nb: |\n  # in block\n  z\n# top\n', [False, True, False, True]),
        ("k: 'it''s # no'\nq: x#y # yes\n", [False, False, True]),
        ("a: [b, c] # c\nd: [e] # x\n", [True, True]),
        ("a: >\n  folded # text\n\n  # more\nb: c\n", [False, False]),
        ("a: b # c\u2028d: 'e # f' # g\n", [True, False, True]),
        ("a: b\n# only comments\n#\n", [True, True]),
    ],
)
def test_a_hash_is_a_comment_only_outside_every_scalar(text: str, expected: list[bool]) -> None:
    assert _verdicts(text) == expected


def test_after_a_syntax_error_nothing_is_a_comment() -> None:
    # The open quoted scalar runs to the end: the scanner failed in it, from its start.
    assert _verdicts('a: 1 # c\nb: "open # y\n# after\n') == [True, False, False]
    assert _verdicts("a: 1 # c\n\tb: 2 # d\n") == [True, False]
    assert _verdicts("a: 1 # c\x00 # d\n") == [True, False]


def test_a_text_libyaml_refuses_is_scanned_as_the_platform_scans_it() -> None:
    # `[\:]`: libyaml refuses it, PyYAML's pure-Python scanner (the platform's) reads it.
    assert _verdicts("a: [\\:] # c\nb: 'd # e' # f\n") == [True, False, True]


def test_nothing_asked_scans_nothing() -> None:
    assert in_comments("a: [", []) == []
