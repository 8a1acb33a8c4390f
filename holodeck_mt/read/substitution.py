"""``${NAME}`` replaced before parsing, as the platform does, with a map back to the file.

The platform replaces every ``${NAME}`` of the raw text (comments and quoted strings
included) by the variable's value before it parses the YAML, so a value can be a
number (``threshold: ${T}`` with ``T=0.7``), a word the field refuses (``T=hot``), or
text that breaks the YAML (an empty value, a quote, ``a: b``). The variables are the
environment's, then those of ``.env`` in the working folder and of
``~/.holodeck/.env``, which the ``holodeck`` command loads without overriding a
variable already set.

A variable that is not set is the HMT213 warning (:mod:`holodeck_mt.read.env_vars`);
the rest of the file is judged as if it were set to a value that could be anything:
its reference is replaced by a plain word of the same length, and nothing located on
it is told (:meth:`Substituted.blames_unset`).

Every position found on the substituted text is mapped back to the file as written
(:meth:`Substituted.original`): a fault inside a value stands at its ``${``.
"""

from __future__ import annotations

import bisect
import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from holodeck_mt.model import Diagnostic
from holodeck_mt.read.env_vars import REFERENCE

#: The largest ``.env`` file read; a larger one is passed over.
MAX_ENV_FILE = 256 * 1024
#: Where the ``holodeck`` command reads variables from, after the environment.
ENV_FILES = (Path(".env"), Path("~/.holodeck/.env"))


@dataclass
class Substituted:
    """The text as the platform parses it, and how its offsets map back."""

    text: str
    #: For each replaced reference: its start in the new text, its end there, its start
    #: and end in the file (sorted by start).
    spans: list[tuple[int, int, int, int]] = field(default_factory=list)
    #: The spans of unset references, in the new text (same as in the file's length).
    unset: list[tuple[int, int]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.spans)

    def original(self, offset: int, *, end: bool = False) -> int:
        """The file's offset for ``offset`` of the new text; inside a replaced value, the
        reference's start (its end, for the end of a range)."""
        i = bisect.bisect_right([s[0] for s in self.spans], offset) - 1
        if i < 0:
            return offset
        new_start, new_end, old_start, old_end = self.spans[i]
        if end and new_start < offset <= new_end:
            return old_end  # a range ending inside the value ends with the reference
        if offset < new_end:
            return old_start
        return offset - new_end + old_end

    def blames_unset(self, start: int, end: int) -> bool:
        """Whether the range ``[start, end)`` of the new text touches an unset reference."""
        return any(s < max(end, start + 1) and start < e for s, e in self.unset)


def environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables a ``holodeck`` command sees: the environment, then the ``.env`` files
    (never overriding what is set already)."""
    found = dict(os.environ if environ is None else environ)
    for file in ENV_FILES:
        for name, value in _env_file(file.expanduser()).items():
            found.setdefault(name, value)
    return found


def _env_file(path: Path) -> dict[str, str]:
    """A ``.env`` file's variables (python-dotenv), if it is a regular file of bounded size."""
    from holodeck_mt.read import confine

    try:
        descriptor = confine.open_regular(path)
    except (OSError, ValueError):
        return {}
    with os.fdopen(descriptor, "rb") as stream:
        raw = stream.read(MAX_ENV_FILE + 1)
    if len(raw) > MAX_ENV_FILE:
        return {}
    import io

    from dotenv import dotenv_values

    text = raw.decode("utf-8", errors="replace")
    values = dotenv_values(stream=io.StringIO(text), interpolate=False)
    return {k: v for k, v in values.items() if v is not None}


def substitute(text: str, variables: Mapping[str, str]) -> Substituted:
    """``text`` with each set ``${NAME}`` replaced by its value, each unset one by a plain
    word of its length."""
    if "${" not in text:
        return Substituted(text)
    out: list[str] = []
    spans: list[tuple[int, int, int, int]] = []
    unset: list[tuple[int, int]] = []
    written = 0  # length of the new text so far
    last = 0
    for match in REFERENCE.finditer(text):
        out.append(text[last : match.start()])
        written += match.start() - last
        name = match.group(1)
        value = variables.get(name)
        if value is None:
            value = "$_" + name + "_"  # parses as a plain scalar anywhere, keeps offsets
            unset.append((written, written + len(value)))
        out.append(value)
        spans.append((written, written + len(value), match.start(), match.end()))
        written += len(value)
        last = match.end()
    out.append(text[last:])
    return Substituted("".join(out), spans, unset)


def restore(diagnostics: list[Diagnostic], sub: Substituted, original: str) -> list[Diagnostic]:
    """``diagnostics`` found on ``sub.text``, placed in the file as written; those that
    stand on an unset reference dropped (its value could be anything)."""
    if not sub.changed:
        return diagnostics
    from holodeck_mt.text.ranges import line_starts

    new_starts, old_starts = line_starts(sub.text), line_starts(original)
    out = []
    for d in diagnostics:
        start = _offset(new_starts, d.line, d.column)
        end = _offset(new_starts, d.end_line or d.line, d.end_column or d.column)
        if sub.blames_unset(start, end):
            continue
        line, column = _position(old_starts, sub.original(start))
        end_line, end_column = _position(old_starts, sub.original(max(end, start), end=True))
        out.append(
            dataclasses.replace(
                d,
                line=line,
                column=column,
                end_line=end_line if d.end_line is not None else None,
                end_column=end_column if d.end_column is not None else None,
            )
        )
    return out


def _offset(starts: Sequence[int], line: int, column: int) -> int:
    line = min(max(line, 1), len(starts))
    return starts[line - 1] + max(column, 1) - 1


def _position(starts: Sequence[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1
