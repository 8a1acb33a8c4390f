"""A text read for validation, one record (:class:`Reading`): the text as written, as the
platform parses it (each ``${NAME}`` substituted), its reading, the plain scalars editors
read otherwise, and the test-cases file it names, found, confined to its tree and read (a
hostile path is a fault on `test_cases_file`, never an exception or a read outside it)."""

from __future__ import annotations

import errno
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_mt.limits import Limits
from holodeck_mt.model import OWN, Diagnostic, Fault, clip, make, marked, reason_of
from holodeck_mt.read import files, loader, substitution
from holodeck_mt.read.builder import DialectNote, scalar_text
from holodeck_mt.read.scalars import YamlScalar
from holodeck_mt.read.substitution import Substituted
from holodeck_mt.text import lines
from holodeck_mt.text.quoting import quoted
from holodeck_mt.text.safe_text import display_path


@dataclass(frozen=True)
class Reading:
    """One text being judged: as written (:attr:`text`), as parsed (:attr:`sub`, whose
    spans tell where substituted values lie and map positions back), and its reading."""

    text: str
    sub: Substituted
    #: The reading of :attr:`sub`'s text (not loaded: unparsable, or over the size limit).
    doc: loader.Document
    #: The `test_cases_file` it names, when followed.
    followed: Followed | None = None
    #: What reading found in the text as written: unset references, refused ``.env`` files.
    found: tuple[Diagnostic, ...] = ()
    #: The plain scalars the platform and editors read differently, one warning each.
    dialect: tuple[Diagnostic, ...] = ()
    #: Over the size limit: not read at all.
    too_large: bool = False

    @functools.cached_property
    def starts(self) -> Sequence[int]:
        """Where each line of the text as written starts (found once)."""
        return lines.starts(self.text)

    @functools.cached_property
    def parsed_starts(self) -> Sequence[int]:
        """Where each line of the text as parsed starts (found once)."""
        return self.starts if self.sub.text is self.text else lines.starts(self.sub.text)

    def place(self, d: Diagnostic) -> Diagnostic | None:
        """``d``, found on the text as parsed, at its place in the text as written (None: on
        an unset reference, whose warning says it all)."""
        return self.sub.place(d, self.parsed_starts, self.starts)


def ingest(
    text: str,
    limits: Limits,
    workdir: Path | None,
    folder: Path,
    request: Request | None = None,
) -> Reading:
    """``text`` read as a ``holodeck`` command run in ``workdir`` reads it (``folder``: the
    file's own, whose ``.env`` only hints), and the test-cases file it names (``request``)."""
    if len(text) > limits.max_bytes:
        refusal = files.too_large(len(text), limits)
        return Reading(text, Substituted(text), loader.Document(text, [refusal]), too_large=True)
    env = substitution.environment(workdir) if substitution.may_reference(text) else None
    sub = Substituted(text)
    if env is not None:
        sub = substitution.substitute(text, env.variables)
    doc = loader.load_as_needed(sub.text, limits)
    followed = _follow_named(doc, request) if request is not None else None
    warned = _warn_dialect(doc.dialect)
    if env is None:
        return Reading(text, sub, doc, followed, dialect=warned)
    agents_own = substitution.environment(folder).variables if sub.unset else env.variables
    folder_only = agents_own.keys() - env.variables.keys()
    path = followed.shown if followed and followed.fault else ""
    found = substitution.check_references(
        text, env, set(substitution.UNSET.findall(path)), folder_only
    )
    return Reading(text, sub, doc, followed, tuple(found), warned)


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


def _follow_named(doc: loader.Document, request: Request) -> Followed | None:
    """The test-cases file ``doc`` names, read (None: none). The platform loads it beside
    `test_cases: null` (or empty) and refuses any other `test_cases` (HMT110)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    target = data.get("test_cases_file")
    if data.get("test_cases") is not None or not isinstance(target, str) or not target:
        return None
    return _follow(target, request)


def _follow(target: str, request: Request) -> Followed:
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


#: The code for each kind of platform reading.
_CODES = {bool: "HMT205", int: "HMT206", float: "HMT206", str: "HMT207", YamlScalar: "HMT208"}


def _warn_dialect(notes: list[DialectNote]) -> tuple[Diagnostic, ...]:
    """A warning for each plain scalar the platform (YAML 1.1) and editors (YAML 1.2) read
    differently (``yes``, ``1:30``, ``1e3``): how to write it so that both read the same;
    where the platform's reading is refused anyway, the error stands alone (``report``)."""
    return tuple(map(_warning, notes))


def _warning(note: DialectNote) -> Diagnostic:
    platform, write, unless = _platform_reading(note)
    platform, write = marked(platform, OWN), marked(write, OWN)  # the node's own words
    line, column = note.position
    return make(
        _CODES[type(note.platform)],
        f"the platform reads this as {platform}; write {write}{unless} "
        f"(editors, reading YAML 1.2, see `{marked(clip(note.text), OWN)}` as "
        f"{_editor_reading(note.editor)})",
        line,
        column,
        pointer_parts=note.parts,
        hint=f"{write} reads the same in YAML 1.1 and 1.2",
    )


def _platform_reading(note: DialectNote) -> tuple[str, str, str]:
    """What the platform reads, how to write it for editors to agree, and when."""
    value = note.platform
    if isinstance(value, (bool, int, float)):
        word = scalar_text(value)
        return word, word, ""
    as_text = quoted(note.text) or repr(clip(note.text))
    if isinstance(value, YamlScalar):
        return f"the date {clip(note.text)}", as_text, " if it is text"
    return f"the string {as_text}", as_text, ""


def _editor_reading(value: Any) -> str:
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return scalar_text(value)
    if value is None:
        return "null"
    return f"the number {value!r}"
