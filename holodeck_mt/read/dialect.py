"""Warnings for plain scalars the platform (YAML 1.1) and editors (YAML 1.2) read differently.

``yes``, ``1:30`` and ``1e3`` read as true, 90 and a string on the platform, otherwise
in editors: the warning says how to write them so that both read the same. Where the
platform's reading is refused anyway, the error stands alone.
"""

from __future__ import annotations

from typing import Any

from holodeck_mt import model as dg
from holodeck_mt.model import OWN, clip, marked
from holodeck_mt.read.builder import DialectNote, scalar_text
from holodeck_mt.read.scalars import YamlScalar
from holodeck_mt.text.quoting import quoted

#: The code for each kind of platform reading.
_CODES = {bool: "HMT205", int: "HMT206", float: "HMT206", str: "HMT207", YamlScalar: "HMT208"}


def warnings(notes: list[DialectNote], faulted: set[dg.JsonPath]) -> list[dg.Diagnostic]:
    """A warning for each note whose node no fault covers (at it or at an ancestor)."""
    return [_warning(note) for note in notes if not dg.under(note.parts, faulted)]


def _warning(note: DialectNote) -> dg.Diagnostic:
    platform, write, unless = _platform_reading(note)
    platform, write = marked(platform, OWN), marked(write, OWN)  # the node's own words
    line, column = note.position
    return dg.make(
        _CODES[type(note.platform)],
        f"the platform reads this as {platform}; write {write}{unless} "
        f"(editors, reading YAML 1.2, see `{marked(clip(note.text), OWN)}` as "
        f"{_editor_reading(note.editor)})",
        line,
        column,
        pointer_parts=note.parts,
        hint=f"{write} reads the same in YAML 1.1 and 1.2",
    )


def _platform_reading(note: DialectNote) -> tuple[str, str, str]:
    """What the platform reads, how to write it for editors to agree, and when."""
    value = note.platform
    if isinstance(value, (bool, int, float)):
        word = scalar_text(value)
        return word, word, ""
    as_text = quoted(note.text) or repr(clip(note.text))
    if isinstance(value, YamlScalar):
        return f"the date {clip(note.text)}", as_text, " if it is text"
    return f"the string {as_text}", as_text, ""


def _editor_reading(value: Any) -> str:
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return scalar_text(value)
    if value is None:
        return "null"
    return f"the number {value!r}"
