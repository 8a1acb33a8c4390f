"""The "quote it" hint quotes a scalar exactly as its author wrote it.

YAML reads ``ground_truth: 14.10`` as the number 14.1; a hint built from the
value would say ``"14.1"`` and, followed, silently change the ground truth. The
hint is therefore rebuilt from the scalar's own characters in the source
(:mod:`holodeck_mt.text.source`), with the quotes that keep every one of them
(:mod:`holodeck_mt.locate.worded` rebuilds it once the fault is located).
"""

from __future__ import annotations

import re

from holodeck_mt.text.lines import CR_LF

#: The longest scalar a hint quotes; a longer one keeps the hint it had.
LONGEST = 60

# Node properties written before a scalar: an anchor (&name) or a tag (!tag, !!int, !<...>).
_PROPERTIES = re.compile(r"(?:(?:&[^\s,\[\]{}]+|![^\s,\[\]{}]*)\s+)+")
# A plain scalar's line break and the indentation around it: one space once folded.
_FOLD = re.compile(rf"[ \t]*(?:{CR_LF})[ \t]*")


def quoted(written: str) -> str | None:
    """``written`` (a plain scalar's source) in the quotes that keep its characters.

    Double quotes unless the text holds a backslash or a double quote (escapes
    would change it), then single quotes, doubling any single quote. A
    multi-line plain scalar is folded as YAML folds it, quoted or not: each line
    break with its indentation is one space. None for a scalar that is quoted
    already, a block scalar, or one too long to quote in a one-line hint.
    """
    text = _PROPERTIES.sub("", written, count=1) if written[:1] in "&!" else written
    if not text or text[0] in "\"'|>" or "\n\n" in text or "\r\n\r\n" in text:
        return None
    text = _FOLD.sub(" ", text)
    if len(text) > LONGEST:
        return None
    if "\\" not in text and '"' not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"
