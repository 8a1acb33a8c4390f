"""Every file of the judged tree is opened here, and only here (tests/lint/test_one_opener.py):
confined to its tree, a regular file, never blocking (a FIFO), bounded by its caller's limit."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import NamedTuple

from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic, make
from holodeck_mt.read import confine, loader

#: Read only, never blocking, never a terminal; the path is resolved first, so a final link
#: met when opening it is one swapped in since, and refused.
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_FLAGS |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)


class Refused(Exception):
    """A path that leaves its tree (or is under /proc, /sys, /dev), never opened: why."""


class TooLarge(Exception):
    """A file over its caller's limit: ``size`` its size, ``read`` the bytes read of it."""

    def __init__(self, size: int, read: int) -> None:
        self.size, self.read = size, read


class Content(NamedTuple):
    raw: bytes
    status: os.stat_result


def read(
    path: Path | str,
    limit: int,
    *,
    tree: Path | None = None,
    allow_outside: bool = False,
    head: bool = False,
) -> Content:
    """The bytes of the regular file at ``path`` (``head``: its first ``limit``), inside
    ``tree`` (None: anywhere but /proc, /sys, /dev). Raises :class:`Refused`,
    :class:`TooLarge`, :class:`OSError` (``EINVAL``: not a regular file), :class:`ValueError`."""
    why = confine.refusal(Path(path), tree, allow_outside=allow_outside)
    if why is not None:
        raise Refused(why)
    real = os.path.realpath(path)
    _regular(os.stat(real), path)  # a FIFO or a device is never opened
    with os.fdopen(os.open(real, _FLAGS), "rb") as file:
        status = os.fstat(file.fileno())
        _regular(status, path)  # swapped since
        if status.st_size > limit and not head:
            raise TooLarge(status.st_size, 0)
        raw = file.read(limit if head else limit + 1)  # a file that grew since stays bounded
    if len(raw) > limit:
        raise TooLarge(len(raw), len(raw))
    return Content(raw, status)


def _regular(status: os.stat_result, path: Path | str) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))


def read_document(
    path: Path, limits: Limits, tree: Path | None = None, allow_outside: bool = False
) -> tuple[str | None, Diagnostic | None]:
    """A document's text, or a diagnostic for a file too large or not text. Raises as
    :func:`read` does, but for a file too large."""
    try:
        raw = read(path, limits.max_bytes, tree=tree, allow_outside=allow_outside).raw
    except TooLarge as e:
        return None, too_large(e.size, limits)
    return loader.decode(raw)


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
