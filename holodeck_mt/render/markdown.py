"""``--format markdown``: for a job's step summary or a pull request comment, the verdict,
the counts, a table of the first 50 diagnostics (place, level, code, test case and field,
message with its hint), and a line when GitHub's 10 annotations per level were not enough;
text from the file is escaped, so a message cannot close the table, link, mention or run HTML.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from holodeck_mt.contract import unchecked
from holodeck_mt.model import clip
from holodeck_mt.render.text import summary
from holodeck_mt.rules.registry import title
from holodeck_mt.text.safe_text import escape

if TYPE_CHECKING:
    from holodeck_mt.model import Diagnostic, FileResult

#: The rows of the table; the rest are counted under it.
MAX_ROWS = 50
#: How many annotations of each level GitHub shows for one step.
ANNOTATIONS_SHOWN = 10

#: What Markdown (GitHub's) reads as markup in a table cell: emphasis, code, links, HTML,
#: entities, mentions, the cell separator, and the colon of an autolinked address.
_MARKUP = re.compile(r"([\\`*_\[\]<>|~&@!#:])")


def text(value: str, width: int = 300) -> str:
    """``value`` as inert Markdown on one line: clipped, escaped, its markup backslashed."""
    return _MARKUP.sub(r"\\\1", escape(clip(value, width)))


def _row(path: str, d: Diagnostic, level: str) -> str:
    said = d.message + (f" (hint: {d.hint})" if d.hint else "")
    cells = (f"{path}:{d.line}:{d.column}", level, title(d.code), d.where, said)
    return "| " + " | ".join(text(cell) for cell in cells) + " |"


def _capped(levels: Counter[str]) -> str | None:
    """The line saying GitHub's annotations did not show every fault (a thousand faults must
    not look like ten), None when they did."""
    over = [f"{levels[w]:,} {w}s" for w in ("error", "warning") if levels[w] > ANNOTATIONS_SHOWN]
    if not over:
        return None
    return (
        f"GitHub shows the first {ANNOTATIONS_SHOWN} errors and {ANNOTATIONS_SHOWN} warnings "
        f"of a step as annotations: this run has {' and '.join(over)}, all in the job's log."
    )


def render(results: Sequence[FileResult], out: TextIO) -> None:
    failed = any(not r.valid for r in results)
    out.write(f"### holodeck-mt: {'failed' if failed else 'passed'}\n\n")
    out.write(text(summary(results), 1000) + "\n")
    rows = [(result.path, d, result.level(d)) for result in results for d in result.diagnostics]
    capped = _capped(Counter(level for _, _, level in rows))
    if capped is not None:
        out.write("\n" + capped + "\n")
    if rows:
        out.write("\n| Where | Level | Code | Test case, field | Message |\n")
        out.write("| --- | --- | --- | --- | --- |\n")
        for path, d, level in rows[:MAX_ROWS]:
            out.write(_row(path, d, level) + "\n")
        if len(rows) > MAX_ROWS:
            out.write(f"\n{len(rows) - MAX_ROWS:,} more not listed here.\n")
    note = unchecked.sections_note(results)
    if note is not None:
        out.write("\n" + text(note, 1000) + "\n")
