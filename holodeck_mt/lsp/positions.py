"""The validator's positions and the fix engine's offsets as LSP's: 0-based lines broken at
``\\n``, ``\\r\\n`` and ``\\r`` only, characters in the agreed encoding (UTF-16 by default).
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass, field

from holodeck_mt.text.lines import CR_LF_BREAKS as _LINE_BREAK

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def units(text: str, encoding: str) -> int:
    """How many code units ``text`` is in ``encoding``."""
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def line_starts(text: str) -> list[int]:
    """The offsets where the lines of ``text`` start, broken at LSP's line breaks."""
    if "\r" in text:
        return [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    # Only LF: the pieces' lengths summed, twice as fast as the regular expression.
    pieces = text.split("\n")
    return list(itertools.accumulate((len(piece) + 1 for piece in pieces[:-1]), initial=0))


@dataclass
class Lines:
    """A text's line starts, to turn positions into the client's positions."""

    text: str
    encoding: str = UTF16
    #: Where each line starts, when the caller knows already (an open document does).
    starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.starts:
            self.starts = line_starts(self.text)

    def from_offset(self, offset: int) -> tuple[int, int]:
        """The 0-based line and client character of an offset into the text."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        return line, units(self.text[start:offset], self.encoding)

    def from_validator(self, line: int, column: int) -> tuple[int, int]:
        """The client position of the validator's 1-based ``line``:``column``."""
        if line < 1:
            return 0, 0
        if line > len(self.starts):
            last = len(self.starts) - 1
            return last, units(self.text[self.starts[last] :], self.encoding)
        start = self.starts[line - 1]
        stop = self.starts[line] if line < len(self.starts) else len(self.text)
        end = start + min(max(column - 1, 0), len(self.text[start:stop].rstrip("\r\n")))
        return line - 1, units(self.text[start:end], self.encoding)
