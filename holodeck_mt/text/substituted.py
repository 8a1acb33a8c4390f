"""Each marked piece of input a message shows (``model.marked``) shown, or named by the
``${NAME}`` references it may hold (often secrets: a report reaches CI logs and editors)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from holodeck_mt.model import DERIVED, ORIGIN, OWN, PIECE, clip, unmarked


class Written(str):
    """What stands for a value that came from a reference (``${NAME}``): shown as is."""


def references(names: Sequence[str]) -> str:
    """```${A}```, ```${A}` and `${B}```."""
    shown = [f"`${{{name}}}`" for name in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def resolved(
    text: str,
    own: Sequence[str],
    near: Sequence[str],
    written: str | None = None,
    origin: Callable[[str], Sequence[str]] = lambda at: (),
) -> str:
    """``text`` with its marked pieces shown, or named by the references they may hold:
    ``own`` those the diagnostic's own node overlaps (``written``: that node as the file
    writes it, one line), ``near`` those of the test case (or section) around it, which any
    value shown from elsewhere may come from; ``origin`` gives those of the nodes a piece
    names as its origin (its ``json`` list). Only ranges decide, never characters."""

    def piece(match: re.Match[str]) -> str:
        kind, words, instead = match.group(1), match.group(2), match.group(3) or ""
        if kind == ORIGIN:
            came = origin(words)
            return f"the value of {references(came)}" if came else instead
        if kind == DERIVED:
            return instead if own else words
        if kind == OWN and not own:
            return words
        if kind == OWN and written is not None:
            return f"`{clip(written)}`"
        if own:
            return f"the value of {references(own)}"
        return f"a value not shown (near {references(near)})" if near else words

    return unmarked(PIECE.sub(piece, text))
