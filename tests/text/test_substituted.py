"""What a message shows of its marked pieces: told by where they came from, never by their
characters (the slow suite, ``tests/hostile/test_secrets_provenance.py``, holds the rest)."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, example, given, settings

from holodeck_mt.locate.provenance import resolve_pieces
from holodeck_mt.model import MARKS, OWN, derived, marked, unmarked
from tests.support.substituted_outputs import FILES, same_outputs, twins


def test_a_file_without_reference_shows_every_piece_and_no_mark() -> None:
    text = f"got {marked(repr('abc'))}; {derived('did you mean x?', 'nothing')}"
    assert unmarked(text) == "got 'abc'; did you mean x?"
    assert resolve_pieces(text, (), ()) == unmarked(text)


def test_a_piece_near_a_reference_is_named_by_it_whatever_its_length() -> None:
    for value in ("4", "42", "user1234,pa55word9999"):
        text = f"got string {marked(repr(value))}, then {marked(value, OWN)}"
        shown = resolve_pieces(text, ("DB",), ("DB",), written="${DB}")
        assert shown == "got string the value of `${DB}`, then `${DB}`"
        shown = resolve_pieces(text, (), ("DB", "GT"))
        assert shown == (
            "got string a value not shown (near `${DB}` and `${GT}`), then " + value
        )  # the own node came from no reference: it is shown


def test_a_piece_a_clip_cut_is_hidden_to_the_end() -> None:
    text = "got " + marked("'pa55word9999'")[:6]
    assert resolve_pieces(text, ("DB",), ("DB",)) == "got the value of `${DB}`"
    assert not any(mark in unmarked(text) for mark in MARKS)


def test_a_piece_from_elsewhere_is_named_by_its_origin() -> None:
    text = "tolerance " + marked("0.25", at=[(True, ("evaluations", "metrics", 0))])
    named = resolve_pieces(text, (), (), origin=lambda at: ("TOL",))
    assert named == "tolerance the value of `${TOL}`"
    assert resolve_pieces(text, (), (), origin=lambda at: ()) == "tolerance 0.25"
    assert unmarked(text) == "tolerance 0.25"


@settings(  # its example only: the slow suite draws twenty-five pairs of every file
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit],
)
@example(
    (
        FILES[0],
        {"HMT_A": "BC,DH", "HMT_B": "JK", "HMT_C": "42"},
        {"HMT_A": "QV,WM", "HMT_B": "PI", "HMT_C": "17"},
    )
)
@given(twins())
def test_two_values_of_one_shape_print_the_same_bytes(
    pair: tuple[str, dict[str, str], dict[str, str]],
) -> None:
    same_outputs(*pair)
