"""Writing a file of the repository without ever losing it: confined, unchanged since it was
read (:class:`Snapshot`), atomic (docs/limits.md)."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from holodeck_mt.limits import MAX_FILE_BYTES
from holodeck_mt.model import clip, reason_of
from holodeck_mt.read import confine, files
from holodeck_mt.text.safe_text import display_path, escape

#: Bytes written per call: a short write is continued, a failing one ends the write.
_CHUNK = 1024 * 1024


class WriteError(Exception):
    """Why a file was left as it was (one line, naming the file)."""


@dataclass(frozen=True)
class Snapshot:
    """What a file was when it was read: a write goes ahead only if it still is."""

    size: int
    mtime_ns: int
    digest: str
    mode: int
    #: The owner's user and group ids.
    owner: tuple[int, int]


def show_path(path: Path | str) -> str:
    """A path as a message quotes it: printable, escaped, clipped."""
    return escape(clip(display_path(path), 200))


def real_target(path: Path, tree: Path, name: str | None = None) -> Path:
    """The real path a write to ``path`` goes to; :class:`WriteError` when it leaves ``tree``.
    ``name``: how messages name the file (the path the user gave), ``path`` by default."""
    called = show_path(name if name is not None else path)
    try:
        why = confine.refusal(path, Path(os.path.realpath(tree)))
        real = Path(os.path.realpath(path))
    except (OSError, ValueError) as e:
        raise WriteError(f"cannot write '{called}': {_reason(e)}") from None
    if why is not None:
        raise WriteError(f"'{called}' {why}: it is not written")
    return real


def read(
    path: Path, tree: Path, limit: int = MAX_FILE_BYTES, name: str | None = None
) -> tuple[bytes, Snapshot]:
    """The bytes of the regular file at ``path`` (inside ``tree``) and what it was then."""
    called = show_path(name if name is not None else path)
    real = real_target(path, tree, name)
    try:
        raw, status = files.read(real, limit)
    except files.TooLarge:
        raise WriteError(f"'{called}' is over {limit:,} bytes: it is not rewritten") from None
    except (OSError, ValueError, files.Refused) as e:
        raise WriteError(f"cannot read '{called}': {_reason(e)}") from None
    return raw, _snapshot(status, raw)


def _snapshot(status: os.stat_result, raw: bytes) -> Snapshot:
    digest, owner = hashlib.sha256(raw).hexdigest(), (status.st_uid, status.st_gid)
    return Snapshot(status.st_size, status.st_mtime_ns, digest, stat.S_IMODE(status.st_mode), owner)


def _reason(e: BaseException) -> str:
    return escape(clip(reason_of(e), 200))


def replace(
    path: Path, data: bytes, tree: Path, expected: Snapshot | None, name: str | None = None
) -> None:
    """Write ``data`` as the file at ``path``, atomically. ``expected`` None: the file must not
    exist yet (made with mode 0644 less the umask); else it must still be as it was read."""
    real = real_target(path, tree, name)
    called = show_path(name if name is not None else path)
    mode, owner = _check_unchanged(called, real, expected)
    try:
        temporary = _make_temporary(real)
    except OSError as e:
        raise WriteError(f"cannot write '{called}': {_reason(e)}") from None
    try:
        _move_in(temporary, real, data, mode, owner)
    except OSError as e:
        raise WriteError(f"cannot write '{called}': {_reason(e)}; it is unchanged") from None


def _make_temporary(target: Path) -> tuple[int, str]:
    return tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:40]}.", suffix=".tmp")


def _move_in(
    temporary: tuple[int, str], target: Path, data: bytes, mode: int, owner: tuple[int, int] | None
) -> None:
    """Fill ``temporary`` and move it over ``target``; on :class:`OSError` it is removed."""
    descriptor, name = temporary
    try:
        try:
            _write_all(descriptor, data)
            _give(descriptor, owner)  # before the mode: a change of owner clears set-id bits
            os.fchmod(descriptor, mode)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(name, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def _new_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o644 & ~umask


def _check_unchanged(
    called: str, real: Path, expected: Snapshot | None
) -> tuple[int, tuple[int, int] | None]:
    """The mode and owner to write with (None: this process's), if the file is as it was read."""
    if expected is None:
        if os.path.lexists(real):
            raise WriteError(f"'{called}' appeared meanwhile: it is left alone")
        return _new_mode(), None
    try:
        now = read(real, real.parent)[1]
    except WriteError:
        raise WriteError(f"'{called}' changed since it was read: it is left alone") from None
    if (now.size, now.mtime_ns, now.digest) != (expected.size, expected.mtime_ns, expected.digest):
        raise WriteError(f"'{called}' changed since it was read: it is left alone")
    if not now.mode & 0o222 or not os.access(real, os.W_OK):
        raise WriteError(f"cannot write '{called}': it is read-only; it is unchanged")
    return now.mode, now.owner


def _give(descriptor: int, owner: tuple[int, int] | None) -> None:
    """Give the temporary file the original's owner and group as far as allowed: root gives
    both, another user the group if a member of it (else it is theirs, as an editor leaves it)."""
    if owner is None or not hasattr(os, "fchown"):  # Windows: no owner ids to give
        return
    status = os.fstat(descriptor)
    uid, gid = owner
    if (status.st_uid, status.st_gid) == (uid, gid):
        return
    try:
        os.fchown(descriptor, uid, gid)
    except PermissionError:
        with contextlib.suppress(OSError):
            os.fchown(descriptor, -1, gid)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = _write_chunk(descriptor, view[:_CHUNK])
        if written <= 0:
            raise OSError(errno.EIO, "the write made no progress")
        view = view[written:]


def _write_chunk(descriptor: int, chunk: memoryview) -> int:
    return os.write(descriptor, chunk)


def create(path: Path, data: bytes) -> None:
    """Write a report atomically, never under /proc, /sys, /dev, nor through a link out of the
    working folder when given inside it; :class:`OSError` leaves the file unchanged."""
    inside = ".." not in path.parts and Path(os.path.abspath(path)).is_relative_to(Path.cwd())
    why = confine.refusal(path, Path(os.path.realpath(".")) if inside else None)
    if why is not None:
        raise OSError(errno.EPERM, f"the path {why}")
    _move_in(_make_temporary(path), path, data, _new_mode(), None)
