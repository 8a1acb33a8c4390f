"""A document read for validation: the positions of its two top levels, more when needed.

Most files are valid and need no full index (time, and most of a reading's memory); a
report naming a line only the full index holds (a duplicate's first) reads it again.
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
