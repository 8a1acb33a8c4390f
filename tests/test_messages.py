"""What a user reads, pinned word for word: paths, pointers, value phrases, escapes."""

from __future__ import annotations

from holodeck_mt.diagnostics import format_path, to_pointer


def test_a_path_writes_odd_keys_in_brackets_and_quotes() -> None:
    assert format_path(("turns", 2, "args", "a b", 'q"\\')) == 'turns[2].args["a b"]["q\\"\\\\"]'


def test_a_pointer_escapes_tilde_then_slash() -> None:
    assert to_pointer(("a~b", "c/d", 0)) == "/a~0b/c~1d/0"
