"""The records every stage shares: a fault, the diagnostic it becomes, a file's result, and
the fix either carries. The bottom layer: it imports nothing of the package."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

Severity = Literal["error", "warning"]
#: The code of the lines about what a cap left out: no fault of the author's, in no total.
CAPPED = "HMT220"

#: A location inside a document: mapping keys and list indices from the root.
JsonPath = tuple[str | int, ...]

#: How much of one quoted input a message shows (a name, a key, a value).
QUOTE = 60
#: The longest message, hint, field path or pointer a diagnostic carries.
MESSAGE = 400


def clip(text: str, limit: int = QUOTE) -> str:
    """At most ``limit`` characters of ``text``, ending in ``…`` when cut (a name quoted from a
    hostile input can be a megabyte)."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


#: Marks around what a message shows of the input, resolved by ``locate/provenance``:
#: ``VALUE`` any input, ``OWN`` the diagnostic's own node, ``DERIVED`` words computed from
#: it (a did-you-mean), then ``INSTEAD`` and what stands for them when it was substituted;
#: ``ORIGIN`` the nodes a value came from (:data:`Origin`), then ``INSTEAD`` and the value.
VALUE, OWN, DERIVED, ORIGIN, INSTEAD, END = KINDS_AND_ENDS = tuple(map(chr, range(0xE000, 0xE006)))
MARKS, _UNMARKED = "".join(KINDS_AND_ENDS), dict.fromkeys(range(0xE000, 0xE006))
#: One marked piece: its kind, its words, what follows ``INSTEAD`` (a clip may cut its end).
PIECE = re.compile(f"([{MARKS[:4]}])([^{MARKS}]*)(?:{INSTEAD}([^{MARKS}]*))?(?:{END}|$)")
#: Where a value came from: the agent.yaml naming the test-cases file judged (True), or not.
Origin = tuple[bool, JsonPath]


def marked(text: str, kind: str = VALUE, at: Sequence[Origin] = ()) -> str:
    """``text`` (input, as a message shows it) between marks of ``kind``, or, ``at`` given,
    of the nodes it came from."""
    if at:
        return ORIGIN + json.dumps(list(at)) + INSTEAD + text.translate(_UNMARKED) + END
    return kind + text.translate(_UNMARKED) + END


def unmarked(text: str) -> str:
    """``text`` as shown when none of what it marks came from a reference."""
    if not any(m in text for m in MARKS):
        return text
    shown = PIECE.sub(lambda m: m.group(3) or "" if m.group(1) == ORIGIN else m.group(2), text)
    return shown.translate(_UNMARKED)


def derived(text: str, instead: str = "") -> str:
    """Words computed from the own node, ``instead`` shown when it came from a reference."""
    return DERIVED + text.translate(_UNMARKED) + INSTEAD + instead.translate(_UNMARKED) + END


def clip_parts(parts: Sequence[str | int], limit: int = QUOTE) -> tuple[str | int, ...]:
    """A document path with each key clipped (for a field path or pointer shown to users)."""
    return tuple(clip(p, limit) if isinstance(p, str) else p for p in parts)


#: The commands' exit codes: nothing wrong; an error in a file (``explain``: the file is
#: refused; ``fix --diff``: a file would change); a usage error or a path that cannot be read.
EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def usage_error(message: object) -> str:
    """A usage error's line, as every command writes it on stderr."""
    return f"holodeck-mt: error: {message}"


def reason_of(error: BaseException) -> str:
    """Why a file could not be read or written: the system's words, else the error's."""
    return str(getattr(error, "strerror", None) or error)


#: Whether a fix is applied unasked (``safe``) or only with ``--unsafe-fixes`` (``unsafe``).
Applicability = Literal["safe", "unsafe"]


@dataclass(frozen=True)
class Intent:
    """What would fix a fault, decided where the fault is made; its hint is its own words. Safe
    when the fix keeps what the file means, unsafe when it removes or renames what was written."""

    applicability: ClassVar[Applicability] = "safe"
    #: What the fix writes (each kind's own ``does`` is its row of docs/fix.md).
    does: ClassVar[str]

    def hint(self) -> str:
        """Its words as a diagnostic's hint holds them, the input marked (``marked``)."""
        raise NotImplementedError


def _key_prefix(key: str | None) -> str:
    return f"{key}: " if key is not None else ""


@dataclass(frozen=True)
class Quote(Intent):
    does: ClassVar[str] = 'quote the scalar as written: `14.10` becomes `"14.10"`, not `"14.1"`'
    #: The scalar in its quotes, as the hint shows it (None: the hint shows no value).
    shown: str | None = None
    key: str | None = None
    #: When to follow it, if not always: ``" if it is meant as text"``.
    condition: str = ""

    def hint(self) -> str:
        head = f"quote it{self.condition}"
        shown = self.shown
        return head if shown is None else f"{head}: {_key_prefix(self.key)}{marked(shown, OWN)}"


@dataclass(frozen=True)
class Unquote(Intent):
    does: ClassVar[str] = 'write a quoted number unquoted: `"0.5"` becomes `0.5`'
    number: str
    key: str | None = None

    def hint(self) -> str:
        return f"write it unquoted: {_key_prefix(self.key)}{marked(self.number, OWN)}"


@dataclass(frozen=True)
class Rewrite(Intent):
    does: ClassVar[str] = 'write the value as the platform reads it: `"yes"` becomes `true`'
    literal: str
    key: str | None = None

    def hint(self) -> str:
        return f"write {_key_prefix(self.key)}{marked(self.literal, OWN)}"


@dataclass(frozen=True)
class Rename(Intent):
    applicability: ClassVar[Applicability] = "unsafe"
    does: ClassVar[str] = "rename the key or value to its one did-you-mean candidate"
    to: str

    def hint(self) -> str:
        return derived(f"did you mean '{self.to}'?")


@dataclass(frozen=True)
class Remove(Intent):
    applicability: ClassVar[Applicability] = "unsafe"
    does: ClassVar[str] = "remove the key, its value and its line (or its comma in a flow mapping)"
    #: The other way out the hint offers: ``use `metric: numeric` ``.
    otherwise: str | None = None

    def hint(self) -> str:
        return "remove it" if self.otherwise is None else f"remove it, or {self.otherwise}"


@dataclass(frozen=True)
class Count(Intent):
    applicability: ClassVar[Applicability] = "unsafe"
    does: ClassVar[str] = "write a repeated tool once: `- {name: subtract, count: 2}`"
    name: str
    times: int

    def hint(self) -> str:
        return (
            f"to require several calls, write `- name: {marked(clip(self.name), OWN)}` with "
            f"`count: {self.times}`"
        )


#: Every kind of fix, in the order the table of docs/fix.md lists them.
INTENTS: tuple[type[Intent], ...] = (Quote, Unquote, Rewrite, Rename, Remove, Count)


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``text[start:end]`` (offsets into the text) with ``new_text``."""

    start: int
    end: int
    new_text: str


@dataclass(frozen=True)
class Fix:
    """The fix of one diagnostic, placed in its text."""

    diagnostic: Diagnostic
    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability
    #: Offsets no other fix may change in the same pass: a removed key waits while a sibling
    #: is fixed, since that fix may be what gives the key effect.
    isolation: tuple[int, int] | None = None

    @property
    def safe(self) -> bool:
        return self.applicability == "safe"


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
    #: What would fix it: not part of its identity, nor of any output but a fix.
    fix: Intent | None = field(default=None, compare=False)
    #: On the line standing for those past ``--max-diagnostics``: how many of each code.
    not_shown: dict[str, int] | None = field(default=None, compare=False)

    @property
    def in_test_case(self) -> str:
        """``test case 'name' (#i)`` (see :func:`test_case_phrase`); empty outside one."""
        if self.test_case_index is None:
            return ""
        return test_case_phrase(self.test_case, self.test_case_index)

    @property
    def where(self) -> str:
        """``test case 'name' (#0), turns[1].input``: the test case and the field path."""
        return ", ".join(part for part in (self.in_test_case, self.path) if part)

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


def test_case_phrase(name: str | None, index: int, *, at: JsonPath | None = None) -> str:
    """``test case 'name' (#i)``, or ``test case #i`` when it has no name: how every output
    names a test case (the index stays unambiguous when two share a name); ``at``: where
    the name stands, for a message (marked)."""
    shown = (clip(name) if at is None else marked(clip(name), at=[(False, at)])) if name else ""
    return f"test case '{shown}' (#{index})" if name else f"test case #{index}"


def make(
    code: str,
    message: str,
    line: int,
    column: int,
    *,
    pointer_parts: Sequence[str | int] = (),
    hint: str | None = None,
    end_column: int | None = None,
    fix: Intent | None = None,
) -> Diagnostic:
    """Build a diagnostic whose severity comes from its code (and its hint from its fix)."""
    return Diagnostic(
        code=code,
        message=message,
        line=line,
        column=column,
        pointer_parts=tuple(pointer_parts),
        hint=fix.hint() if fix is not None else hint,
        end_column=end_column,
        severity=severity(code),
        fix=fix,
    )


def severity(code: str) -> Severity:
    """A code's severity, told by its number: ``HMT0xx`` and ``HMT1xx`` are errors, the rest
    warnings (here, so that a diagnostic is built without loading the rules)."""
    return "error" if code[3:4] in ("0", "1") else "warning"


def under(parts: JsonPath, reported: set[JsonPath]) -> bool:
    """Whether ``parts`` is one of ``reported`` or lies below one: one set lookup per prefix,
    as a hostile file can make both counts large (one bad tag per list item)."""
    return bool(reported) and any(parts[:i] in reported for i in range(len(parts) + 1))


def pointer_segment(name: str) -> str:
    """A name as one segment of an RFC 6901 JSON pointer."""
    return name.replace("~", "~0").replace("/", "~1")


def to_pointer(parts: Sequence[str | int]) -> str:
    """RFC 6901 JSON pointer."""
    return "".join("/" + pointer_segment(str(p)) for p in parts)


def format_path(parts: Sequence[str | int], limit: int | None = None) -> str:
    """``turns[2].expected_tools[1].args.a.regex``; odd keys as ``["key"]``; with ``limit``,
    each key clipped to it, written as what is shown of it reads (a key of a megabyte is
    not read whole for each diagnostic naming it)."""
    out: list[str] = []
    for p in parts:
        if isinstance(p, int):
            out.append(f"[{p}]")
            continue
        name = p if limit is None else clip(p, limit)
        if (p if name is p else p[: len(name) - 1]).isidentifier():
            out.append(("." if out else "") + name)
        else:
            out.append('["' + name.replace("\\", "\\\\").replace('"', '\\"') + '"]')
    return "".join(out)


@dataclass(frozen=True)
class Fault:
    """A diagnostic before it is located; ``at``: ``"key"`` for an unknown or forbidden key,
    ``"value"`` for a wrong value or (on a mapping) a missing key."""

    code: str
    message: str
    parts: JsonPath
    at: str = "value"
    hint: str | None = None
    fix: Intent | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.fix is not None:
            object.__setattr__(self, "hint", self.fix.hint())

    @property
    def severity(self) -> Severity:
        return severity(self.code)


#: How a document is read: as given (an agent.yaml, or a list of test cases), or as the
#: test-cases file an agent.yaml names.
Role = Literal["document", "test-cases-file"]


@dataclass
class FileResult:
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=lambda: {"test_cases": 0, "turns": 0})
    #: The file's text, for renderers that quote the offending line.
    text: str | None = None
    #: Only the quoted lines by number, once the text is dropped (a run over many files keeps none).
    quoted: dict[int, str] | None = None
    #: Each test case's name (clipped) by index, None when unnamed: no renderer parses YAML.
    test_cases: list[str | None] = field(default_factory=list)
    #: Warnings fail the file too (``--strict``): its verdict in every format.
    strict: bool = False
    #: The agent.yaml's sections no platform model checked, and why: ``off``, or why the
    #: platform does not import (``contract.platform_models.absence``).
    unchecked: tuple[str, ...] = ()
    unchecked_because: str = ""
    #: The real path the text was read from (None: given as text): what ``fix`` writes.
    source: str | None = None
    #: The real paths of the other files its verdict depends on (a ``prompt_file``).
    reads: list[str] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        """The file's diagnostics by code, those past the cap too, the cap's lines not."""
        found = Counter[str]()
        for d in self.diagnostics:
            found.update(d.not_shown or {d.code: 1})
        del found[CAPPED]
        return found

    @property
    def errors(self) -> int:
        return sum(n for code, n in self.counts().items() if severity(code) == "error")

    @property
    def warnings(self) -> int:
        return sum(n for code, n in self.counts().items() if severity(code) == "warning")

    @property
    def valid(self) -> bool:
        return self.errors == 0 and not (self.strict and self.warnings)

    def quoted_lines(self) -> dict[int, str]:
        """The lines the diagnostics quote, by 1-based number."""
        if self.quoted is not None:
            return self.quoted
        lines = self.text.splitlines() if self.text is not None else []
        return {d.line: lines[d.line - 1] for d in self.diagnostics if 1 <= d.line <= len(lines)}

    def to_json(self) -> dict[str, Any]:
        """The file's entry of every JSON document."""
        return {
            "path": self.path,
            "valid": self.valid,
            "stats": dict(self.stats),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }

    def level(self, diagnostic: Diagnostic) -> Severity | Literal["note"]:
        """The level a report gives ``diagnostic``: in a strict file, an error; a cap's, a note."""
        return "note" if diagnostic.code == CAPPED else self.level_of(diagnostic.code)

    def level_of(self, code: str) -> Severity:
        return "error" if self.strict else severity(code)
