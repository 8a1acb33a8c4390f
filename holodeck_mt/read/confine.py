"""Which paths a document may make the validator read or stat: those inside its tree.

A file of a pull request names other files (``test_cases_file``, ``files[*].path``);
an absolute path, a ``../`` or a symbolic link can point them at
``/proc/self/environ``, ``/etc/passwd`` or a credentials file, whose lines would be
quoted into a CI log. So every such path is resolved (links followed) and must
stay inside the agent.yaml's tree: the working directory, or the agent.yaml's
own folder when the file lies outside the working directory. ``/proc``, ``/sys``
and ``/dev`` are refused even when leaving the tree is allowed
(``--allow-outside-paths``), and so is anything that is not a regular file.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path

#: Pseudo file systems: their "files" block, never end, or hold secrets.
SPECIAL_ROOTS = ("/proc", "/sys", "/dev")


def tree_of(file: Path, roots: Sequence[Path] | None = None) -> Path:
    """The tree a document's paths must stay in: the innermost of ``roots`` (an editor's
    workspace folders; by default the working directory) holding ``file``, else its folder.

    The file's folder is resolved, not the file: an ``agent.yaml`` that is a link out of
    the working directory does not take the tree with it.
    """
    folder = Path(os.path.realpath(Path(file).parent))
    return holder(folder, roots) or folder


def holder(folder: Path, roots: Sequence[Path] | None = None) -> Path | None:
    """The innermost of ``roots`` (by default the working directory), resolved, that holds
    ``folder`` (a real path); None when none does."""
    given = roots if roots is not None else [Path.cwd()]
    bases = [Path(os.path.realpath(root)) for root in given]
    holding = [root for root in bases if folder.is_relative_to(root)]
    return max(holding, key=lambda root: len(root.parts)) if holding else None


def repository_root(folder: str | os.PathLike[str]) -> str | None:
    """The top of the repository ``folder`` lies in: the nearest folder at or above it (as
    given; resolve it first for the real one) that holds ``.git``; None outside any."""
    here = os.fspath(folder)
    while not os.path.exists(os.path.join(here, ".git")):
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
    return here


def refusal(target: Path, tree: Path | None, *, allow_outside: bool = False) -> str | None:
    """Why ``target`` may not be touched, or None. ``tree`` None: only special paths refused.

    Raises :class:`OSError` or :class:`ValueError` for a path the system cannot
    even resolve (a NUL, a name too long, a loop of links).
    """
    real = os.path.realpath(target, strict=False)
    for root in SPECIAL_ROOTS:
        if real == root or real.startswith(root + "/"):
            return f"is under {root}, which is never read"
    if tree is not None and not allow_outside and not Path(real).is_relative_to(tree):
        return (
            "leaves the repository tree"
            if target.is_absolute() or ".." in target.parts
            else "is a link that leaves the repository tree"
        )
    return None


def open_regular(path: Path) -> int:
    """A descriptor of ``path`` opened without blocking, only if it is a regular file.

    ``O_NONBLOCK`` makes opening a FIFO return at once, so a file swapped for a
    FIFO or a device after it was checked is refused instead of hanging the run.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    try:
        import stat

        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor
