"""A text read for validation, one record (:class:`Reading`): the text as written, as the
platform parses it (each ``${NAME}`` substituted), its reading and the test-cases file it
names. Most files need no full index of positions: a report naming a line only the full
index holds (a duplicate's first) reads it again."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic
from holodeck_mt.read import dialect, files, follow, loader, substitution
from holodeck_mt.read.substitution import Substituted


@dataclass(frozen=True)
class Reading:
    """One text being judged: as written (:attr:`text`), as parsed (:attr:`sub`, whose
    spans tell where substituted values lie and map positions back), and its reading."""

    text: str
    sub: Substituted
    #: The reading of :attr:`sub`'s text (not loaded: unparsable, or over the size limit).
    doc: loader.Document
    #: The `test_cases_file` it names, when followed.
    followed: follow.Followed | None = None
    #: What reading found in the text as written: unset references, refused ``.env`` files.
    found: tuple[Diagnostic, ...] = ()
    #: The plain scalars the platform and editors read differently, one warning each.
    dialect: tuple[Diagnostic, ...] = ()
    #: Over the size limit: not read at all.
    too_large: bool = False


def ingest(
    text: str,
    limits: Limits,
    workdir: Path | None,
    folder: Path,
    request: follow.Request | None = None,
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
    doc = loader.load(sub.text, limits=limits, positions="top")
    if doc.needs_index:
        doc = loader.load(sub.text, limits=limits, positions="all")
    followed = follow.named(doc, request) if request is not None else None
    warned = tuple(dialect.warnings(doc.dialect, set()))
    if env is None:
        return Reading(text, sub, doc, followed, dialect=warned)
    agents_own = substitution.environment(folder).variables if sub.unset else env.variables
    beside = agents_own.keys() - env.variables.keys()
    path = followed.shown if followed and followed.fault else ""
    found = substitution.findings(text, env, set(substitution.UNSET.findall(path)), beside)
    return Reading(text, sub, doc, followed, tuple(found), warned)
