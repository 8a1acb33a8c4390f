"""A document read for validation: the positions of its two top levels, more when needed.

Most files are valid and need no position: the index of every key and value
costs time and most of a reading's memory (see ``locate/locate``). A file whose
reading reported something that names a line only the whole index holds (a
duplicate key's first line) is read again with every position. The references
to unset environment variables are found on the text as written, not here: the text
read is the substituted one, where a ``${`` left by a value is the platform's text.
"""

from __future__ import annotations

from holodeck_mt.limits import Limits
from holodeck_mt.read import loader


def read(text: str, limits: Limits) -> loader.Document:
    """The document of ``text``, with the reading's diagnostics."""
    doc = loader.load(text, limits=limits, positions="top")
    if doc.needs_index:
        doc = loader.load(text, limits=limits, positions="all")
    return doc
