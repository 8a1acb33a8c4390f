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
import contextlib
import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_mt.model import Diagnostic
from holodeck_mt.read.env_vars import REFERENCE
from holodeck_mt.text.substituted import Values

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
    #: Each referenced variable that is set, with its value: what no output may show.
    used: dict[str, str] = field(default_factory=dict)
    #: Where each replaced reference starts in the new text (for a search by halves).
    _starts: list[int] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._starts = [s[0] for s in self.spans]

    @property
    def changed(self) -> bool:
        return bool(self.spans)

    def original(self, offset: int, *, end: bool = False) -> int:
        """The file's offset for ``offset`` of the new text; inside a replaced value, the
        reference's start (its end, for the end of a range)."""
        i = bisect.bisect_right(self._starts, offset) - 1
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
        end = max(end, start + 1)
        # The unset spans are sorted and apart: only the last one starting before ``end``
        # can reach past ``start``.
        i = bisect.bisect_left(self.unset, (end,)) - 1
        return i >= 0 and start < self.unset[i][1]

    def values(self) -> Values:
        """The values substituted, each with its reference: what a report names, never shows."""
        from holodeck_mt.read import scalars

        readings: dict[str, Any] = {}
        for name, value in self.used.items():
            if 0 < len(value.strip()) <= _LONGEST_READ:
                with contextlib.suppress(ValueError):  # TooLong: not a number it reads
                    readings[name] = scalars.resolve(value.strip())
        return Values(self.used, readings)

    def placer(self, original: str) -> Placer:
        """What places a diagnostic found on :attr:`text` in ``original``, the file as written."""
        return Placer(self, original)


#: The longest value whose YAML reading (a number, a boolean) is known as its variable's.
_LONGEST_READ = 64


class Placer:
    """Diagnostics found on the substituted text, placed in the file as written: each
    line and column of the one text mapped to the other's once they are indexed (a
    search by halves each), so that many diagnostics over many references cost their
    number, not its product with the references'."""

    def __init__(self, sub: Substituted, original: str) -> None:
        from holodeck_mt.text.ranges import line_starts

        self.sub = sub
        self._new = line_starts(sub.text)
        self._old = line_starts(original)

    def place(self, d: Diagnostic) -> Diagnostic | None:
        """``d`` at its place in the file as written; None when it stands on an unset
        reference (whose value could be anything)."""
        start = _offset(self._new, d.line, d.column)
        end = _offset(self._new, d.end_line or d.line, d.end_column or d.column)
        if self.sub.blames_unset(start, end):
            return None
        line, column = _position(self._old, self.sub.original(start))
        end_line, end_column = _position(self._old, self.sub.original(max(end, start), end=True))
        return dataclasses.replace(
            d,
            line=line,
            column=column,
            end_line=end_line if d.end_line is not None else None,
            end_column=end_column if d.end_column is not None else None,
        )

    def screen(self, keep: Callable[[Diagnostic], bool] | None) -> Callable[[Diagnostic], bool]:
        """``keep`` asked of each diagnostic at its place in the file as written, where its
        suppression comment stands; one on an unset reference is not kept."""

        def placed_keep(d: Diagnostic) -> bool:
            placed = self.place(d)
            return placed is not None and (keep is None or keep(placed))

        return placed_keep


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
    used: dict[str, str] = {}
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
        else:
            used.setdefault(name, value)
        out.append(value)
        spans.append((written, written + len(value), match.start(), match.end()))
        written += len(value)
        last = match.end()
    out.append(text[last:])
    return Substituted("".join(out), spans, unset, used)


def restore(diagnostics: list[Diagnostic], sub: Substituted, original: str) -> list[Diagnostic]:
    """``diagnostics`` found on ``sub.text``, placed in the file as written; those that
    stand on an unset reference dropped (its value could be anything)."""
    if not sub.changed:
        return diagnostics
    placer = sub.placer(original)
    return [p for p in map(placer.place, diagnostics) if p is not None]


def _offset(starts: Sequence[int], line: int, column: int) -> int:
    line = min(max(line, 1), len(starts))
    return starts[line - 1] + max(column, 1) - 1


def _position(starts: Sequence[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1
