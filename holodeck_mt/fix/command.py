"""``holodeck-mt fix PATH...``: apply the fix engine's fixes to files, or show them as a
diff (docs/fix.md). The file written is the real path validation read, inside the tree it
was confined to, only while it is as it was read, atomically, byte order mark kept.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from holodeck_mt.fix import engine as fixes
from holodeck_mt.limits import Limits
from holodeck_mt.model import EXIT_INVALID, EXIT_OK, EXIT_USAGE, clip, reason_of, usage_error
from holodeck_mt.pipeline import Checked, OptionsOf, check_file
from holodeck_mt.project import discovery, writes
from holodeck_mt.read import confine, decoding
from holodeck_mt.text.safe_text import display_path, escape
from holodeck_mt.wording.hints import plural


@dataclass(frozen=True)
class Request:
    unsafe: bool
    diff: bool
    limits: Limits


@dataclass
class Report:
    changed: list[str] = field(default_factory=list)
    applied: int = 0
    unsafe_left: int = 0
    errors_left: int = 0
    problems: list[str] = field(default_factory=list)


def run(paths: Sequence[str], request: Request, options_of: OptionsOf) -> Report:
    """Fix every file under ``paths``, each once, with its options (a diagnostic they or
    the file's comments silence is not fixed); a diff goes to standard output."""
    report = Report()
    found = discovery.find(paths)
    report.problems += found.problems
    # A file an agent.yaml names is fixed through it (as its test-cases file), after the rest.
    first, later, _ = discovery.order_followed_last(found.files)
    seen: discovery.VerdictsByFile = {}
    for at, path in enumerate(first + later):
        if at >= len(first) and discovery.same_file_key(path) in seen:
            continue
        try:
            checked = check_file(
                path, options=options_of(path), limits=request.limits, options_of=options_of
            )
            tree = confine.tree_of(Path(path))
        except (OSError, ValueError) as e:
            report.problems.append(f"cannot read '{writes.show_path(path)}': {reason_of(e)}")
            continue
        for each in checked:
            result = each.result
            fixed = discovery.same_file_key(result.source or result.path) in seen
            if not discovery.is_new_verdict(result, seen):
                continue
            if fixed or result.text is None or result.source is None or each.revalidate is None:
                # Fixed in its first role only: another role's errors are left.
                report.errors_left += result.errors
                continue
            try:
                _fix_result(each, tree, request, report)
            except writes.WriteError as e:
                report.problems.append(str(e))
    return report


def _fix_result(checked: Checked, tree: Path, request: Request, report: Report) -> None:
    """Fix the file a result was read from, if it is still the text that was validated."""
    result, revalidate = checked.result, checked.revalidate
    assert result.text is not None and result.source is not None and revalidate is not None
    source, name = Path(result.source), result.path
    raw, snapshot = writes.read(source, tree, request.limits.max_bytes, name)
    text, _ = decoding.decode(raw)
    if text != result.text:
        changed = f"'{writes.show_path(name)}' changed while it was read: it is left alone"
        raise writes.WriteError(changed)
    outcome = fixes.fix_all(text, lambda t: revalidate(t).diagnostics, unsafe=request.unsafe)
    report.unsafe_left += len(outcome.unsafe_left)
    report.errors_left += revalidate(outcome.text).errors
    if outcome.text == text:
        return
    path = str(Path(name))
    if request.diff:
        _write_diff(path, text, outcome.text)
    else:
        writes.replace(
            source, decoding.bom_of(raw) + outcome.text.encode("utf-8"), tree, snapshot, name
        )
    report.applied += len(outcome.applied)
    report.changed.append(path)


def _write_diff(path: str, before: str, after: str) -> None:
    name = escape(display_path(path))  # no control character reaches the terminal
    diff_lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{name}",
        tofile=f"b/{name}",
    )
    sys.stdout.writelines(map(_safe_line, diff_lines))
    if not after.endswith(("\n", "\r")):
        sys.stdout.write("\n\\ No newline at end of file\n")


def _safe_line(line: str) -> str:
    """A diff line as it is, unless it holds a character a terminal acts on: then escaped."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    plain = body.replace("\t", "")
    return line if escape(plain) == plain else escape(body) + ending


def summary(report: Report, *, diff: bool, unsafe: bool) -> str:
    verb = "Would fix" if diff else "Fixed"
    line = f"{verb} {plural(report.applied, 'problem')} in {plural(len(report.changed), 'file')}."
    if report.unsafe_left and not unsafe:
        fixes_left = f"{report.unsafe_left} unsafe fix{'' if report.unsafe_left == 1 else 'es'}"
        line += (
            f" {fixes_left} not applied (they change what a test asserts; "
            "--unsafe-fixes applies them)."
        )
    if report.errors_left:
        line += f" {plural(report.errors_left, 'error')} left: see `holodeck-mt validate`."
    return line


def main(
    paths: Sequence[str], *, unsafe: bool, diff: bool, limits: Limits, options_of: OptionsOf
) -> int:
    """The ``fix`` command: exit 0 when nothing is left to fix or report, 1 when errors
    remain (with ``--diff``: when a fix would change a file), 2 on a usage error."""
    report = run(paths, Request(unsafe, diff, limits), options_of)
    for problem in report.problems:
        print(usage_error(escape(clip(problem, 800))), file=sys.stderr)
    print(summary(report, diff=diff, unsafe=unsafe), file=sys.stderr)
    if report.problems:
        return EXIT_USAGE
    if diff:
        return EXIT_INVALID if report.changed else EXIT_OK
    return EXIT_INVALID if report.errors_left else EXIT_OK
