"""What a message shows of a text whose ``${NAME}`` references were substituted: each piece
of input it shows was marked where it was worded (``model.marked``), and is resolved here by
where it came from, never by its characters. A value is often a secret, and a report
reaches CI logs, editors and caches."""

from __future__ import annotations

import re
from collections.abc import Sequence

from holodeck_mt.model import DERIVED, END, INSTEAD, MARKS, OWN, VALUE, clip, unmarked

#: A marked piece: its kind, its words, and (derived words) what stands for them; a piece
#: cut short by a clip runs to the end of the text.
_PIECE = re.compile(f"([{VALUE}{OWN}{DERIVED}])([^{MARKS}]*)(?:{INSTEAD}([^{MARKS}]*))?(?:{END}|$)")
_UNMARKED = dict.fromkeys(map(ord, MARKS))


class Written(str):
    """What stands for a value that came from a reference (``${NAME}``): shown as is."""


def reference(name: str) -> str:
    """How a reference is written: ``${NAME}``."""
    return "${" + name + "}"


def references(names: Sequence[str]) -> str:
    """```${A}```, ```${A}` and `${B}```."""
    shown = [f"`{reference(name)}`" for name in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


#: ``text`` as shown when none of what it marks came from a reference.
plain = unmarked


def resolved(text: str, own: Sequence[str], near: Sequence[str], written: str | None = None) -> str:
    """``text`` with its marked pieces shown, or named by the references they may hold:
    ``own`` those the diagnostic's own node overlaps (``written``: that node as the file
    writes it, one line), ``near`` those of the test case (or section) around it, which any
    value shown from elsewhere may come from. Only ranges decide, never characters."""

    def piece(match: re.Match[str]) -> str:
        kind, words, instead = match.group(1), match.group(2), match.group(3) or ""
        if kind == DERIVED:
            return instead if own else words
        if kind == OWN and not own:
            return words
        if kind == OWN and written is not None:
            return f"`{clip(written)}`"
        if own:
            return f"the value of {references(own)}"
        return f"a value not shown (near {references(near)})"

    if not near and not own:
        return plain(text)
    return _PIECE.sub(piece, text).translate(_UNMARKED)
