"""A file's text, read bounded: never past the size limit, never from a FIFO or a device."""

from __future__ import annotations

import os
from pathlib import Path

from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic, make
from holodeck_mt.read import confine, loader


def read_text(path: Path, limits: Limits) -> tuple[str | None, Diagnostic | None]:
    """The file's text, or a diagnostic for a file too large or not text. Raises
    :class:`OSError` for a file unreadable or not regular (a FIFO would block)."""
    descriptor = confine.open_regular(path)
    with os.fdopen(descriptor, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > limits.max_bytes:
            return None, too_large(size, limits)
        raw = file.read(limits.max_bytes + 1)  # a file that grew since stat stays bounded
    return decode(raw, limits)


def decode(raw: bytes, limits: Limits) -> tuple[str | None, Diagnostic | None]:
    """Bytes given as a file's content: its text, or the diagnostic why not."""
    if len(raw) > limits.max_bytes:
        return None, too_large(len(raw), limits)
    return loader.decode(raw)


def too_large(size: int, limits: Limits) -> Diagnostic:
    """The diagnostic of a file over the size limit: not parsed at all."""
    return _whole_file(
        "HMT004",
        f"the file is {size:,} bytes, over the limit of {limits.max_bytes:,}; it was not parsed",
        "raise the limit with --max-file-size if this is intended",
    )


def refused(why: str) -> Diagnostic:
    """The ``HMT120`` of a file given or found that resolves out of the tree: not read."""
    return _whole_file(
        "HMT120",
        f"the file {why}; it was not read",
        "keep HoloDeck files inside the repository (--allow-outside-paths allows other places)",
    )


def _whole_file(code: str, message: str, hint: str) -> Diagnostic:
    from holodeck_mt.text import ranges

    return ranges.with_range(None, make(code, message, 1, 1, hint=hint))
