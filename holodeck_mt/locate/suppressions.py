"""Which diagnostics a file's own comments silence (``# holodeck-mt: ignore[HMT213]``, see
docs/usage.md), and the selection of codes applied. A directive counts only in a comment, never
inside a scalar (the test's data)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from holodeck_mt.model import Diagnostic, FileResult, make
from holodeck_mt.rules.registry import CODES
from holodeck_mt.selection import SELECTOR, Options, Selection
from holodeck_mt.text.lines import SPLITLINES

MARK = "holodeck-mt:"
#: The most suppressions read from one file: a hostile file cannot make the list grow.
MOST_SUPPRESSIONS = 1_000
#: The most directives looked at, in comments or not (a scalar may be full of them).
MOST_WRITTEN = 10 * MOST_SUPPRESSIONS
_DIRECTIVE = re.compile(
    r"#[ \t]*holodeck-mt:[ \t]*(ignore-file|ignore)(?![-\w])(?:\[([^\]\n]{0,400})\])?"
)


@dataclass
class Suppression:
    line: int
    column: int
    end_column: int
    file_wide: bool
    #: The codes or prefixes it names (none when it silences every code).
    codes: tuple[str, ...]
    #: Written without brackets: it silences every code.
    every: bool = False
    #: The codes it names that no code of the registry starts with.
    unknown: tuple[str, ...] = ()
    used: set[str] = field(default_factory=set)

    def silences(self, code: str) -> bool:
        if self.every:
            self.used.add("")
            return True
        for selector in self.codes:
            if code.startswith(selector):
                self.used.add(selector)
                return True
        return False


def read(text: str) -> list[Suppression]:
    """The suppressions written in ``text``'s comments, in order (at most
    :data:`MOST_SUPPRESSIONS`)."""
    if MARK not in text:
        return []
    written = list(itertools.islice(_DIRECTIVE.finditer(text), MOST_WRITTEN))
    if not written:
        return []
    from holodeck_mt.read.comments import in_comments

    commented = in_comments(text, [match.start() for match in written])
    found: list[Suppression] = []
    line, position, line_start = 1, 0, 0
    for match in itertools.compress(written, commented):
        for brk in SPLITLINES.finditer(text, position, match.start()):
            line, line_start = line + 1, brk.end()
        position = match.start()
        found.append(_suppression(match, line, match.start() - line_start + 1))
        if len(found) >= MOST_SUPPRESSIONS:
            break
    return found


def _suppression(match: re.Match[str], line: int, column: int) -> Suppression:
    kind, listed = match.group(1), match.group(2)
    named = [part.strip().upper() for part in (listed or "").split(",") if part.strip()]
    known = [c for c in named if SELECTOR.fullmatch(c) and any(k.startswith(c) for k in CODES)]
    return Suppression(
        line=line,
        column=column,
        end_column=column + match.end() - match.start(),
        file_wide=kind == "ignore-file",
        codes=tuple(known),
        every=listed is None,
        unknown=tuple(c for c in named if c not in known),
    )


class Screen:
    """What a file reports: its diagnostics less the deselected and the silenced codes."""

    def __init__(self, text: str, path: str, options: Options) -> None:
        self.path = path
        self.selection: Selection = options.selection
        #: Whether a suppression that silenced nothing is reported (HMT221), when asked.
        self.report_unused = options.report_unused_ignores and self.selection.selects(
            "HMT221", path
        )
        self.suppressions = read(text)
        self._file_wide = [s for s in self.suppressions if s.file_wide]
        self._by_line: dict[int, list[Suppression]] = {}
        for s in self.suppressions:
            if not s.file_wide:
                self._by_line.setdefault(s.line, []).append(s)

    @classmethod
    def of(cls, text: str, path: str, options: Options) -> Screen | None:
        """The screen of a file, or None when it lets everything through (nothing to do)."""
        if options.selection.everything and MARK not in text:
            return None
        return cls(text, path, options)

    def keep(self, d: Diagnostic) -> bool:
        if not self.selection.selects(d.code, self.path):
            return False
        if any(s.silences(d.code) for s in self._file_wide):
            return False
        if d.code == "HMT001":
            return True
        return not any(s.silences(d.code) for s in self._by_line.get(d.line, ()))

    def unused(self) -> list[Diagnostic]:
        """An HMT221 for each code of a suppression that silenced nothing (when asked)."""
        if not self.report_unused:
            return []
        return list(itertools.islice(self._unused(), MOST_SUPPRESSIONS))

    def _unused(self) -> Iterator[Diagnostic]:
        for s in self.suppressions:
            where = "in this file" if s.file_wide else "on this line"
            directive = "ignore-file" if s.file_wide else "ignore"
            for code in s.unknown:
                yield self._diagnostic(
                    s,
                    f"`{directive}[{code[:20]}]` names no code",
                    "codes are listed in docs/diagnostics.md",
                )
            if s.every and "" not in s.used:
                yield self._diagnostic(s, f"`{directive}` silences no diagnostic {where}")
            for code in s.codes:
                if code not in s.used:
                    yield self._diagnostic(
                        s, f"`{directive}[{code}]` silences no {code} diagnostic {where}"
                    )

    @staticmethod
    def _diagnostic(s: Suppression, message: str, hint: str | None = None) -> Diagnostic:
        return make(
            "HMT221",
            message,
            s.line,
            s.column,
            hint=hint or "remove the suppression, or the codes it no longer needs",
            end_column=s.end_column,
        )


def close(screened: list[tuple[FileResult, Screen | None]], options: Options) -> list[FileResult]:
    """The results, each with the unused suppressions of its screen reported when asked."""
    for result, screen in screened:
        unused = screen.unused() if screen is not None and options.report_unused_ignores else []
        if unused:
            result.diagnostics = sorted([*result.diagnostics, *unused], key=Diagnostic.sort_key)
    return [result for result, _ in screened]
