"""``holodeck-mt fix PATH...``: apply the fix engine's fixes to files, or show them as a diff.

The files are the ones ``validate`` reads (an agent.yaml and the test-cases file it names,
a test-cases file, the agent.yaml files under a folder). Safe fixes are applied;
``--unsafe-fixes`` applies the rest too; ``--diff`` prints a unified diff and writes
nothing. A file is rewritten only when a fix changed it, and only the fixed characters
change: the bytes it is written back with are its own, byte order mark included.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from holodeck_mt.app import discovery
from holodeck_mt.fix import engine as fixes
from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic, Role
from holodeck_mt.pipeline import validate_file, validate_text
from holodeck_mt.text.safe_text import clip, escape

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Request:
    unsafe: bool
    diff: bool
    limits: Limits
    out: TextIO


@dataclass
class Report:
    changed: list[str] = field(default_factory=list)
    applied: int = 0
    unsafe_left: int = 0
    errors_left: int = 0
    problems: list[str] = field(default_factory=list)


def run(
    paths: Sequence[str],
    *,
    unsafe: bool,
    diff: bool,
    limits: Limits,
    out: TextIO,
) -> Report:
    """Fix every file under ``paths``, each once; the diff (``diff``) goes to ``out``."""
    report = Report()
    request = Request(unsafe, diff, limits, out)
    found = discovery.find(paths)
    report.problems += found.problems
    # A file an agent.yaml names is fixed through it (as its test-cases file), after the rest.
    followed = {
        discovery.same_file_key(target)
        for target in map(discovery.agent_target, map(Path, found.files))
        if target is not None
    }
    ordered = sorted(found.files, key=lambda f: discovery.same_file_key(f) in followed)
    seen: set[str] = set()
    for path in ordered:
        if discovery.same_file_key(path) in seen:
            continue
        try:
            results = validate_file(path, limits=limits)
        except OSError as e:
            report.problems.append(f"cannot read '{path}': {e.strerror or e}")
            continue
        base_dir = Path(path).parent
        for index, result in enumerate(results):
            key = discovery.same_file_key(result.path)
            if key in seen:
                continue
            seen.add(key)
            role: Role = "document" if index == 0 else "test-cases-file"
            if result.text is None:
                report.errors_left += result.errors
                continue
            _fix_file(Path(result.path), result.text, role, base_dir, request, report)
    return report


def _fix_file(
    path: Path,
    text: str,
    role: Role,
    base_dir: Path,
    request: Request,
    report: Report,
) -> None:
    def diagnose(candidate: str) -> list[Diagnostic]:
        shown = str(path)
        found = validate_text(candidate, path=shown, role=role, base_dir=base_dir, limits=limits)
        return found.diagnostics

    limits, out = request.limits, request.out
    outcome = fixes.fix_all(text, diagnose, unsafe=request.unsafe)
    report.unsafe_left += len(outcome.unsafe_left)
    report.errors_left += sum(d.severity == "error" for d in diagnose(outcome.text))
    if outcome.text == text:
        return
    report.applied += len(outcome.applied)
    report.changed.append(str(path))
    if request.diff:
        out.writelines(
            difflib.unified_diff(
                text.splitlines(keepends=True),
                outcome.text.splitlines(keepends=True),
                fromfile=f"a/{_printable(str(path))}",
                tofile=f"b/{_printable(str(path))}",
            )
        )
        if not outcome.text.endswith(("\n", "\r")):
            out.write("\n\\ No newline at end of file\n")
        return
    raw = path.read_bytes()
    bom = _BOM if raw.startswith(_BOM) else b""
    path.write_bytes(bom + outcome.text.encode("utf-8"))


def _printable(text: str) -> str:
    """No control character of a file name reaches the terminal."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def summary(report: Report, *, diff: bool, unsafe: bool) -> str:
    def count(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    verb = "Would fix" if diff else "Fixed"
    line = f"{verb} {count(report.applied, 'problem')} in {count(len(report.changed), 'file')}."
    if report.unsafe_left and not unsafe:
        fixes_left = f"{report.unsafe_left} unsafe fix{'' if report.unsafe_left == 1 else 'es'}"
        line += (
            f" {fixes_left} not applied (they change what a test asserts; "
            "--unsafe-fixes applies them)."
        )
    if report.errors_left:
        line += f" {count(report.errors_left, 'error')} left: see `holodeck-mt validate`."
    return line


def main(paths: Sequence[str], *, unsafe: bool, diff: bool, limits: Limits) -> int:
    """The ``fix`` command: exit 0 when nothing is left to fix or report, 1 when errors
    remain (with ``--diff``: when a fix would change a file), 2 on a usage error."""
    report = run(paths, unsafe=unsafe, diff=diff, limits=limits, out=sys.stdout)
    for problem in report.problems:
        print(f"holodeck-mt: error: {escape(clip(problem, 800))}", file=sys.stderr)
    print(summary(report, diff=diff, unsafe=unsafe), file=sys.stderr)
    if report.problems:
        return 2
    if diff:
        return 1 if report.changed else 0
    return 1 if report.errors_left else 0
