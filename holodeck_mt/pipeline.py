"""Validate one document: read, contract, rules, locate, result.

This is the Python API: :func:`validate_text` for YAML text, :func:`validate_file`
for a path (following `test_cases_file`), both returning :class:`FileResult`.
Every stage is a leaf this module calls in turn; the whole path is
:func:`_validate_text`:

1. read (``read/document``): the YAML as the platform's loader reads it;
2. contract (``contract/verdict``): the schema's faults, read as the platform reads;
3. rules (``rules/running``): the semantic checks, then the run-time lints;
4. locate (``text/report``): each fault at its line, worded as written, capped, less
   what the selection of codes and the file's suppressions leave out (``suppressions``);
5. result (``model.FileResult``): the diagnostics, the counts, the test cases' names.
"""

from __future__ import annotations

import errno
import gc
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from holodeck_mt import suppressions, walk
from holodeck_mt.contract import platform_models, verdict
from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic, FileResult, Role
from holodeck_mt.read import confine, document, env_vars, files, follow, loader, substitution
from holodeck_mt.rules import Options, cascade, running
from holodeck_mt.suppressions import Screen
from holodeck_mt.text import report, substituted
from holodeck_mt.text.safe_text import clip, display_path

#: The options a file is judged with, by its path.
OptionsOf = Callable[[str], Options]

__all__ = [
    "FileResult",
    "Role",
    "validate_document_text",
    "validate_file",
    "validate_text",
]


def _validate_text(
    text: str,
    path: str,
    role: Role,
    base_dir: Path,
    options: Options,
    limits: Limits,
    tree: Path | None = None,
    agent: Any = None,
    agent_clean: bool = True,
    workdir: Path | None = None,
) -> tuple[FileResult, loader.Document | None, _AsWritten | None]:
    """The whole path of one document, its ``${NAME}`` references substituted first as the
    platform does (``read/substitution``) with the variables a ``holodeck`` command run in
    ``workdir`` sees, every position then placed in ``text`` and every message naming a
    variable's value by its reference (``text/substituted``); what places more of its
    diagnostics the same way (None: they stand as found)."""
    if len(text) > limits.max_bytes:
        found = _screened(path, [files.too_large(len(text), limits)], options, limits)
        return found, None, None
    # What ``_judged`` is given whatever the text: ``placer`` and ``workdir`` follow.
    given = (path, role, base_dir, options, limits, tree, agent, agent_clean, text)
    if not _may_reference(text):
        result, doc = _judged(text, *given, None, workdir)
        return result, doc, None
    env = substitution.environment(workdir)
    variables = env.variables
    sub = substitution.substitute(text, variables)
    values = sub.values()
    placer = sub.placer(text)
    with substituted.judging(values):
        result, doc = _judged(sub.text, *given, placer, workdir)
    written = _AsWritten(result.screen, placer, values)
    kept = [
        d
        for d in [*env_vars.unset(text, variables), *substitution.refused(text, env)]
        if written.keep is None or written.keep(d)
    ]
    result.diagnostics = report.finish([*written.settle(result.diagnostics), *kept], limits)
    result.test_cases = [values.hidden(n) if n is not None else None for n in result.test_cases]
    result.text = text
    return result, doc, written


class _AsWritten:
    """How a text's diagnostics found on its substituted reading reach its report: each
    placed in the file as written (where its suppression comments are matched), then
    holding no variable's value (``substituted.Values.diagnostic``), the last step before
    a result leaves the pipeline."""

    def __init__(
        self,
        screen: Screen | None,
        placer: substitution.Placer,
        values: substituted.Values,
    ) -> None:
        self.placer, self.values = placer, values
        #: Which diagnostics the file reports, asked at their place in the file as written.
        self.keep: report.Keep = screen.keep if screen is not None else None
        #: The same, asked of a diagnostic found on the substituted text.
        self.keep_found: report.Keep = placer.screen(self.keep)

    def settle(self, found: list[Diagnostic]) -> list[Diagnostic]:
        """``found`` (on the substituted text, screened) placed and holding no value."""
        placed = [p for p in map(self.placer.place, found) if p is not None]
        values = self.values
        return placed if not values else [values.diagnostic(d) for d in placed]


#: The braces of a text looked at one by one before it is searched for ``${`` whole.
_BRACES_LOOKED_AT = 1024


def _may_reference(text: str) -> bool:
    """Whether ``text`` holds ``${``, where a ``${NAME}`` reference would start.

    As ``"${" in text``, with each brace found by a search for one character (memchr),
    then the character before it looked at: a text of a few braces (YAML in block style)
    is read at memory speed, not twenty times slower as a search for two characters
    reads a text full of ``$``. Past so many braces, the rest is searched whole.
    """
    at = text.find("{", 1)
    for _ in range(_BRACES_LOOKED_AT):
        if at < 0:
            return False
        if text[at - 1] == "$":
            return True
        at = text.find("{", at + 1)
    return at >= 0 and text.find("${", at - 1) >= 0


def _judged(
    text: str,
    path: str,
    role: Role,
    base_dir: Path,
    options: Options,
    limits: Limits,
    tree: Path | None,
    agent: Any,
    agent_clean: bool,
    written: str,
    placer: substitution.Placer | None = None,
    workdir: Path | None = None,
) -> tuple[FileResult, loader.Document | None]:
    """Read, contract (the platform's models on an agent's own sections too), rules,
    locate, result. ``agent``: the data of the agent.yaml naming this test-cases file,
    for the run-time lints (which run only when neither has an error); ``written``: the
    text as written, whose comments say what is suppressed; ``placer``: where each position
    of ``text`` stands in ``written``, when they differ (a diagnostic is screened there)."""
    spared = not _set_apart_before()
    screen = Screen.of(written, path, options)
    keep: report.Keep = screen.keep if screen is not None else None
    if placer is not None:
        keep = placer.screen(keep)
    doc = document.read(text, limits)
    if not doc.loaded:
        found = report.unloaded(verdict.unloaded(doc.diagnostics, role), text, limits, keep)
        return FileResult(path, found, text=text, strict=options.strict, screen=screen), None
    # A document is a million containers and no cycles: the collections its checks set off
    # would walk all of it again, for nothing. What exists once it is read is set apart
    # while it is checked and handed back afterwards; what the checks make is collected as
    # usual. Whether the collector is on stays the reader's to say (threads share it).
    if spared:
        gc.freeze()
    try:
        judged = verdict.judge(doc, role, limits)
        faults = judged.faults
        reading = (tree, options.allow_outside_paths, limits, workdir)
        checked = platform_models.judge(doc, faults, role, options.platform, *reading)
        faults = faults + checked.faults
        if judged.as_read is not None:
            faults = faults + running.faults(
                doc,
                faults,
                judged.as_read,
                base_dir=base_dir,
                options=options,
                tree=tree,
                agent=agent,
                agent_clean=agent_clean,
            )
        found = report.diagnostics(cascade.pruned(faults), doc, limits, keep)
        stats, names = walk.stats(doc.data), walk.names(doc.data)
    finally:
        if spared:
            gc.unfreeze()
    result = FileResult(path, found, stats, text=text, test_cases=names, screen=screen)
    result.unchecked, result.unchecked_because = checked.unchecked, checked.because
    result.reads, result.strict = list(checked.reads), options.strict
    return result, doc


#: Whether this process held objects set apart from the collector before it validated
#: anything (empty: not asked yet; asked again in a forked child).
_SET_APART: list[bool] = []
if hasattr(os, "register_at_fork"):  # no fork, no inherited objects, on Windows
    os.register_at_fork(after_in_child=_SET_APART.clear)


def _set_apart_before() -> bool:
    """Whether objects were set apart from the collector (``gc.freeze``) by someone else
    before this process first validated: a worker forked from a parent that froze its own
    (they must stay apart, unwalked and uncopied). Asked once per process, for the count
    walks every object set apart."""
    if not _SET_APART:
        _SET_APART.append(gc.get_freeze_count() > 0)
    return _SET_APART[0]


def _screened(path: str, found: list[Diagnostic], options: Options, limits: Limits) -> FileResult:
    """The result of a file that is not read as text: its diagnostics as selected."""
    screen = Screen.of("", path, options)
    found = report.finish(found, limits, screen.keep if screen else None)
    return FileResult(path, found, strict=options.strict)


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
    """Validate YAML text; ``base_dir`` is the agent.yaml's folder (for opt-in checks);
    ``tree`` the folder its paths must stay in (by default :func:`confine.tree_of`);
    ``workdir`` the folder ``holodeck`` runs in, whose ``.env`` is read (by default the
    working directory).

    ``text`` may be bytes: they are decoded as a file's content is (UTF-8 with or
    without BOM, UTF-16 with a BOM; an undecodable byte is an ``HMT005``). Any
    other type raises :class:`TypeError`.
    Raises :class:`ValueError` for a ``role`` other than ``"document"`` and
    ``"test-cases-file"``.
    """
    if not isinstance(role, str) or role not in verdict.ROOTS:
        allowed = ", ".join(repr(r) for r in verdict.ROOTS)
        raise ValueError(f"role must be one of {allowed}, got {clip(repr(role))}")
    limits, options = limits or Limits(), options or Options()
    if isinstance(text, (bytes, bytearray, memoryview)):
        decoded, problem = files.decode(bytes(text), limits)
        if decoded is None:
            return _screened(display_path(path), [problem] if problem else [], options, limits)
        text = decoded
    elif not isinstance(text, str):
        raise TypeError(f"validate_text() takes str or bytes, not {type(text).__name__}")
    folder = base_dir or Path.cwd()
    tree = tree if tree is not None else confine.tree_of(folder / "_")
    result, _, _ = _validate_text(
        text, display_path(path), role, folder, options, limits, tree, workdir=workdir
    )
    return result if result.screen is None else suppressions.close([result], options)[0]


def validate_file(
    path: Path | str,
    *,
    display: str | None = None,
    options: Options | None = None,
    limits: Limits | None = None,
    options_of: OptionsOf | None = None,
) -> list[FileResult]:
    """Validate a file, and the test-cases file it names; one result per file.

    The test-cases file must lie in the agent.yaml's tree (see :mod:`holodeck_mt.read.confine`).
    ``options_of``: the options of the test-cases file, by its path (its own folder's
    configuration, say); by default those of the file that names it.
    Raises :class:`OSError` when the file cannot be read (the CLI's exit 2), a path
    holding a NUL character included.
    """
    if "\x00" in str(path):
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character", repr(path))
    path = Path(path)
    display = display_path(display if display is not None else path)
    options, limits = options or Options(), limits or Limits()
    refused = confine.refusal(
        path, confine.tree_of(path), allow_outside=options.allow_outside_paths
    )
    if refused is not None:
        return [FileResult(display, [files.refused(refused)], strict=options.strict)]
    text, problem = files.read_text(path, limits)
    if text is None:
        return [_screened(display, [problem] if problem else [], options, limits)]
    results = _validate_document(
        text, display, path, path.parent, options, limits, options_of=options_of
    )
    results[0].source = os.path.realpath(path)
    return suppressions.close(results, options)


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
    """As :func:`validate_file` for a file's text (an editor's unsaved buffer, say):
    the document, then the test-cases file it names, read from ``base_dir`` unless
    ``followed_text`` gives that file's text (the editor holds it too). ``tree``: the
    folder its paths must stay in (the editor's workspace), not :func:`confine.tree_of`;
    ``workdir``: the folder ``holodeck`` runs in, whose ``.env`` is read (the editor's
    workspace folder), not the working directory."""
    options, limits = options or Options(), limits or Limits()
    display = display_path(path)
    found = _validate_document(
        text,
        display,
        Path(path),
        base_dir,
        options,
        limits,
        followed_text,
        tree,
        workdir,
        options_of,
    )
    return suppressions.close(found, options)


def _validate_document(
    text: str,
    display: str,
    path: Path,
    base_dir: Path,
    options: Options,
    limits: Limits,
    followed_text: str | None = None,
    tree: Path | None = None,
    workdir: Path | None = None,
    options_of: OptionsOf | None = None,
) -> list[FileResult]:
    """The document, then the test-cases file its `test_cases_file` names (if any), judged
    with ``options_of`` its path when given (its own settings). The platform takes
    `test_cases: null` (or an empty `test_cases:`) as no test cases written and loads the
    file; any other `test_cases` beside it is refused (HMT110)."""
    tree = tree if tree is not None else confine.tree_of(path)
    result, doc, written = _validate_text(
        text, display, "document", base_dir, options, limits, tree, workdir=workdir
    )
    if doc is None or not isinstance(doc.data, dict) or doc.data.get("test_cases") is not None:
        return [result]
    target = doc.data.get("test_cases_file")
    if not isinstance(target, str) or not target:
        return [result]
    found = follow.follow(
        target,
        base_dir=base_dir,
        display=display,
        tree=tree,
        allow_outside=options.allow_outside_paths,
        limits=limits,
        given=followed_text,
    )
    if found.fault is not None and written is None:
        keep = result.screen.keep if result.screen is not None else None
        result.diagnostics = report.with_fault(result.diagnostics, doc, found.fault, limits, keep)
        return [result]
    if found.fault is not None and written is not None:  # located on the substituted text
        located = report.with_fault([], doc, found.fault, limits, written.keep_found)
        result.diagnostics = report.finish([*result.diagnostics, *written.settle(located)], limits)
        return [result]
    options = options_of(os.path.abspath(base_dir / target)) if options_of else options
    if found.text is None:
        problems = [found.problem] if found.problem else []
        return [result, _screened(found.shown, problems, options, limits)]
    referenced, _, _ = _validate_text(
        found.text,
        found.shown,
        "test-cases-file",
        base_dir,
        options,
        limits,
        tree,
        agent=doc.data,
        agent_clean=result.errors == 0,
        workdir=workdir,
    )
    referenced.source = found.source
    return [result, referenced]
