"""The test-cases file an agent.yaml names: found, confined to its tree, and read.

A hostile path (a NUL, a folder, a FIFO, outside the repository) is a fault on
`test_cases_file`, never an exception or a read outside the tree.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from holodeck_mt.limits import Limits
from holodeck_mt.model import OWN, Diagnostic, Fault, clip, marked, reason_of
from holodeck_mt.read import files, loader
from holodeck_mt.text.safe_text import display_path


@dataclass(frozen=True)
class Followed:
    """What following a `test_cases_file` found: its path, text, problem, or the agent's fault."""

    shown: str
    text: str | None = None
    problem: Diagnostic | None = None
    fault: Fault | None = None
    #: The real path the text was read from; None for a text an editor gave.
    source: str | None = None


@dataclass(frozen=True)
class Request:
    """Where the test-cases file an agent.yaml names is looked for: the agent.yaml's folder and
    path as shown, the tree it stays in; ``given``: its text, when an editor holds it."""

    base_dir: Path
    display: str
    tree: Path
    allow_outside: bool
    limits: Limits
    given: str | None = None


def named(doc: loader.Document, request: Request) -> Followed | None:
    """The test-cases file ``doc`` names, read (None: none). The platform loads it beside
    `test_cases: null` (or empty) and refuses any other `test_cases` (HMT110)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    target = data.get("test_cases_file")
    if data.get("test_cases") is not None or not isinstance(target, str) or not target:
        return None
    return follow(target, request)


def follow(target: str, request: Request) -> Followed:
    """Read the test-cases file ``target``, relative to the agent.yaml's folder."""
    base_dir, tree, allow_outside = request.base_dir, request.tree, request.allow_outside
    file, given = base_dir / target, request.given
    shown = display_path(os.path.normpath(os.path.join(os.path.dirname(request.display), target)))
    content, problem, why, code = None, None, None, "HMT110"
    try:
        if given is None:
            content, problem = files.read_document(file, request.limits, tree, allow_outside)
        else:  # an editor's text is judged, not the saved file's: only its place is checked
            files.read(file, 0, tree=tree, allow_outside=allow_outside, head=True)
    except files.Refused as e:
        why, code = str(e), "HMT120"
    except OSError as e:
        why = _explain_unread(e, file)
    except ValueError as e:
        why = f"cannot be read ({reason_of(e)})"
    if why is not None:
        return Followed(shown, fault=_word_unfollowed(target, file, why, code))
    if given is not None:
        return Followed(shown, text=given)
    return Followed(shown, text=content, problem=problem, source=os.path.realpath(file))


def _explain_unread(error: OSError, file: Path) -> str:
    if error.errno == errno.EINVAL:
        return "is a folder" if file.is_dir() else "is not a regular file"
    if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.ENAMETOOLONG):
        return "does not exist"
    return f"cannot be read ({reason_of(error)})"


def _word_unfollowed(target: str, file: Path, why: str, code: str) -> Fault:
    return Fault(
        code,
        f"test_cases_file {marked(repr(clip(target)), OWN)} {why}"
        + (f" (looked for {marked(clip(str(file), 200))})" if code == "HMT110" else ""),
        ("test_cases_file",),
        hint="the path is relative to the agent.yaml's folder"
        if code == "HMT110"
        else "keep test-cases files inside the repository (--allow-outside-paths "
        "allows other places)",
    )
