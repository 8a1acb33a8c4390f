"""Whether a path is as it was when a run looked at it, told by its identity and times.

A recorded state is a path's kind and, for a file or a folder whose names count, its
identity and times: where it leads (links followed), its device, inode and size, and
its modification and change times in nanoseconds (a folder's change when a name in it
is added, removed or re-linked); for a folder that only has to be there (``.git``), or
a path that has to be absent, the kind alone. A path is in its state when all of that
is the same, and never when it cannot be looked at. Nothing is read: mypy and ruff
trust a file's modification time the same way. Where they fall back to the content's
hash, the run cache falls back to the result cache, which keys on each file's bytes
(a ``touch``, a checkout writing the same bytes: the run is not replayed, its files'
results are still reused).

Times are coarse (a tick of the kernel's clock; 2 s on FAT), so a file changed just
after a run read it can keep the times it had then: git's "racily clean" files. A
state is therefore used only if the path, and the folder it is in, were last changed
:data:`SETTLED_NS` or more before the run that records it began (:func:`settled`): a
later change then always leaves other times behind.
"""

from __future__ import annotations

import os
import stat

#: How long before a run a recorded path must have been last changed (FAT's timestamps
#: are 2 s apart; every other file system's are finer).
SETTLED_NS = 2_000_000_000
#: The recorded kinds, and how many fields each state has.
_FIELDS = {"absent": 2, "dir": 2, "file": 8, "listing": 8}
_ABSENT = (FileNotFoundError, NotADirectoryError)

State = list[object]


def record(path: str, *, listing: bool = False) -> State | None:
    """The state of ``path`` now (a folder's with its times when ``listing``); None for a
    path that cannot be recorded (a FIFO, a device, one that cannot be looked at)."""
    try:
        found = os.stat(path)
    except _ABSENT:
        return [path, "absent"]
    except (OSError, ValueError):
        return None
    if stat.S_ISDIR(found.st_mode):
        kind = "listing" if listing else "dir"
    elif stat.S_ISREG(found.st_mode):
        kind = "file"
    else:
        return None
    if kind == "dir":
        return [path, kind]
    return [path, kind, os.path.realpath(path), *_identity(found)]


def same(state: object) -> bool:
    """Whether the path of a recorded ``state`` is in it still (False for a malformed one)."""
    parsed = _parsed(state)
    if parsed is None:
        return False
    path, kind, fields = parsed
    try:
        found = os.stat(path)
    except _ABSENT:
        return kind == "absent"
    except (OSError, ValueError):
        return False
    if kind in ("dir", "listing"):
        if not stat.S_ISDIR(found.st_mode):
            return False
        if kind == "dir":
            return True
    elif kind != "file" or not stat.S_ISREG(found.st_mode):
        return False  # there, but recorded absent; or no longer a regular file
    return _identity(found) == fields[1:] and os.path.realpath(path) == fields[0]


def settled(path: str, before_ns: int) -> bool:
    """Whether ``path`` (a link and what it leads to) and the nearest folder above it
    that exists were last changed (written, created, renamed, re-linked) before
    ``before_ns``."""
    times: list[int] = []
    for follow in (False, True):
        try:
            found = os.stat(path, follow_symlinks=follow)
        except _ABSENT:
            continue
        except (OSError, ValueError):
            return False
        times += (found.st_mtime_ns, found.st_ctime_ns)
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        try:
            found = os.stat(folder)
        except _ABSENT:
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
            continue
        except (OSError, ValueError):
            return False
        times += (found.st_mtime_ns, found.st_ctime_ns)
        break
    return all(t < before_ns for t in times)


def _parsed(state: object) -> tuple[str, str, list[object]] | None:
    """A recorded state's path, kind and other fields, if it has the shape of its kind."""
    if not isinstance(state, list) or len(state) < 2:
        return None
    path, kind, fields = state[0], state[1], state[2:]
    if not isinstance(path, str) or not isinstance(kind, str) or "\x00" in path:
        return None
    if _FIELDS.get(kind) != len(state):
        return None
    if fields and not (isinstance(fields[0], str) and all(type(n) is int for n in fields[1:])):
        return None
    return path, kind, fields


def _identity(found: os.stat_result) -> list[object]:
    return [found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns]
