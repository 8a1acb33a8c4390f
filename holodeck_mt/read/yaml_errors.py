"""A YAML syntax error, told as the slip the author made and how to fix it.

The parser says what it met ("found character that cannot start any token"), not what
went wrong (a tab in the indentation). :func:`explain` names the commonest slips from
the parser's problem, context and the source; anything else keeps the parser's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml
from yaml._yaml import CParser

from holodeck_mt.model import clip, marked

Mark = tuple[int, int]  # 0-based line and column, as the parser counts them

_BRACKETS = {"flow sequence": ("[", "]"), "flow mapping": ("{", "}")}
#: C0 and C1 control characters as ``\\xNN``, a tab as ``\\t``.
_ESCAPES = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))} | {0x09: "\\t"}
_INDENTATION_PROBLEMS = (
    "did not find expected '-' indicator",
    "did not find expected key",
    "did not find expected <block end>",
    "mapping values are not allowed in this context",
    "block sequence entries are not allowed in this context",
)


@dataclass(frozen=True)
class Explanation:
    message: str
    hint: str | None
    #: 1-based, where the slip is (not always where the parser stopped).
    line: int
    column: int


def explain(
    text: str,
    problem: str | None,
    problem_mark: Mark | None,
    context: str | None = None,
    context_mark: Mark | None = None,
) -> Explanation:
    """The message, hint and position of one syntax error (``YAML syntax error: ...``)."""
    lines = text.splitlines()
    mark = problem_mark or context_mark or (0, 0)
    problem, context = problem or "", context or ""
    found = (
        _tab(lines, mark)
        or _unknown_escape(lines, problem, mark, context_mark)
        or _unclosed_quote(lines, problem, context, context_mark)
        or _unclosed_bracket(problem, mark, context, context_mark)
        or _runaway_quote(text, mark)
        or _colon_in_value(lines, problem, mark)
        or _indentation(lines, problem, mark)
    )
    return found or _in_parser_words(problem, mark, context, context_mark)


def _in_parser_words(problem: str, mark: Mark, context: str, cmark: Mark | None) -> Explanation:
    cause = clip(problem or context or "unreadable YAML", 200)
    if problem and context:
        where = f" started at line {cmark[0] + 1}" if cmark else ""
        cause = f"{clip(problem, 200)} ({clip(context, 200)}{where})"
    return Explanation(f"YAML syntax error: {cause}", None, mark[0] + 1, mark[1] + 1)


def show_line(text: str, limit: int = 60) -> str:
    """A line of the source in a message: clipped, tabs and control characters escaped."""
    return '"' + clip(text, limit).translate(_ESCAPES) + '"'


def _line(lines: list[str], index: int) -> str:
    return lines[index] if 0 <= index < len(lines) else ""


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _tab(lines: list[str], mark: Mark) -> Explanation | None:
    """A tab in the indentation of the line the parser stopped on."""
    line = _line(lines, mark[0])
    indent = _indent(line)
    if "\t" not in indent:
        return None
    column = indent.index("\t") + 1
    return Explanation(
        f"YAML syntax error: line {mark[0] + 1} is indented with a tab: "
        f"{marked(show_line(line)[1:-1])} (YAML indents with spaces only)",
        "replace the tab with spaces",
        mark[0] + 1,
        column,
    )


def _unknown_escape(
    lines: list[str], problem: str, mark: Mark, cmark: Mark | None
) -> Explanation | None:
    """``"^\\d+$"``: a backslash escape YAML does not know, in double quotes."""
    if problem != "found unknown escape character" or cmark is None:
        return None
    line = _line(lines, mark[0])
    backslash = mark[1] if line[mark[1] : mark[1] + 1] == "\\" else max(mark[1] - 1, 0)
    escape = line[backslash : backslash + 2]
    opened = _line(lines, cmark[0])
    written = _read_double_quoted(opened, cmark[1]) if cmark[0] == mark[0] else None
    fix = "use single quotes, where a backslash is just a backslash"
    if written is not None:
        key = _KEY_BEFORE.search(opened[: cmark[1]])
        fix += f": {key.group(1) + ': ' if key else ''}{marked(clip(_single_quote(written)))}"
    return Explanation(
        f"YAML syntax error: {marked(show_line(escape))} is not an escape YAML knows: in a "
        "double-quoted string a backslash starts an escape",
        fix,
        mark[0] + 1,
        backslash + 1,
    )


_KEY_BEFORE = re.compile(r"([^\s{},\[\]#'\"]+):[ \t]+\Z")


def _read_double_quoted(line: str, start: int) -> str | None:
    """The characters between the double quote at ``start`` and the one closing it."""
    found = _DOUBLE_QUOTED.match(line, start)
    return found.group(1) if found else None


_DOUBLE_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"', re.S)


def _single_quote(written: str) -> str:
    """``written`` (a double-quoted string's characters) in single quotes, backslashes kept."""
    unescaped = _KNOWN_ESCAPE.sub(r"\1", written)  # \\ and \" meant \ and "
    return "'" + unescaped.replace("'", "''") + "'"


_KNOWN_ESCAPE = re.compile(r'\\([\\"])')


def _unclosed_quote(
    lines: list[str], problem: str, context: str, cmark: Mark | None
) -> Explanation | None:
    """A quote opened and never closed: the parser reads to the end of the file."""
    if context != "while scanning a quoted scalar" or cmark is None:
        return None
    if "end of stream" not in problem and "document" not in problem:
        return None
    quote = _line(lines, cmark[0])[cmark[1] : cmark[1] + 1] or '"'
    return Explanation(
        f"YAML syntax error: the string quoted with {quote} at line {cmark[0] + 1}, "
        f"column {cmark[1] + 1} is never closed (the file ends first)",
        f"close it with a {quote} on the same line",
        cmark[0] + 1,
        cmark[1] + 1,
    )


def _unclosed_bracket(
    problem: str, mark: Mark, context: str, cmark: Mark | None
) -> Explanation | None:
    """``[a, b`` or ``{a: 1`` not closed before the next line's content."""
    kind = context.removeprefix("while parsing a ")
    missing = problem.startswith(("did not find expected", "expected ','"))
    if kind not in _BRACKETS or cmark is None or not missing:
        return None
    opening, closing = _BRACKETS[kind]
    if mark[0] == cmark[0]:  # on the same line: a missing comma
        return Explanation(
            f"YAML syntax error: expected ',' or '{closing}' in the {opening}...{closing} "
            f"opened at column {cmark[1] + 1}",
            "separate the items with commas; quote an item that holds , [ ] { } or :",
            mark[0] + 1,
            mark[1] + 1,
        )
    return Explanation(
        f"YAML syntax error: the {opening} opened at line {cmark[0] + 1}, column "
        f"{cmark[1] + 1} is never closed",
        f"close it with {closing} (on that line, or on a later one)",
        cmark[0] + 1,
        cmark[1] + 1,
    )


def _runaway_quote(text: str, mark: Mark) -> Explanation | None:
    """A quote left open that the next line's opening quote closes: ``"what?`` then ``x: "1"``
    (the last scalar read runs over lines to the one the parser stopped on)."""
    scalar = _last_scalar(text)
    if scalar is None:
        return None
    style, start, end = scalar
    if style not in ("'", '"') or start[0] == end[0] or end[0] != mark[0]:
        return None
    return Explanation(
        f"YAML syntax error: the string quoted with {style} at line {start[0] + 1}, column "
        f"{start[1] + 1} runs on to line {end[0] + 1}: its closing {style} is missing",
        f"close it with a {style} on line {start[0] + 1}",
        start[0] + 1,
        start[1] + 1,
    )


def _last_scalar(text: str) -> tuple[str, Mark, Mark] | None:
    """Style, start and end of the last scalar the parser read before its error."""
    last: Any = None
    parser = CParser(text)
    try:
        while True:
            event = parser.get_event()
            if event is None or type(event) is yaml.StreamEndEvent:
                return None  # no error after all
            if type(event) is yaml.ScalarEvent:
                last = event
    except yaml.YAMLError:
        pass
    if last is None:
        return None
    start, end = last.start_mark, last.end_mark
    return last.style or "", (start.line, start.column), (end.line, end.column)


def _indentation(lines: list[str], problem: str, mark: Mark) -> Explanation | None:
    """A line indented to a column where no block of the lines above it is."""
    if problem not in _INDENTATION_PROBLEMS:
        return None
    number = _first_content_line(lines, mark)
    if number is None:
        return None
    line = lines[number]
    column = len(_indent(line)) + 1
    above = _columns_above(lines, number, dash=line.lstrip().startswith("- "))
    if not above or column in above:
        return None
    expected, where = min(above.items(), key=lambda item: (abs(item[0] - column), -item[0]))
    key = lines[where].strip().split(":", 1)[0]
    return Explanation(
        f"YAML syntax error: line {number + 1} is indented to column {column}; the block it "
        f"belongs to is at column {expected} (`{marked(clip(key, 40))}` on line {where + 1})",
        f"indent line {number + 1} to column {expected}, like the lines it belongs with",
        number + 1,
        column,
    )


def _first_content_line(lines: list[str], mark: Mark) -> int | None:
    """The line the slip is on: the parser's line, or the next content line from it."""
    for number in range(mark[0], min(mark[0] + 2, len(lines))):
        stripped = lines[number].strip()
        if stripped and not stripped.startswith("#"):
            return number
    return None


def _columns_above(lines: list[str], number: int, *, dash: bool) -> dict[int, int]:
    """Columns where the open blocks above start (a line less indented than those below opens
    one), and a line of each; ``dash``: a ``- item`` line, with items or an item's keys."""
    found: dict[int, int] = {}
    deepest = None
    for index in range(number - 1, -1, -1):
        line = lines[index]
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "---", "...")):
            continue
        column = len(_indent(line)) + 1
        if deepest is not None and column >= deepest:
            continue
        deepest = column
        if stripped.startswith("- "):
            if dash:
                found.setdefault(column, index)
            else:
                item = stripped[2:].lstrip()
                found.setdefault(column + len(stripped) - len(item), index)
        elif not dash or column > 1:
            found.setdefault(column, index)
        if column == 1:
            break
    return found


def _colon_in_value(lines: list[str], problem: str, mark: Mark) -> Explanation | None:
    """``input: Q: what is it?``: a ``: `` inside a value makes it a mapping, however indented."""
    line = _line(lines, mark[0])
    first = line.find(": ")
    if problem != "mapping values are not allowed in this context" or not 0 <= first < mark[1]:
        return None
    value = line[first + 2 :].strip()
    return Explanation(
        "YAML syntax error: a value holding ': ' must be quoted; unquoted, it reads as another key",
        f"quote the value: {marked(clip(line[:first].strip(), 40))}: "
        f"{marked(clip(_quote_value(value), 80))}",
        mark[0] + 1,
        first + 3,
    )


def _quote_value(value: str) -> str:
    if '"' not in value and "\\" not in value:
        return f'"{value}"'
    return "'" + value.replace("'", "''") + "'"
