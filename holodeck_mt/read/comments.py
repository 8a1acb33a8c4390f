"""Which ``#`` of a text lie in a YAML comment: outside every token the scanner read.

Scanned by libyaml as far as the last offset asked about, and by the platform's
pure-Python scanner when libyaml stops on an error; past where both stopped, none is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from holodeck_mt.read.loader import PURE_MAX_CHARS


def in_comments(text: str, offsets: Sequence[int]) -> list[bool]:
    """For each of ``offsets`` (ascending, each a ``#``): whether it lies in a comment."""
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
    """Each offset's verdict by ``tokens``, and where the scan stopped on an error."""
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
    """Where a scanner's error leaves the text unread."""
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
