"""The one diagnostic record every check produces and every renderer reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from holodeck_mt.text.safe_text import MESSAGE, clip, clip_parts

Severity = Literal["error", "warning"]

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


def severity(code: str) -> Severity:
    """A code's severity, told by its number: ``HMT0xx`` and ``HMT1xx`` are errors, ``HMT2xx``
    and ``HMT3xx`` warnings. The registry (:mod:`holodeck_mt.rules.registry`) states each
    code's severity too, and a test keeps the two in agreement; this way a diagnostic is
    built without loading the rules."""
    return "error" if code[3:4] in ("0", "1") else "warning"


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
