"""``--format text``: for people, `file:line:col: error[CODE] test case 'name' (#i) path:
cause`, the source line with `^~~~` under the token, the hint, then a summary line."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TextIO

from holodeck_mt.contract import unchecked
from holodeck_mt.model import CAPPED, Diagnostic
from holodeck_mt.text.quoting import TOKEN
from holodeck_mt.text.safe_text import escape, guard_lines
from holodeck_mt.wording.hints import plural

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult

_MAX_SHOWN = 160


def use_colour(out: TextIO, choice: str = "auto") -> bool:
    """``--color``'s choice; ``auto``: never with NO_COLOR, else with FORCE_COLOR or a terminal."""
    if choice != "auto" or os.environ.get("NO_COLOR"):
        return choice == "always"
    isatty = getattr(out, "isatty", None)
    terminal = os.environ.get("TERM") != "dumb" and bool(isatty and isatty())
    return bool(os.environ.get("FORCE_COLOR")) or terminal


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
    match = TOKEN.match(source, start)
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


def render(
    results: Sequence[FileResult], out: TextIO, *, colour: str = "auto", quiet: bool = False
) -> None:
    on = use_colour(out, colour)

    def style(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if on else text

    for result in results:
        lines = result.quoted_lines()
        for d in result.diagnostics:
            ink = "1;31" if d.severity == "error" else "1;33"
            out.write(style(headline(result.path, d), ink) + "\n")
            for line in _excerpt(lines.get(d.line), d, style):
                out.write(line + "\n")
            if d.hint:
                out.write(f"  {style('hint', '36')}: {escape(d.hint)}\n")
    out.write("" if quiet else summary(results) + "\n")
    note = None if quiet else unchecked.sections_note(results)
    if note is not None:
        out.write(escape(note) + "\n")


def summary(results: Sequence[FileResult]) -> str:
    """The true totals, every number grouped (``1,500``), and what the caps left out."""
    errors = sum(r.errors for r in results)
    warnings = sum(r.warnings for r in results)
    invalid = sum(not r.valid for r in results)
    if not results:
        return "No files validated."
    said = [plural(warnings, "warning", grouped=True)] if warnings and not invalid else []
    said += _say_left_out(results, (("error", errors), ("warning", warnings)))
    tail = f" ({'; '.join(said)})" if said else ""
    if not invalid:
        return f"All {plural(len(results), 'file', grouped=True)} valid{tail}."
    strict = " (--strict: warnings fail)" if warnings and any(r.strict for r in results) else ""
    return (
        f"Found {plural(errors, 'error', grouped=True)} and "
        f"{plural(warnings, 'warning', grouped=True)} in {invalid:,} of "
        f"{plural(len(results), 'file', grouped=True)}{tail}{strict}."
    )


def _say_left_out(results: Sequence[FileResult], totals: Iterable[tuple[str, int]]) -> list[str]:
    """What the caps left out: how many of each level are shown, test cases not examined."""
    seen = Counter[str](d.severity for r in results for d in r.diagnostics if d.code != CAPPED)
    said = [f"{seen[k]:,} of {plural(n, k, grouped=True)} shown" for k, n in totals if seen[k] < n]
    if any(d.code == CAPPED and d.not_shown is None for r in results for d in r.diagnostics):
        said.append("more in invalid test cases not examined")
    return said
