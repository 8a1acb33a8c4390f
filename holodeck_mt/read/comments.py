"""Which ``#`` of a text start or lie in a YAML comment, as the YAML scanner reads it.

A ``#`` inside a quoted or block scalar (a prompt, an expected answer) is the test's
data, not a comment. The scanner's tokens say where every scalar (and anchor, tag,
directive) lies; a ``#`` outside all of them is one the scanner skipped as a comment.
Tokens are scanned only as far as the last offset asked about, by libyaml, and by
PyYAML's pure-Python scanner (the platform's) when libyaml stops on an error it may
not share. Where neither scanner got (past a syntax error, from the start of the
token it failed in), no offset is known to be in a comment.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from holodeck_mt.read.parsers import PURE_MAX_CHARS


def in_comments(text: str, offsets: Sequence[int]) -> list[bool]:
    """For each of ``offsets`` (ascending, each a ``#`` of ``text``): whether it lies in a
    comment."""
    if not offsets:
        return []
    found, reached = _classify(text, offsets, _libyaml_tokens)
    if reached is not None and len(text) <= PURE_MAX_CHARS:
        pure, pure_reached = _classify(text, offsets, _pure_tokens)
        if pure_reached is None or pure_reached > reached:
            found = pure
    return found


def _classify(
    text: str, offsets: Sequence[int], tokens: Callable[[str], Iterator[Any]]
) -> tuple[list[bool], int | None]:
    """Each offset's verdict by ``tokens``, and where the scan stopped on an error (None:
    it did not, or not before the last offset)."""
    import yaml

    found = [False] * len(offsets)
    i = 0
    try:
        for token in tokens(text):
            start, end = token.start_mark.index, token.end_mark.index
            while i < len(offsets) and offsets[i] < start:
                found[i] = True  # between two tokens: skipped as a comment
                i += 1
            while i < len(offsets) and offsets[i] < end:
                i += 1  # inside a token: data
            if i == len(offsets):
                return found, None
    except yaml.YAMLError as e:  # a syntax error: from the token it is in, nothing is known
        stop = _stop(e)
        while i < len(offsets) and offsets[i] < stop:
            found[i] = True
            i += 1
        return found, stop
    found[i:] = [True] * (len(offsets) - i)  # after the last token
    return found, None


def _stop(error: Any) -> int:
    """Where a scanner's error leaves the text unread: the start of what it was scanning
    (a quoted scalar left open), else where it failed."""
    if isinstance(getattr(error, "position", None), int):  # a character no YAML allows
        return int(error.position)
    marks = (getattr(error, "context_mark", None), getattr(error, "problem_mark", None))
    return min((m.index for m in marks if m is not None), default=0)


def _libyaml_tokens(text: str) -> Iterator[Any]:
    from yaml._yaml import CParser

    parser = CParser(text)
    while (token := parser.get_token()) is not None:
        yield token


def _pure_tokens(text: str) -> Iterator[Any]:
    from yaml import SafeLoader

    loader = SafeLoader(text)
    try:
        while loader.check_token():
            yield loader.get_token()  # type: ignore[no-untyped-call]
    finally:
        loader.dispose()
