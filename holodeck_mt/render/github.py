"""``--format github``: for GitHub Actions, one `::error`/`::warning` workflow command per
diagnostic (`file`, `line`, `col`, `endColumn` when the node ends on its line, `title` = code
and name), then the summary.

Paths are printed as given: GitHub places the annotations when run from the repository's root.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from holodeck_mt.model import Diagnostic
from holodeck_mt.render.text import summary
from holodeck_mt.rules.registry import title
from holodeck_mt.text.safe_text import escape, escape_command_data, escape_command_property

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult


def command(path: str, d: Diagnostic, level: str | None = None) -> str:
    """The workflow command of one diagnostic (``::notice``: a note): cause, place, hint below."""
    properties = {"file": escape(path), "line": str(d.line), "col": str(d.column)}
    if d.end_column is not None and d.end_line in (None, d.line):
        properties["endColumn"] = str(d.end_column)
    properties["title"] = title(d.code)
    joined = ",".join(f"{k}={escape_command_property(v)}" for k, v in properties.items())
    kind = "notice" if level == "note" else level or d.severity
    located = escape(d.where)
    text = escape(d.message, keep_newlines=True)  # a newline is encoded (%0A) below
    text = f"{text} ({located})" if located else text
    if d.hint:
        text += f"\nhint: {escape(d.hint, keep_newlines=True)}"
    return f"::{kind} {joined}::{escape_command_data(text)}"


def render(results: Sequence[FileResult], out: TextIO, *, quiet: bool = False) -> None:
    for result in results:
        for d in result.diagnostics:
            out.write(command(result.path, d, result.level(d)) + "\n")
    out.write("" if quiet else summary(results) + "\n")
