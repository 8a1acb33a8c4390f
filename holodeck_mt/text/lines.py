"""Line breaks, the one table of them: YAML's (the parser's marks), ``str.splitlines``'s (a
report's line numbers, its suppressions), CR, LF or CR LF (a line shown, an editor's, a
``.env`` line); and where each line of a text starts, found once per text."""

from __future__ import annotations

import functools
import re
from array import array
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult

#: The characters that end a line in YAML 1.1 (CR LF counts once).
LINE_BREAKS = "\n\r\x85\u2028\u2029"
#: The characters ``str.splitlines`` ends a line at (CR LF counts once).
SPLITLINES_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
#: CR LF, CR or LF: the breaks a line shown in a report, an editor or a .env file ends at.
CR_LF = "\r\n|\r|\n"

#: Every line break YAML knows, a CR LF pair once.
YAML_BREAKS = re.compile(f"\r\n|[{LINE_BREAKS}]")
#: Where ``str.splitlines`` breaks lines, a CR LF pair once.
SPLITLINES = re.compile(f"\r\n|[{SPLITLINES_BREAKS}]")
CR_LF_BREAKS = re.compile(CR_LF)
#: A text holding none of these breaks at LF alone (a one-character search: five times faster).
_NOT_LF = tuple(brk for brk in LINE_BREAKS if brk != "\n")
_SPLIT_NOT_LF = tuple(brk for brk in SPLITLINES_BREAKS if brk != "\n")
_LF = re.compile("\n")


#: The texts breaking at LF alone whose line starts were found last, with them.
_FOUND: list[tuple[str, Sequence[int]]] = []


# The text being located and the one before it (an agent.yaml and its test-cases file),
# or one text's two ways of breaking lines; never the files validated earlier.
@functools.lru_cache(maxsize=2)
def starts(text: str, breaks: re.Pattern[str] = YAML_BREAKS) -> Sequence[int]:
    """The offset where each line of ``text`` starts, lines broken at ``breaks``."""
    at_lf = not any(brk in text for brk in _NOT_LF)
    found = array("q", [0])
    found.extend(match.end() for match in (_LF if at_lf else breaks).finditer(text))
    if at_lf:
        _FOUND[:] = [(text, found), *_FOUND[:1]]
    return found


def keep_quoted(result: FileResult) -> None:
    """Keep only the lines ``result``'s diagnostics quote, not its whole text."""
    if result.text is not None:
        wanted = {d.line for d in result.diagnostics}
        result.quoted = dict(number_lines(result.text, wanted))
        result.text = None


def number_lines(text: str, wanted: set[int]) -> Iterator[tuple[int, str]]:
    """The lines numbered in ``wanted`` (1-based, as ``text.splitlines()`` numbers them)."""
    if not wanted:
        return
    at_lf = not any(brk in text for brk in _SPLIT_NOT_LF)
    starts = next((kept for seen, kept in list(_FOUND) if seen is text), None) if at_lf else None
    if starts is not None:
        yield from _from_starts(text, starts, wanted)
        return
    last, number, start = max(wanted), 1, 0
    for brk in (_LF if at_lf else SPLITLINES).finditer(text):
        if number in wanted:
            yield number, text[start : brk.start()]
        number, start = number + 1, brk.end()
        if number > last:
            return
    if number in wanted and start < len(text):
        yield number, text[start:]


def _from_starts(text: str, starts: Sequence[int], wanted: set[int]) -> Iterator[tuple[int, str]]:
    """:func:`number_lines` of a text breaking at LF alone, from where each of its lines starts."""
    for number in sorted(n for n in wanted if 1 <= n <= len(starts)):
        start = starts[number - 1]
        if number < len(starts):
            yield number, text[start : starts[number] - 1]
        elif start < len(text):
            yield number, text[start:]
