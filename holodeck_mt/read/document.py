"""A document read for validation: the positions of its two top levels, more when needed.

Most files are valid and need no position: the index of every key and value
costs time and most of a reading's memory (see ``locate/locate``). A file whose
reading reported something that names a line only the whole index holds (a
duplicate key's first line) is read again with every position. The references
to unset environment variables are found on the text as written, not here: the text
read is the substituted one, where a ``${`` left by a value is the platform's text.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from holodeck_mt.limits import Limits
from holodeck_mt.read import loader

_COLLECTOR = threading.Lock()
_PAUSES = 0
_RESUME = False


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic collector paused while a document is built, for every thread at once.

    A loaded document is a million containers and no cycles: collections while
    it is built would walk it again and again. Only the build is paused, never the
    validation (whose error objects form cycles that must be freed), and the
    collector comes back when the last thread leaves, whatever the interleaving.
    """
    global _PAUSES, _RESUME
    with _COLLECTOR:
        if _PAUSES == 0:
            _RESUME = gc.isenabled()
            gc.disable()
        _PAUSES += 1
    try:
        yield
    finally:
        with _COLLECTOR:
            _PAUSES -= 1
            if _PAUSES == 0 and _RESUME:
                gc.enable()


def read(text: str, limits: Limits) -> loader.Document:
    """The document of ``text``, with the reading's diagnostics."""
    with _collector_paused():
        doc = loader.load(text, limits=limits, positions="top")
        if doc.needs_index:
            doc = loader.load(text, limits=limits, positions="all")
    return doc
