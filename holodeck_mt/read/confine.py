"""Which paths a document may make the validator read or stat: those inside its tree, never
``/proc``, ``/sys`` or ``/dev`` (docs/limits.md)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

#: Pseudo file systems: their "files" block, never end, or hold secrets.
SPECIAL_ROOTS = ("/proc", "/sys", "/dev")


def tree_of(file: Path, roots: Sequence[Path] | None = None) -> Path:
    """The tree a document's paths stay in: the innermost of ``roots`` (default: the working
    directory) holding ``file``'s resolved folder (a link takes no tree), else that folder."""
    folder = Path(os.path.realpath(Path(file).parent))
    return holder(folder, roots) or folder


def holder(folder: Path, roots: Sequence[Path] | None = None) -> Path | None:
    """The innermost of ``roots`` (default: the working directory) holding ``folder``."""
    given = roots if roots is not None else [Path.cwd()]
    bases = [Path(os.path.realpath(root)) for root in given]
    holding = [root for root in bases if folder.is_relative_to(root)]
    return max(holding, key=lambda root: len(root.parts)) if holding else None


def repository_root(folder: str | os.PathLike[str]) -> str | None:
    """The nearest folder at or above ``folder`` (as given) holding ``.git``, or None."""
    here = os.fspath(folder)
    while not os.path.exists(os.path.join(here, ".git")):
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent
    return here


def refusal(target: Path, tree: Path | None, *, allow_outside: bool = False) -> str | None:
    """Why ``target`` may not be touched, or None (``tree`` None: only special paths).
    Raises :class:`OSError` or :class:`ValueError` for a path that cannot be resolved."""
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
