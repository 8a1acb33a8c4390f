"""Where each line of a text starts: found once per text, kept in a compact array.

A large file has a hundred thousand lines, and a thousand diagnostics find their
lines (and a report the lines it quotes) without reading it a thousand times. A text
holding no line break but LF (nearly every file) has them found by a one-character
pattern, five times faster than by the alternatives of every break.
"""

from __future__ import annotations

import functools
import re
from array import array
from collections.abc import Sequence

#: Every line break YAML knows (see holodeck_mt.text.positions), a CR LF pair once.
YAML_BREAKS = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
#: CR, LF and CR LF: the breaks a line shown in a report ends at.
CR_LF_BREAKS = re.compile(r"\r\n|\r|\n")
#: The breaks of either pattern but LF: a text holding none of them breaks at LF alone.
_NOT_LF = ("\r", "\x85", "\u2028", "\u2029")
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


def found(text: str) -> Sequence[int] | None:
    """:func:`starts` of a text breaking at LF alone when they were found already (the
    locator found them for its diagnostics), else None: a report quoting a line near the
    top of a large file does not look for every line."""
    return next((kept for seen, kept in list(_FOUND) if seen is text), None)
