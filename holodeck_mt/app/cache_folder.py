"""Where the caches are kept (``$HOLODECK_MT_CACHE_DIR``, else the user's cache folder),
and how an entry is written there.

The user's cache folder is ``$XDG_CACHE_HOME/holodeck-mt``, ``~/.cache/holodeck-mt``,
``~/Library/Caches/holodeck-mt`` on macOS, ``%LOCALAPPDATA%\\holodeck-mt\\Cache`` on
Windows; one that lies inside the repository being validated (the working directory's)
is not used: a cache never lands in a checkout unless asked for. Found with :mod:`os`
alone, before anything else of a run is imported.
"""

from __future__ import annotations

import os
import sys
import time


def folder(cwd: str | None = None) -> str | None:
    """The cache folder, or None when none may be used."""
    chosen = os.environ.get("HOLODECK_MT_CACHE_DIR")
    if chosen:
        return chosen
    default = _user_cache()
    if default is None:
        return None
    repository = _repository_of(os.path.realpath(cwd or os.getcwd()))
    if repository is not None and _inside(os.path.realpath(default), repository):
        return None  # never inside the repository unless asked
    return default


def _user_cache() -> str | None:
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return os.path.join(base, "holodeck-mt", "Cache") if base else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "holodeck-mt")
    home = os.environ.get("HOME") or os.path.expanduser("~")
    if not home or home == "~":
        return None
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "holodeck-mt")
    return os.path.join(home, ".cache", "holodeck-mt")


def _repository_of(here: str) -> str | None:
    """The nearest folder from ``here`` upward holding ``.git``."""
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def store(target: str, data: bytes) -> bool:
    """Write a cache entry: ``data`` to a new file of a name no other run takes (its
    process and time), then renamed into place; False when it could not be written
    (importing :mod:`tempfile` would cost a run that keeps itself more than writing
    does)."""
    folder = os.path.dirname(target)
    temporary = os.path.join(folder, f".{os.getpid()}-{time.time_ns()}.tmp")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        descriptor = os.open(temporary, flags, 0o600)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return False
    return True
