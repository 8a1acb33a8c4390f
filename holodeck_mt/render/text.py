"""``--format text``: for people, `file:line:col: error[CODE] test case 'name' (#i) path:
cause`, the source line with `^~~~` under the token, the hint, then a summary line."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from holodeck_mt.contract import unchecked
from holodeck_mt.model import Diagnostic
from holodeck_mt.text.safe_text import escape, guard_lines
from holodeck_mt.wording.hints import plural

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult

#: The code of the line that counts what a cap left out.
CAPPED = "HMT220"
_TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[^\s:,\]}#]+(?::[^\s,\]}]+)*""")
_MAX_SHOWN = 160


def use_colour(out: TextIO) -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def headline(result_path: str, d: Diagnostic) -> str:
    where = f"{d.in_test_case} " if d.in_test_case else ""
    path = f"{d.path}: " if d.path else ""
    line = f"{result_path}:{d.line}:{d.column}: {d.severity}[{d.code}] {where}{path}{d.message}"
    return guard_lines(escape(line))  # one line, whatever the input quoted in it holds


def _excerpt(line: str | None, d: Diagnostic, style: Callable[[str, str], str]) -> list[str]:
    if line is None:
        return []
    source = line.rstrip("\r\n")
    start = max(d.column - 1, 0)
    match = _TOKEN.match(source, start)
    width = max(len(match.group(0)) if match else 1, 1)
    if len(source) > _MAX_SHOWN:  # a long line: show a window around the column
        left = max(0, start - 40)
        source = ("…" if left else "") + source[left : left + _MAX_SHOWN] + "…"
        start = start - left + (1 if left else 0)
        width = min(width, _MAX_SHOWN - (start - 1))
    shown = escape(source.replace("\t", " "))
    start = len(escape(source[:start].replace("\t", " ")))  # escapes widen the line
    gutter = f"{d.line:>5} | "
    caret = "^" + "~" * (width - 1)
    colour = "31" if d.severity == "error" else "33"
    return [
        style(gutter, "34") + shown,
        style(" " * (len(gutter) - 2) + "| ", "34") + " " * start + style(caret, colour),
    ]


def render(results: Sequence[FileResult], out: TextIO) -> None:
    on = use_colour(out)

    def style(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if on else text

    for result in results:
        lines = result.quoted_lines()
        for d in result.diagnostics:
            colour = "1;31" if d.severity == "error" else "1;33"
            out.write(style(headline(result.path, d), colour) + "\n")
            for line in _excerpt(lines.get(d.line), d, style):
                out.write(line + "\n")
            if d.hint:
                out.write(f"  {style('hint', '36')}: {escape(d.hint)}\n")
    out.write(summary(results) + "\n")
    note = unchecked.sections_note(results)
    if note is not None:
        out.write(escape(note) + "\n")


def summary(results: Sequence[FileResult]) -> str:
    files = len(results)
    errors = sum(r.errors for r in results)
    warnings = sum(r.warnings for r in results)
    invalid = sum(not r.valid for r in results)
    if not files:
        return "No files validated."
    if invalid:
        strict = " (--strict: warnings fail)" if warnings and any(r.strict for r in results) else ""
        errors, warnings, shown = _past_the_cap(results, errors, warnings)
        return (
            f"Found {plural(errors, 'error')} and {plural(warnings, 'warning')} "
            f"in {invalid} of {plural(files, 'file')}{shown}{strict}."
        )
    tail = f" ({plural(warnings, 'warning')})" if warnings else ""
    return f"All {plural(files, 'file')} valid{tail}."


def _past_the_cap(
    results: Sequence[FileResult], errors: int, warnings: int
) -> tuple[int, int, str]:
    """The true totals where ``--max-diagnostics`` left diagnostics out, and what says so."""
    hidden_errors = sum(r.not_shown[0] for r in results)
    hidden_warnings = sum(r.not_shown[1] for r in results)
    if hidden_errors or hidden_warnings:
        total = errors + hidden_errors
        return total, warnings + hidden_warnings, f" ({errors:,} of {total:,} errors shown)"
    if any(d.code == CAPPED for r in results for d in r.diagnostics):
        return errors, warnings, " (and more in test cases not examined)"
    return errors, warnings, ""
