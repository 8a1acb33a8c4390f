"""Validate one document: read, contract, rules, locate, result (docs/architecture.md); the
only module that reads a file and follows a `test_cases_file`. ``validate_*`` return a
:class:`FileResult` per file, :func:`check_file` a :class:`Checked` (``explain``, ``fix``)."""

from __future__ import annotations

import errno
import functools
import gc
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from holodeck_mt import layout
from holodeck_mt.contract import platform_models, verdict
from holodeck_mt.limits import Limits
from holodeck_mt.locate import report, suppressions
from holodeck_mt.locate.provenance import Provenance
from holodeck_mt.locate.suppressions import Screen
from holodeck_mt.model import Diagnostic, FileResult, JsonPath, Role, clip
from holodeck_mt.read import confine, document, files, loader
from holodeck_mt.rules import running
from holodeck_mt.selection import Options
from holodeck_mt.text.safe_text import display_path

if TYPE_CHECKING:
    from holodeck_mt.locate.locate import Locator

#: The options a file is judged with, by its path.
OptionsOf = Callable[[str], Options]


@dataclass
class Checked:
    """One file's result and what it was judged on: no command reads or follows a file again."""

    result: FileResult
    #: The reading judged, references substituted (None: not read as YAML).
    document: loader.Document | None = None
    #: Where its set ``${NAME}`` references' values lie: never shown (None: none).
    provenance: Provenance | None = None
    #: The same validation of another text in this file's place (None: not read as text).
    revalidate: Callable[[str], FileResult] | None = field(default=None, repr=False)
    #: The codes selected and the file's suppressions, until the unused ones are reported.
    screen: Screen | None = field(default=None, repr=False)
    _locator: Locator | None = field(default=None, repr=False)

    def line(self, parts: JsonPath, limits: Limits) -> int:
        """The line the value at ``parts`` of :attr:`document` stands on (1 when unknown)."""
        if self.document is None or self.document.positions is None:
            return 1
        if self._locator is None:
            from holodeck_mt.locate.locate import Locator

            self._locator = Locator(self.document, limits)
        return self._locator.position(parts)[0]


@dataclass(frozen=True)
class _FileContext:
    """How one text is judged; ``agent``: the data of the agent.yaml naming this test-cases
    file (its metrics apply to these test cases), and the paths of its errors."""

    path: str
    role: Role
    base_dir: Path
    options: Options
    limits: Limits
    tree: Path
    agent: Any = None
    agent_reported: frozenset[JsonPath] = frozenset()
    #: Where the agent.yaml's referenced values lie (None: it has none).
    agent_origin: Provenance | None = None
    workdir: Path | None = None


def _validate_text(
    text: str, context: _FileContext, following: bool = False, given: str | None = None
) -> tuple[Checked, document.Followed | None]:
    """The whole path of one document, and the test-cases file it names (when ``following``;
    ``given``: that file's text when an editor holds it): read, contract, rules, locate."""
    options, limits, role = context.options, context.limits, context.role

    def revalidate(candidate: str) -> FileResult:
        return _close([_validate_text(candidate, context)[0]], options)[0]

    request = None
    if following:
        outside = options.allow_outside_paths
        request = document.Request(
            context.base_dir, context.path, context.tree, outside, limits, given
        )
    reading = document.ingest(text, limits, context.workdir, context.base_dir, request)
    doc = reading.doc
    result = FileResult(context.path, text=text, strict=options.strict)
    with _set_apart():
        judged = verdict.judge(doc, role, limits)
        faults = judged.faults
        if doc.loaded:
            where = (context.tree, options.allow_outside_paths, limits, context.workdir)
            checked = platform_models.judge(doc, faults, role, options.platform, *where)
            faults = faults + checked.faults
            result.unchecked, result.unchecked_because = checked.unchecked, checked.because
            result.reads = list(checked.reads)
        if judged.as_read is not None:
            faults = faults + running.faults(
                doc,
                faults,
                judged.as_read,
                base_dir=context.base_dir,
                options=options,
                tree=context.tree,
                agent=context.agent,
                agent_reported=context.agent_reported,
            )
        screen = Screen.of("" if reading.too_large else text, context.path, options)
        keep = screen.keep if screen is not None else None
        found = report.diagnose(reading, faults, limits, context.agent_origin, keep)
    result.diagnostics, provenance = found
    if doc.loaded:
        result.stats, result.test_cases = layout.stats(doc.data), layout.names(doc.data)
    if provenance is not None:
        result.test_cases = [provenance.name(i, n) for i, n in enumerate(result.test_cases)]
    if reading.too_large:
        result.text = None
    loaded = doc if doc.loaded else None
    return Checked(result, loaded, provenance, revalidate, screen), reading.followed


@contextmanager
def _set_apart() -> Iterator[None]:
    """A document is a million containers and no cycles, set apart while checked so
    collections do not walk it again; the collector stays on or off as set (threads share
    it), and what a parent set apart stays apart (``gc.freeze``)."""
    spared = not _set_apart_before()
    if spared:
        gc.freeze()
    try:
        yield
    finally:
        if spared:
            gc.unfreeze()


@functools.cache
def _set_apart_before() -> bool:
    """Whether a parent this worker was forked from froze its own objects (``gc.freeze``), which
    must stay apart. Asked once per process: the count walks every frozen object."""
    return gc.get_freeze_count() > 0


if hasattr(os, "register_at_fork"):  # no fork, no inherited objects, on Windows
    os.register_at_fork(after_in_child=_set_apart_before.cache_clear)


def _report_unread(
    path: str, found: Diagnostic | None, options: Options, limits: Limits
) -> FileResult:
    """The result of a file that is not read as text: what was found, if selected."""
    screen = Screen.of("", path, options)
    shown = report.finish([found] if found else [], limits, screen.keep if screen else None)
    return FileResult(path, shown, strict=options.strict)


def validate_text(
    text: str | bytes,
    *,
    path: str = "<text>",
    role: Role = "document",
    base_dir: Path | None = None,
    options: Options | None = None,
    limits: Limits | None = None,
    tree: Path | None = None,
    workdir: Path | None = None,
) -> FileResult:
    """Validate YAML text (or bytes, decoded as a file's content is); ``base_dir`` is the
    agent.yaml's folder, ``tree`` the folder its paths must stay in (by default
    :func:`confine.tree_of`), ``workdir`` the folder whose ``.env`` is read (by default the
    working directory). Raises :class:`TypeError` for other text, :class:`ValueError` for
    an unknown ``role``."""
    if not isinstance(role, str) or role not in verdict.ROOTS:
        allowed = ", ".join(repr(r) for r in verdict.ROOTS)
        raise ValueError(f"role must be one of {allowed}, got {clip(repr(role))}")
    limits, options = limits or Limits(), options or Options()
    if isinstance(text, (bytes, bytearray, memoryview)):
        decoded, problem = files.decode(bytes(text), limits)
        if decoded is None:
            return _report_unread(display_path(path), problem, options, limits)
        text = decoded
    elif not isinstance(text, str):
        raise TypeError(f"validate_text() takes str or bytes, not {type(text).__name__}")
    folder = base_dir or Path.cwd()
    tree = tree if tree is not None else confine.tree_of(folder / "_")
    context = _FileContext(display_path(path), role, folder, options, limits, tree, workdir=workdir)
    return _close([_validate_text(text, context)[0]], options)[0]


def validate_file(
    path: Path | str,
    *,
    display: str | None = None,
    options: Options | None = None,
    limits: Limits | None = None,
    options_of: OptionsOf | None = None,
) -> list[FileResult]:
    """Validate a file, and the test-cases file it names (inside its tree); one result per
    file. ``options_of``: the test-cases file's options, by its path (by default those of the
    file naming it). Raises :class:`OSError` when the file cannot be read (a NUL included)."""
    found = check_file(path, display=display, options=options, limits=limits, options_of=options_of)
    return [c.result for c in found]


def check_file(
    path: Path | str,
    *,
    display: str | None = None,
    options: Options | None = None,
    limits: Limits | None = None,
    options_of: OptionsOf | None = None,
) -> list[Checked]:
    """As :func:`validate_file`, each result with what it was judged on (:class:`Checked`)."""
    if "\x00" in str(path):
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character", repr(path))
    path = Path(path)
    display = display_path(display if display is not None else path)
    options, limits = options or Options(), limits or Limits()
    tree = confine.tree_of(path)
    try:
        text, problem = files.read_document(path, limits, tree, options.allow_outside_paths)
    except files.Refused as e:
        return [Checked(FileResult(display, [files.refused(str(e))], strict=options.strict))]
    if text is None:
        return [Checked(_report_unread(display, problem, options, limits))]
    context = _FileContext(display, "document", path.parent, options, limits, tree)
    checked = _validate_document(text, context, None, options_of)
    checked[0].result.source = os.path.realpath(path)
    _close(checked, options)
    return checked


def validate_document_text(
    text: str,
    *,
    path: str,
    base_dir: Path,
    options: Options | None = None,
    limits: Limits | None = None,
    followed_text: str | None = None,
    tree: Path | None = None,
    workdir: Path | None = None,
    options_of: OptionsOf | None = None,
) -> list[FileResult]:
    """As :func:`validate_file` for a file's text (an editor's buffer): the test-cases file
    it names is read from ``base_dir`` unless ``followed_text`` gives it; ``tree`` and
    ``workdir`` as for :func:`validate_text` (the editor's workspace)."""
    options, limits = options or Options(), limits or Limits()
    tree = tree if tree is not None else confine.tree_of(Path(path))
    context = _FileContext(
        display_path(path), "document", base_dir, options, limits, tree, workdir=workdir
    )
    return _close(_validate_document(text, context, followed_text, options_of), options)


def _close(checked: list[Checked], options: Options) -> list[FileResult]:
    """The results, with their unused suppressions reported (when asked); screens dropped."""
    closed = suppressions.close([(c.result, c.screen) for c in checked], options)
    for c in checked:
        c.screen = None
    return closed


def read_saved(path: Path, tree: Path, limits: Limits) -> str:
    """The saved text of a file read for context (the agent.yaml naming an open document),
    confined to ``tree`` and the size limit as a file given is; empty when it cannot be."""
    try:
        text, _ = files.read_document(path, limits, tree)
    except (OSError, ValueError, files.Refused):
        return ""
    return text or ""


def _validate_document(
    text: str, context: _FileContext, followed_text: str | None, options_of: OptionsOf | None
) -> list[Checked]:
    """The document, then the test-cases file its `test_cases_file` names (if any), judged
    with ``options_of`` its path when given (its own folder's settings)."""
    checked, found = _validate_text(text, context, following=True, given=followed_text)
    options = context.options
    if found is None or found.fault is not None:
        return [checked]
    if options_of is not None and checked.document is not None:
        named = str(checked.document.data.get("test_cases_file"))
        options = options_of(os.path.abspath(context.base_dir / named))
    if found.text is None:
        return [
            checked,
            Checked(_report_unread(found.shown, found.problem, options, context.limits)),
        ]
    agent = checked.document.data if checked.document is not None else None
    errors = frozenset(d.pointer_parts for d in checked.result.diagnostics if d.severity == "error")
    judging = replace(
        context,
        path=found.shown,
        role="test-cases-file",
        options=options,
        agent=agent,
        agent_reported=errors,
        agent_origin=checked.provenance,
    )
    referenced, _ = _validate_text(found.text, judging)
    referenced.result.source = found.source
    return [checked, referenced]
