"""The "quote it" hint quotes a scalar exactly as its author wrote it: ``14.10`` read as
the number 14.1 and hinted as ``"14.1"`` would silently change the ground truth."""

from __future__ import annotations

import re

from holodeck_mt.text.lines import CR_LF

#: The longest scalar a hint quotes; a longer one keeps the hint it had.
LONGEST = 60

# Node properties written before a scalar: an anchor (&name) or a tag (!tag, !!int, !<...>).
_PROPERTIES = re.compile(r"(?:(?:&[^\s,\[\]{}]+|![^\s,\[\]{}]*)\s+)+")
# A plain scalar's line break and the indentation around it: one space once folded.
_FOLD = re.compile(rf"[ \t]*(?:{CR_LF})[ \t]*")
#: A token as the text renderer underlines it: a quoted scalar or a run of plain characters.
TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[^\s:,\]}#]+(?::[^\s,\]}]+)*""")


def quoted(written: str) -> str | None:
    """``written`` (a plain scalar's source, folded as YAML folds it) in the quotes that keep
    its characters: double unless it holds a backslash or a double quote, else single.
    None for a scalar quoted already, a block scalar, or one too long for a hint."""
    text = _PROPERTIES.sub("", written, count=1) if written[:1] in "&!" else written
    if not text or text[0] in "\"'|>" or "\n\n" in text or "\r\n\r\n" in text:
        return None
    text = _FOLD.sub(" ", text)
    if len(text) > LONGEST:
        return None
    if "\\" not in text and '"' not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"
