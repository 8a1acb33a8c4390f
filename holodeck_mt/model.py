"""The records every stage shares: a fault found, the diagnostic it becomes, a file's result.

A leaf: the reader, the contract, the rules, the locator, the renderers, ``explain``
and the language server all speak these types, and none of them imports the pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from holodeck_mt.codes import Severity, severity
from holodeck_mt.text.safe_text import MESSAGE, clip, clip_parts

#: A location inside a document: mapping keys and list indices from the root.
JsonPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    line: int
    column: int
    pointer_parts: JsonPath = ()
    test_case: str | None = None
    test_case_index: int | None = None
    path: str = ""
    hint: str | None = None
    #: Where the offending key or value ends: 1-based, just after its last character.
    end_column: int | None = None
    severity: Severity = field(default="error")
    end_line: int | None = None

    @property
    def in_test_case(self) -> str:
        """``test case 'name' (#i)`` (see :func:`test_case_phrase`); empty outside one."""
        if self.test_case_index is None:
            return ""
        return test_case_phrase(self.test_case, self.test_case_index)

    @property
    def pointer(self) -> str:
        """The RFC 6901 pointer, each key clipped: it quotes the input's keys."""
        return clip(to_pointer(clip_parts(self.pointer_parts)), MESSAGE)

    def sort_key(self) -> tuple[int, int, str, str]:
        return (self.line, self.column, self.code, self.message)

    def to_json(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "test_case": self.test_case,
            "test_case_index": self.test_case_index,
            "path": self.path,
            "pointer": self.pointer,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line if self.end_line is not None else self.line,
            "end_column": self.end_column if self.end_column is not None else self.column,
            "hint": self.hint,
        }


def test_case_phrase(name: str | None, index: int) -> str:
    """``test case 'name' (#i)``, or ``test case #i`` when it has no name.

    How every message and every output names a test case: by its name when it has
    one (clipped, as anything quoted from the input is) and always by its index,
    which stays unambiguous when two test cases share a name.
    """
    return f"test case '{clip(name)}' (#{index})" if name else f"test case #{index}"


def make(
    code: str,
    message: str,
    line: int,
    column: int,
    *,
    pointer_parts: Sequence[str | int] = (),
    hint: str | None = None,
    end_column: int | None = None,
) -> Diagnostic:
    """Build a diagnostic whose severity comes from its code."""
    return Diagnostic(
        code=code,
        message=message,
        line=line,
        column=column,
        pointer_parts=tuple(pointer_parts),
        hint=hint,
        end_column=end_column,
        severity=severity(code),
    )


def under(parts: JsonPath, reported: set[JsonPath]) -> bool:
    """Whether ``parts`` is one of ``reported`` or lies below one of them.

    One set lookup per prefix: scanning ``reported`` for every path is quadratic,
    and a hostile file can make both counts large (one bad tag per list item).
    """
    return bool(reported) and any(parts[:i] in reported for i in range(len(parts) + 1))


def to_pointer(parts: Sequence[str | int]) -> str:
    """RFC 6901 JSON pointer."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def format_path(parts: Sequence[str | int]) -> str:
    """``turns[2].expected_tools[1].args.a.regex``; odd keys as ``["key"]``."""
    out: list[str] = []
    for p in parts:
        if isinstance(p, int):
            out.append(f"[{p}]")
        elif p.isidentifier():
            out.append(("." if out else "") + p)
        else:
            out.append('["' + p.replace("\\", "\\\\").replace('"', '\\"') + '"]')
    return "".join(out)


@dataclass(frozen=True)
class Fault:
    """A diagnostic before it is located: what is wrong, and at which node.

    ``at`` says which position locates it: ``"key"`` for an unknown or forbidden
    key, ``"value"`` for a wrong value or (on a mapping) a missing key.
    """

    code: str
    message: str
    parts: JsonPath
    at: str = "value"
    hint: str | None = None


#: How a document is read: as given on the command line (an agent.yaml, or a
#: list of test cases), or as the test-cases file an agent.yaml names.
Role = Literal["document", "test-cases-file"]


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

    def to_json(self) -> dict[str, Any]:
        """The file's entry of every JSON document (``--format json``, ``explain``)."""
        return {
            "path": self.path,
            "valid": self.valid,
            "stats": dict(self.stats),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }

    def fails(self, diagnostic: Diagnostic) -> bool:
        """Whether ``diagnostic`` fails the file: an error, or any diagnostic when strict."""
        return self.strict or diagnostic.severity == "error"

    def level(self, diagnostic: Diagnostic) -> Severity:
        """The level a report gives ``diagnostic``: ``error`` when it fails the file."""
        return "error" if self.fails(diagnostic) else diagnostic.severity


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
