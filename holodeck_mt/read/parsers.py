"""The YAML syntax readers: PyYAML's libyaml binding, checked against its pure-Python parser.

The platform parses with the pure-Python parser, several times slower than libyaml; where
the two may part (``[\\:]``, a stray tab, ``|#``, ``[http://x?y=1]``, ``[!!str, x]``, an
inner byte-order mark, a text libyaml refuses), the pure-Python parser decides.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from holodeck_mt.text.lines import LINE_BREAKS, YAML_BREAKS

#: The largest text the pure-Python parser (about 1 MB/s) reads again.
PURE_MAX_CHARS = 8 * 1024 * 1024

#: A block scalar header the pure-Python parser takes (spaces, not tabs, before a comment).
_BLOCK_HEADER = re.compile(
    rf"[|>](?:[-+][0-9]?|[0-9][-+]?)?(?: +#[^{LINE_BREAKS}]*| *)(?:[{LINE_BREAKS}]|\Z)"
)


class EventSource(NamedTuple):
    """``get_event()`` over a text, and ``close()`` to free the parser."""

    get_event: Callable[[], Any]
    close: Callable[[], None]


def libyaml(text: str) -> EventSource:
    # PyYAML is imported on first use: the compiled builder's runs never need it.
    try:
        from yaml._yaml import CParser
    except ImportError as missing:  # pragma: no cover - exercised only without libyaml
        raise ImportError(
            "holodeck-mt needs PyYAML built with libyaml (its C binding, yaml.CParser); "
            "reinstall PyYAML from a wheel: pip install --force-reinstall 'PyYAML>=6.0.1'"
        ) from missing
    parser = CParser(text)
    return EventSource(parser.get_event, lambda: None)


def pure(text: str) -> EventSource:
    from yaml import SafeLoader

    loader = SafeLoader(text)
    return EventSource(loader.get_event, loader.dispose)


def libyaml_may_differ(text: str, scalars: list[tuple[int, int, str]]) -> bool:
    """Whether the pure-Python parser could read the text otherwise (``scalars``: spans)."""
    if text.find("\ufeff", 1) >= 0:
        return True
    spans = []
    for start, end, style in scalars:
        indicator = text.find(style, start, end)  # after the node's anchor and tag
        if indicator < 0:
            return True
        if style in "|>" and _BLOCK_HEADER.match(text, indicator) is None:
            return True
        spans.append((indicator, end))
    return "\t" in text and stray_tab(text, spans) is not None


def stray_tab(text: str, spans: list[tuple[int, int]]) -> int | None:
    """The offset of the first tab outside the ``spans`` of scalars and outside a comment."""
    starts = [start for start, _ in spans]
    tab = text.find("\t")
    while tab >= 0:
        inside = _span_at(spans, starts, tab)
        if inside is not None:
            tab = text.find("\t", inside[1])
            continue
        line_start = max(text.rfind(brk, 0, tab) for brk in LINE_BREAKS) + 1
        if not _in_comment(text, line_start, tab, spans, starts):
            return tab
        line_end = YAML_BREAKS.search(text, tab)
        if line_end is None:
            return None
        tab = text.find("\t", line_end.start())
    return None


def _span_at(
    spans: list[tuple[int, int]], starts: list[int], offset: int
) -> tuple[int, int] | None:
    i = bisect.bisect_right(starts, offset) - 1
    if i >= 0 and spans[i][0] <= offset < spans[i][1]:
        return spans[i]
    return None


def _in_comment(
    text: str, line_start: int, offset: int, spans: list[tuple[int, int]], starts: list[int]
) -> bool:
    """Whether a comment starts on this line before ``offset``."""
    hash_at = text.find("#", line_start, offset)
    while hash_at >= 0:
        before = text[hash_at - 1] if hash_at > line_start else " "
        if before in " \t" and _span_at(spans, starts, hash_at) is None:
            return True
        hash_at = text.find("#", hash_at + 1, offset)
    return False
