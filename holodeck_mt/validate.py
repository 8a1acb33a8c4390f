"""Validate one document: load, schema, semantic checks, then locate every fault.

This is the Python API: :func:`validate_text` for YAML text, :func:`validate_file`
for a path (following `test_cases_file`), both returning :class:`FileResult`.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import gc
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import Any, Literal, ParamSpec, TypeVar

from holodeck_mt import dialect, env_vars, fast_path, hints, lax, loader, quoting, walk
from holodeck_mt import schemas as sch
from holodeck_mt.checks import Context, Options, all_checks
from holodeck_mt.codes import Severity, severity
from holodeck_mt.diagnostics import Diagnostic, Fault, format_path, make, under
from holodeck_mt.limits import Limits

#: How a document is read: as given on the command line (an agent.yaml, or a
#: list of test cases), or as the test-cases file an agent.yaml names.
Role = Literal["document", "test-cases-file"]

_ROOTS: dict[Role, str] = {"document": sch.DOCUMENT, "test-cases-file": sch.TEST_CASES_FILE}


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=lambda: {"test_cases": 0, "turns": 0})
    #: The file's text, for renderers that quote the offending line.
    text: str | None = None
    #: Warnings fail the file too (``--strict``): its verdict in every format.
    strict: bool = False

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)

    @property
    def valid(self) -> bool:
        return self.errors == 0 and not (self.strict and self.warnings)

    def fails(self, diagnostic: Diagnostic) -> bool:
        """Whether ``diagnostic`` fails the file: an error, or any diagnostic when strict."""
        return self.strict or diagnostic.severity == "error"

    def level(self, diagnostic: Diagnostic) -> Severity:
        """The level a report gives ``diagnostic``: ``error`` when it fails the file."""
        return "error" if self.fails(diagnostic) else diagnostic.severity


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _gc_paused(function: Callable[_P, _T]) -> Callable[_P, _T]:
    """Run without the cyclic garbage collector, restored when the call returns.

    A loaded document is a million containers and no cycles: each collection
    the checks' allocations trigger would walk all of them again (a tenth of
    the run on a large file). The document is freed before the collector is
    back, when the call's frame goes.
    """

    @functools.wraps(function)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if was_enabled:
                gc.enable()

    return paused


@_gc_paused
def validate_text(
    text: str,
    *,
    path: str = "<text>",
    role: Role = "document",
    base_dir: Path | None = None,
    options: Options | None = None,
    limits: Limits | None = None,
) -> FileResult:
    """Validate YAML text; ``base_dir`` is the agent.yaml's folder (for opt-in checks).

    Raises :class:`ValueError` for a ``role`` other than ``"document"`` and
    ``"test-cases-file"``.
    """
    if not isinstance(role, str) or role not in _ROOTS:
        allowed = ", ".join(repr(r) for r in _ROOTS)
        raise ValueError(f"role must be one of {allowed}, got {role!r}")
    result, _ = _validate_text(text, path, role, base_dir or Path.cwd(), options, limits)
    return result


def _validate_text(
    text: str,
    path: str,
    role: Role,
    base_dir: Path,
    options: Options | None,
    limits: Limits | None,
    agent: Any = None,
    agent_clean: bool = True,
) -> tuple[FileResult, loader.Document | None]:
    """``agent``: the data of the agent.yaml naming this test-cases file, for run-time checks
    (which run only when neither that agent.yaml nor this document has an error)."""
    options = options or Options()
    limits = limits or Limits()
    result = FileResult(path=path, text=text)
    if len(text) > limits.max_bytes:
        result.diagnostics.append(_too_large(len(text), limits))
        return result, None
    doc = loader.load(text, limits=limits)
    doc.diagnostics += env_vars.unset_references(text)
    if not doc.loaded:
        if role == "test-cases-file":
            doc.diagnostics = [
                lax.no_test_cases(d) if d.code == "HMT006" else d for d in doc.diagnostics
            ]
        result.diagnostics = sorted(doc.diagnostics, key=Diagnostic.sort_key)
        return result, None
    data = doc.data
    faults: list[Fault] = []
    if role == "test-cases-file" and not data:
        faults.append(lax.NO_TEST_CASES)
    elif not isinstance(data, (dict, list)):
        shown = "empty" if data is None else f"a single {hints.kind_of(data)}"
        faults.append(
            Fault(
                "HMT006",
                f"the document is {shown}; an agent.yaml is a mapping and a test-cases file "
                "a list of test cases",
                (),
            )
        )
    else:
        compiled = not doc.has_non_json

        def schema(document: Any) -> list[Fault]:
            found = fast_path.schema_faults(_ROOTS[role], document, compiled=compiled)
            return [f for f in found if not under(f.parts, doc.reported)]

        # The schema's faults of the document as the platform reads it (lax.py).
        read, as_read = lax.relax(data, schema(data), schema, role=role)
        faults += read
        context = Context(
            data=as_read,
            base_dir=base_dir,
            options=options,
            reported=doc.reported | {f.parts for f in read if severity(f.code) == "error"},
            agent=agent,
            runtime=agent_clean
            and not any(severity(f.code) == "error" for f in faults)
            and not any(d.severity == "error" for d in doc.diagnostics),
        )
        runnable = context.runtime
        for check in all_checks(options):
            # The run-time lints come last: they see whether any check found an error.
            context.runtime = runnable
            for fault in check(context):
                faults.append(fault)
                runnable = runnable and severity(fault.code) != "error"
    located = [_locate(f, data, doc.positions) for f in faults]
    located += [_in_test_case(d, data) for d in doc.diagnostics]
    faulted = doc.reported | {f.parts for f in faults}
    located += [_in_test_case(d, data) for d in dialect.warnings(doc.dialect, faulted)]
    result.diagnostics = [
        lax.as_written(quoting.as_written(d, text), text) for d in _dedupe(located)
    ]
    result.stats = _stats(data)
    return result, doc


@_gc_paused
def validate_file(
    path: Path | str,
    *,
    display: str | None = None,
    options: Options | None = None,
    limits: Limits | None = None,
) -> list[FileResult]:
    """Validate a file, and the test-cases file it names; one result per file.

    Raises :class:`OSError` when the file cannot be read (the CLI's exit 2).
    """
    path = Path(path)
    display = display if display is not None else str(path)
    limits = limits or Limits()
    base_dir = path.parent
    text, problem = read_text(path, limits)
    if text is None:
        return [FileResult(path=display, diagnostics=[problem] if problem else [])]
    result, doc = _validate_text(text, display, "document", base_dir, options, limits)
    results = [result]
    if doc is not None and isinstance(doc.data, dict) and "test_cases" not in doc.data:
        target = doc.data.get("test_cases_file")
        if isinstance(target, str) and target:
            results += _follow(result, doc, target, base_dir, display, options, limits)
    return results


def _follow(
    result: FileResult,
    agent: loader.Document,
    target: str,
    base_dir: Path,
    display: str,
    options: Options | None,
    limits: Limits,
) -> list[FileResult]:
    """Validate the test-cases file an agent.yaml names, relative to its folder."""
    file = base_dir / target
    shown = os.path.normpath(os.path.join(os.path.dirname(display), target))
    content, problem, why = None, None, None
    try:  # the path comes from the file: it may hold a NUL, be too long, name a FIFO
        if file.is_file():
            content, problem = read_text(file, limits)
        elif file.is_dir():
            why = "is a folder"
        else:
            why = "is not a regular file" if file.exists() else "does not exist"
    except (OSError, ValueError) as e:
        why = f"cannot be read ({getattr(e, 'strerror', None) or e})"
    if why is not None:
        fault = Fault(
            "HMT110",
            f"test_cases_file '{loader.clip(target)}' {why} "
            f"(looked for {loader.clip(str(file), 200)})",
            ("test_cases_file",),
            hint="the path is relative to the agent.yaml's folder",
        )
        located = _locate(fault, agent.data, agent.positions)
        result.diagnostics = _dedupe([*result.diagnostics, located])
        return []
    if content is None:
        return [FileResult(path=shown, diagnostics=[problem] if problem else [])]
    referenced, _ = _validate_text(
        content,
        shown,
        "test-cases-file",
        base_dir,
        options,
        limits,
        agent=agent.data,
        agent_clean=result.errors == 0,
    )
    return [referenced]


def read_text(path: Path, limits: Limits) -> tuple[str | None, Diagnostic | None]:
    """The file's text, or a diagnostic for a file too large or not text.

    Raises :class:`OSError` when the file cannot be read at all.
    """
    status = path.stat()
    if not S_ISREG(status.st_mode):  # a FIFO or a device would block or never end
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    if status.st_size > limits.max_bytes:
        return None, _too_large(status.st_size, limits)
    with path.open("rb") as file:
        raw = file.read(limits.max_bytes + 1)  # a file that grew since stat stays bounded
    if len(raw) > limits.max_bytes:
        return None, _too_large(len(raw), limits)
    return loader.decode(raw)


def _too_large(size: int, limits: Limits) -> Diagnostic:
    return make(
        "HMT004",
        f"the file is {size:,} bytes, over the limit of {limits.max_bytes:,}; it was not parsed",
        1,
        1,
        hint="raise the limit with --max-file-size if this is intended",
    )


def _locate(fault: Fault, data: Any, positions: loader.Positions | None) -> Diagnostic:
    if positions is None:
        line, column = 1, 1
    elif fault.at == "key":
        line, column = positions.key(data, fault.parts)
    else:
        line, column = positions.value(data, fault.parts)
    return _in_test_case(
        make(fault.code, fault.message, line, column, pointer_parts=fault.parts, hint=fault.hint),
        data,
    )


def _in_test_case(diagnostic: Diagnostic, data: Any) -> Diagnostic:
    """Fill in the test case (name and index) and the path relative to it."""
    index, relative = walk.test_case_of(data, diagnostic.pointer_parts)
    name = None
    found = walk.test_case_list(data)
    if index is not None and found is not None:
        cases = found[0]
        case = cases[index] if index < len(cases) else None
        if isinstance(case, dict) and isinstance(case.get("name"), str) and case["name"]:
            name = case["name"]
    return dataclasses.replace(
        diagnostic, test_case=name, test_case_index=index, path=format_path(relative)
    )


def _dedupe(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        key = (d.code, d.pointer, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _stats(data: Any) -> dict[str, int]:
    cases = turns = 0
    for _, _, case in walk.test_cases(data):
        cases += 1
        if isinstance(case, dict) and isinstance(case.get("turns"), list):
            turns += len(case["turns"])
        else:
            turns += 1
    return {"test_cases": cases, "turns": turns}
