"""Validate one document: load, schema, semantic checks, then locate every fault.

This is the Python API: :func:`validate_text` for YAML text, :func:`validate_file`
for a path (following `test_cases_file`), both returning :class:`FileResult`.
"""

from __future__ import annotations

import dataclasses
import errno
import gc
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from holodeck_mt import walk
from holodeck_mt.codes import Severity, severity
from holodeck_mt.contract import compiled as fast_path
from holodeck_mt.contract import platform_reading as lax
from holodeck_mt.contract import registry as sch
from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic, Fault, make, under
from holodeck_mt.read import confine, dialect, env_vars, loader
from holodeck_mt.rules import Context, Options
from holodeck_mt.rules.registry import rules_to_run
from holodeck_mt.suppressions import Screen
from holodeck_mt.text import hints
from holodeck_mt.text.safe_text import MESSAGE, clip, display_path

if TYPE_CHECKING:
    from holodeck_mt.text.ranges import Lines

#: How a document is read: as given on the command line (an agent.yaml, or a
#: list of test cases), or as the test-cases file an agent.yaml names.
Role = Literal["document", "test-cases-file"]

_ROOTS: dict[Role, str] = {"document": sch.DOCUMENT, "test-cases-file": sch.TEST_CASES_FILE}


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=lambda: {"test_cases": 0, "turns": 0})
    #: The file's text, for renderers that quote the offending line; once validated,
    #: only the lines they quote are kept (:attr:`quoted`).
    text: str | None = None
    #: The lines quoted by the diagnostics, by 1-based number (as ``str.splitlines``
    #: numbers them), once the text is dropped: a run over many files keeps no whole text.
    quoted: dict[int, str] | None = None
    #: Each test case's name (clipped) by index, None when unnamed: no renderer parses YAML.
    test_cases: list[str | None] = field(default_factory=list)
    #: Warnings fail the file too (``--strict``): its verdict in every format.
    strict: bool = False
    #: What the file reports of its diagnostics (selection, suppressions), while validated.
    screen: Screen | None = field(default=None, repr=False, compare=False)

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)

    @property
    def valid(self) -> bool:
        return self.errors == 0 and not (self.strict and self.warnings)

    def quoted_lines(self) -> dict[int, str]:
        """The lines the diagnostics quote, by 1-based number: the kept ones, or those of
        the text (split once, however many diagnostics quote it)."""
        if self.quoted is not None:
            return self.quoted
        lines = self.text.splitlines() if self.text is not None else []
        return {d.line: lines[d.line - 1] for d in self.diagnostics if 1 <= d.line <= len(lines)}

    def keep_quoted_lines(self) -> None:
        """Keep only the lines the diagnostics quote, not the whole text (read once, up to
        the last quoted line, with no list of every line)."""
        if self.text is not None:
            wanted = {d.line for d in self.diagnostics}
            self.quoted = dict(_lines(self.text, wanted))
            self.text = None

    def fails(self, diagnostic: Diagnostic) -> bool:
        """Whether ``diagnostic`` fails the file: an error, or any diagnostic when strict."""
        return self.strict or diagnostic.severity == "error"

    def level(self, diagnostic: Diagnostic) -> Severity:
        """The level a report gives ``diagnostic``: ``error`` when it fails the file."""
        return "error" if self.fails(diagnostic) else diagnostic.severity


_COLLECTOR = threading.Lock()
_PAUSES = 0
_RESUME = False


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic collector paused while a document is built, for every thread at once.

    A loaded document is a million containers and no cycles: collections while
    it is built would walk it again and again. Only the build is paused, never the
    validation (whose error objects form cycles that must be freed), and the
    collector comes back when the last thread leaves, whatever the interleaving.
    """
    global _PAUSES, _RESUME
    with _COLLECTOR:
        if _PAUSES == 0:
            _RESUME = gc.isenabled()
            gc.disable()
        _PAUSES += 1
    try:
        yield
    finally:
        with _COLLECTOR:
            _PAUSES -= 1
            if _PAUSES == 0 and _RESUME:
                gc.enable()


def validate_text(
    text: str | bytes,
    *,
    path: str = "<text>",
    role: Role = "document",
    base_dir: Path | None = None,
    options: Options | None = None,
    limits: Limits | None = None,
) -> FileResult:
    """Validate YAML text; ``base_dir`` is the agent.yaml's folder (for opt-in checks).

    ``text`` may be bytes: they are decoded as a file's content is (UTF-8 with or
    without BOM, UTF-16 with a BOM; an undecodable byte is an ``HMT005``). Any
    other type raises :class:`TypeError`.
    Raises :class:`ValueError` for a ``role`` other than ``"document"`` and
    ``"test-cases-file"``.
    """
    if not isinstance(role, str) or role not in _ROOTS:
        allowed = ", ".join(repr(r) for r in _ROOTS)
        raise ValueError(f"role must be one of {allowed}, got {clip(repr(role))}")
    limits = limits or Limits()
    if isinstance(text, (bytes, bytearray, memoryview)):
        raw = bytes(text)
        if len(raw) > limits.max_bytes:
            return _screened(path, [_too_large(len(raw), limits)], options, limits)
        decoded, problem = loader.decode(raw)
        if decoded is None:
            return _screened(path, [problem] if problem else [], options, limits)
        text = decoded
    elif not isinstance(text, str):
        raise TypeError(f"validate_text() takes str or bytes, not {type(text).__name__}")
    folder = base_dir or Path.cwd()
    result, _ = _validate_text(
        text, display_path(path), role, folder, options, limits, confine.tree_of(folder / "_")
    )
    return _closed([result], options or Options())[0]


def _screened(
    path: str, found: list[Diagnostic], options: Options | None, limits: Limits
) -> FileResult:
    """The result of a file that is not text: its diagnostics as selected."""
    shown = display_path(path)
    screen = Screen.of("", shown, options or Options())
    return FileResult(path=shown, diagnostics=_finish(found, limits, screen))


def _closed(results: list[FileResult], options: Options) -> list[FileResult]:
    """The results with their unused suppressions reported (when asked), screens dropped."""
    for result in results:
        screen, result.screen = result.screen, None
        if screen is not None and options.report_unused_ignores:
            unused = screen.unused()
            if unused:
                result.diagnostics = _dedupe([*result.diagnostics, *unused])
    return results


def _validate_text(
    text: str,
    path: str,
    role: Role,
    base_dir: Path,
    options: Options | None,
    limits: Limits | None,
    tree: Path | None = None,
    agent: Any = None,
    agent_clean: bool = True,
) -> tuple[FileResult, loader.Document | None]:
    """``agent``: the data of the agent.yaml naming this test-cases file, for run-time checks
    (which run only when neither that agent.yaml nor this document has an error)."""
    options = options or Options()
    limits = limits or Limits()
    result = FileResult(path=path, text=text)
    if len(text) > limits.max_bytes:
        result.diagnostics = _finish(
            [_too_large(len(text), limits)], limits, Screen.of("", path, options)
        )
        return result, None
    result.screen = screen = Screen.of(text, path, options)
    doc = _load(text, limits)
    doc.diagnostics += env_vars.unset_references(text)
    if not doc.loaded:
        result.diagnostics = _unloaded(doc, role, text, limits, screen)
        return result, None
    data = doc.data
    if role == "test-cases-file" and not data:
        faults = [lax.NO_TEST_CASES]
    elif not isinstance(data, (dict, list)):
        faults = [_not_a_document(data)]
    else:
        # The schema's faults of the document as the platform reads it (lax.py).
        read, as_read = lax.relax(data, *_schema_of(doc, role, limits), role=role)
        context = Context(
            data=as_read,
            base_dir=base_dir,
            options=options,
            reported=doc.reported | {f.parts for f in read if severity(f.code) == "error"},
            tree=tree,
            agent=agent,
            runtime=agent_clean and _error_free(read, doc),
        )
        faults = read + _check_faults(context, options)
    result.diagnostics = _diagnostics(faults, doc, text, limits, screen)
    result.stats = _stats(data)
    result.test_cases = _names(data)
    return result, doc


def _load(text: str, limits: Limits) -> loader.Document:
    """The document, with the positions of its two top levels only (see locate).

    Most files are valid and need no position: the index of every key and value
    costs time and most of a reading's memory. A file whose reading reported
    something that names a line only the whole index holds (a duplicate key's first
    line) is read again with every position.
    """
    with _collector_paused():
        doc = loader.load(text, limits=limits, positions="top")
        if doc.needs_index:
            doc = loader.load(text, limits=limits, positions="all")
    return doc


def _unloaded(
    doc: loader.Document, role: Role, text: str, limits: Limits, screen: Screen | None
) -> list[Diagnostic]:
    """The diagnostics of a document that did not load (a test-cases file's own wording)."""
    from holodeck_mt.text import ranges  # here and below: a clean file locates nothing (start-up)

    found = doc.diagnostics
    if role == "test-cases-file":
        found = [lax.no_test_cases(d) if d.code == "HMT006" else d for d in found]
    return _finish(ranges.with_ranges(text, found), limits, screen)


def _error_free(faults: list[Fault], doc: loader.Document) -> bool:
    """No fault and no loader diagnostic is an error: the run-time lints may run."""
    return not any(severity(f.code) == "error" for f in faults) and not any(
        d.severity == "error" for d in doc.diagnostics
    )


def _diagnostics(
    faults: list[Fault], doc: loader.Document, text: str, limits: Limits, screen: Screen | None
) -> list[Diagnostic]:
    """Every fault located, with the loader's diagnostics and the dialect warnings where
    no fault covers the node; capped, and the kept hints quoting a scalar as written."""
    faulted = doc.reported | {f.parts for f in faults}
    warned = dialect.warnings(doc.dialect, faulted)
    if not faults and not doc.diagnostics and not warned:
        return []
    from holodeck_mt.text import locate, ranges

    data = doc.data
    locator = locate.Locator(doc, limits)
    located = [locator.diagnostic(f) for f in faults]
    located += [locate.in_test_case(d, data) for d in ranges.with_ranges(text, doc.diagnostics)]
    located += [locate.in_test_case(d, data) for d in ranges.with_ranges(text, warned)]
    kept = _finish(located, limits, screen)
    return [_as_written(d, text, locator.lines(d.pointer_parts)) for d in kept]


def _as_written(d: Diagnostic, text: str, within: Lines | None) -> Diagnostic:
    """The diagnostic quoting its value as written there, everything it quotes clipped."""
    from holodeck_mt.text import quoting

    return _bounded(lax.as_written(quoting.as_written(d, text, within), text, within))


def _not_a_document(data: Any) -> Fault:
    shown = "empty" if data is None else f"a single {hints.kind_of(data)}"
    return Fault(
        "HMT006",
        f"the document is {shown}; an agent.yaml is a mapping and a test-cases file "
        "a list of test cases",
        (),
    )


def _schema_of(
    doc: loader.Document, role: Role, limits: Limits
) -> tuple[list[Fault], Callable[[Any], list[Fault]]]:
    """The schema's faults of the loaded document, and the function that found them
    (for the document as the platform reads it); none at or below a loader's report."""
    compiled = not doc.has_non_json

    def schema(document: Any) -> list[Fault]:
        found = fast_path.schema_faults(
            _ROOTS[role], document, compiled=compiled, max_cases=limits.max_diagnostics
        )
        return [f for f in found if not under(f.parts, doc.reported)]

    return schema(doc.data), schema


def _check_faults(context: Context, options: Options) -> list[Fault]:
    """The semantic checks' faults. The run-time lints come last: they run only while
    no check has found an error."""
    found: list[Fault] = []
    runnable = context.runtime
    for rule in rules_to_run(options):
        context.runtime = runnable
        for fault in rule.run(context):
            found.append(fault)
            runnable = runnable and severity(fault.code) != "error"
    return found


def validate_file(
    path: Path | str,
    *,
    display: str | None = None,
    options: Options | None = None,
    limits: Limits | None = None,
) -> list[FileResult]:
    """Validate a file, and the test-cases file it names; one result per file.

    The test-cases file must lie in the agent.yaml's tree (see :mod:`holodeck_mt.read.confine`).
    Raises :class:`OSError` when the file cannot be read (the CLI's exit 2), a path
    holding a NUL character included.
    """
    if "\x00" in str(path):
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character", repr(path))
    path = Path(path)
    display = display_path(display if display is not None else path)
    options = options or Options()
    limits = limits or Limits()
    base_dir = path.parent
    text, problem = read_text(path, limits)
    if text is None:
        return [_screened(display, [problem] if problem else [], options, limits)]
    return _closed(_validate_document(text, display, path, base_dir, options, limits), options)


def validate_document_text(
    text: str,
    *,
    path: str,
    base_dir: Path,
    options: Options | None = None,
    limits: Limits | None = None,
    followed_text: str | None = None,
) -> list[FileResult]:
    """As :func:`validate_file` for a file's text (an editor's unsaved buffer, say):
    the document, then the test-cases file it names, read from ``base_dir`` unless
    ``followed_text`` gives that file's text (the editor holds it too)."""
    options, limits = options or Options(), limits or Limits()
    display = display_path(path)
    results = _validate_document(
        text, display, Path(path), base_dir, options, limits, followed_text
    )
    return _closed(results, options)


def _validate_document(
    text: str,
    display: str,
    path: Path,
    base_dir: Path,
    options: Options,
    limits: Limits,
    followed_text: str | None = None,
) -> list[FileResult]:
    tree = confine.tree_of(path)
    result, doc = _validate_text(text, display, "document", base_dir, options, limits, tree)
    results = [result]
    if doc is not None and isinstance(doc.data, dict) and "test_cases" not in doc.data:
        target = doc.data.get("test_cases_file")
        if isinstance(target, str) and target:
            results += _follow(
                result, doc, target, base_dir, display, options, limits, tree, followed_text
            )
    return results


#: Where ``str.splitlines`` breaks lines.
_SPLITLINES = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def _lines(text: str, wanted: set[int]) -> Iterator[tuple[int, str]]:
    """The lines numbered in ``wanted`` (1-based, as ``text.splitlines()`` numbers them)."""
    if not wanted:
        return
    last, number, start = max(wanted), 1, 0
    for found in _SPLITLINES.finditer(text):
        if number in wanted:
            yield number, text[start : found.start()]
        number, start = number + 1, found.end()
        if number > last:
            return
    if number in wanted and start < len(text):
        yield number, text[start:]


def _follow(
    result: FileResult,
    agent: loader.Document,
    target: str,
    base_dir: Path,
    display: str,
    options: Options,
    limits: Limits,
    tree: Path,
    followed_text: str | None = None,
) -> list[FileResult]:
    """Validate the test-cases file an agent.yaml names, relative to its folder."""
    file = base_dir / target
    shown = display_path(os.path.normpath(os.path.join(os.path.dirname(display), target)))
    content, problem, why, code = None, None, None, "HMT110"
    try:  # the path comes from the file: it may hold a NUL, be too long, name a FIFO
        refused = confine.refusal(file, tree, allow_outside=options.allow_outside_paths)
        if refused is not None:
            why, code = refused, "HMT120"
        elif file.is_file():
            content, problem = read_text(file, limits)
        elif file.is_dir():
            why = "is a folder"
        else:
            why = "is not a regular file" if file.exists() else "does not exist"
    except (OSError, ValueError) as e:
        why = f"cannot be read ({getattr(e, 'strerror', None) or e})"
    if why is not None:
        fault = Fault(
            code,
            f"test_cases_file '{clip(target)}' {why}"
            + (f" (looked for {clip(str(file), 200)})" if code == "HMT110" else ""),
            ("test_cases_file",),
            hint="the path is relative to the agent.yaml's folder"
            if code == "HMT110"
            else "keep test-cases files inside the repository (--allow-outside-paths "
            "allows other places)",
        )
        from holodeck_mt.text import locate

        located = locate.Locator(agent, limits).diagnostic(fault)
        result.diagnostics = _finish([*result.diagnostics, located], limits, result.screen)
        return []
    if followed_text is not None and why is None:
        content, problem = followed_text, None
    if content is None:
        return [_screened(shown, [problem] if problem else [], options, limits)]
    referenced, _ = _validate_text(
        content,
        shown,
        "test-cases-file",
        base_dir,
        options,
        limits,
        tree,
        agent=agent.data,
        agent_clean=result.errors == 0,
    )
    return [referenced]


def read_text(path: Path, limits: Limits) -> tuple[str | None, Diagnostic | None]:
    """The file's text, or a diagnostic for a file too large or not text.

    Raises :class:`OSError` when the file cannot be read at all, or is not a
    regular file (a FIFO or a device would block or never end).
    """
    descriptor = confine.open_regular(path)
    with os.fdopen(descriptor, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > limits.max_bytes:
            return None, _too_large(size, limits)
        raw = file.read(limits.max_bytes + 1)  # a file that grew since stat stays bounded
    if len(raw) > limits.max_bytes:
        return None, _too_large(len(raw), limits)
    return loader.decode(raw)


def _too_large(size: int, limits: Limits) -> Diagnostic:
    too_large = make(
        "HMT004",
        f"the file is {size:,} bytes, over the limit of {limits.max_bytes:,}; it was not parsed",
        1,
        1,
        hint="raise the limit with --max-file-size if this is intended",
    )
    from holodeck_mt.text import ranges

    return ranges.with_range(None, too_large)


def _bounded(d: Diagnostic) -> Diagnostic:
    """The diagnostic with everything it quotes from the input clipped."""
    return dataclasses.replace(
        d,
        message=clip(d.message, MESSAGE),
        hint=clip(d.hint, MESSAGE) if d.hint is not None else None,
        test_case=clip(d.test_case) if d.test_case is not None else None,
        path=clip(d.path, MESSAGE),
    )


def _finish(
    diagnostics: Iterable[Diagnostic], limits: Limits, screen: Screen | None = None
) -> list[Diagnostic]:
    """Selected (``screen``: the codes chosen, the suppressions), clipped, sorted,
    deduplicated, and at most ``limits.max_diagnostics`` of them.

    Past the cap one ``HMT220`` line says how many more there are and how to see
    them: a hostile file cannot make the output grow with its number of faults.
    """
    kept = _dedupe(_bounded(d) for d in diagnostics if screen is None or screen.keep(d))
    cap = limits.max_diagnostics
    if not cap or len(kept) <= cap:
        return kept
    # A count of test cases not examined (fast_path) stays, after the capped list.
    counts = [d for d in kept if d.code == "HMT220"]
    kept = [d for d in kept if d.code != "HMT220"]
    if len(kept) <= cap:
        return [*kept, *counts]
    rest = kept[cap:]
    errors = sum(d.severity == "error" for d in rest)
    first = rest[0]
    more = make(
        "HMT220",
        f"{_count(len(rest), 'more diagnostic')} not shown, from this line on "
        f"({_count(errors, 'error')}, {_count(len(rest) - errors, 'warning')})",
        first.line,
        first.column,
        hint="--max-diagnostics 0 shows them all",
    )
    return [*kept[:cap], more, *counts]


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}{'' if n == 1 else 's'}"


def _dedupe(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        key = (d.code, d.pointer, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _names(data: Any) -> list[str | None]:
    """Each test case's name (clipped), by index; None when it has none."""
    names: list[str | None] = []
    for _, _, case in walk.test_cases(data):
        name = walk.name_of(case)
        names.append(clip(name) if name is not None else None)
    return names


def _stats(data: Any) -> dict[str, int]:
    cases = turns = 0
    for _, _, case in walk.test_cases(data):
        cases += 1
        if isinstance(case, dict) and isinstance(case.get("turns"), list):
            turns += len(case["turns"])
        else:
            turns += 1
    return {"test_cases": cases, "turns": turns}
