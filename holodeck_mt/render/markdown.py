"""``--format markdown``: for a job's step summary or a pull request comment, the verdict,
the counts, a table of the counts by code and one by file, a table of 50 diagnostics taken
from each file in turn (place, level, code, test case and field, message with its hint), and
a line when GitHub's 10 annotations per level were not enough; text from the file is escaped,
so a message cannot close the table, link, mention or run HTML.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import islice, repeat, zip_longest
from typing import TYPE_CHECKING, TextIO

from holodeck_mt.contract import unchecked
from holodeck_mt.model import clip
from holodeck_mt.render import statistics
from holodeck_mt.render.text import summary
from holodeck_mt.rules.registry import title
from holodeck_mt.text.safe_text import escape

if TYPE_CHECKING:
    from holodeck_mt.model import Diagnostic, FileResult

#: The rows of a table; the rest are counted under it.
MAX_ROWS = 50
#: How many annotations of each level GitHub shows for one step.
ANNOTATIONS_SHOWN = 10

#: What Markdown (GitHub's) reads as markup in a table cell: emphasis, code, links, HTML,
#: entities, mentions, the cell separator, and the colon of an autolinked address.
_MARKUP = re.compile(r"([\\`*_\[\]<>|~&@!#:])")


def text(value: str, width: int = 300) -> str:
    """``value`` as inert Markdown on one line: clipped, escaped, its markup backslashed."""
    return _MARKUP.sub(r"\\\1", escape(clip(value, width)))


def _row(path: str, d: Diagnostic, level: str) -> tuple[str, ...]:
    said = d.message + (f" (hint: {d.hint})" if d.hint else "")
    return (f"{path}:{d.line}:{d.column}", level, title(d.code), d.where, said)


def _note_cap(levels: Counter[str], logged: Counter[str]) -> str | None:
    """The line saying GitHub's annotations did not show every fault (a thousand faults must
    not look like ten), None when they did: the true totals, and what the job's log shows."""
    over = [f"{levels[w]:,} {w}s" for w in ("error", "warning") if levels[w] > ANNOTATIONS_SHOWN]
    if not over:
        return None
    where = "all" if logged == levels else f"{logged.total():,}"
    return (
        f"GitHub shows the first {ANNOTATIONS_SHOWN} errors and {ANNOTATIONS_SHOWN} warnings "
        f"of a step as annotations: this run has {' and '.join(over)}, {where} in the job's log."
    )


def _table(head: tuple[str, ...], rows: Iterable[Iterable[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(text(cell) for cell in row) + " |" for row in rows]
    return "\n" + "\n".join(lines) + "\n"


def _counts(results: Sequence[FileResult], out: TextIO) -> int:
    """The tables of counts by code and, for several files, by file; the faults counted."""
    codes = statistics.counts(results)
    levels = sum((Counter({r["severity"]: r["count"]}) for r in codes), Counter[str]())
    logged = Counter[str](r.level(d) for r in results for d in r.diagnostics)
    del logged["note"]
    note = _note_cap(levels, logged)
    if note is not None:
        out.write("\n" + note + "\n")
    if codes:
        cells = ((title(r["code"]), r["severity"], f"{r['count']:,}") for r in codes)
        out.write(_table(("Code", "Level", "Count"), cells))
    files = statistics.by_file(results)
    if len(files) > 1:
        cells = ((r["path"], f"{r['errors']:,}", f"{r['warnings']:,}") for r in files[:MAX_ROWS])
        out.write(_table(("File", "Errors", "Warnings"), cells))
        if len(files) > MAX_ROWS:
            out.write(f"\n{len(files) - MAX_ROWS:,} more files not listed here.\n")
    return sum(levels.values())


def render(results: Sequence[FileResult], out: TextIO) -> None:
    failed = any(not r.valid for r in results)
    out.write(f"### holodeck-mt: {'failed' if failed else 'passed'}\n\n")
    out.write(text(summary(results), 1000) + "\n")
    total = _counts(results, out)
    # One row from each file in turn, so that no file fills the table alone; shown by file.
    turns = zip_longest(*(zip(repeat(i), r.diagnostics) for i, r in enumerate(results)))
    rows = sorted(
        islice((row for turn in turns for row in turn if row), MAX_ROWS), key=lambda row: row[0]
    )
    if rows:
        cells = (_row(results[i].path, d, results[i].level(d)) for i, d in rows)
        out.write(_table(("Where", "Level", "Code", "Test case, field", "Message"), cells))
        if total > len(rows):
            out.write(f"\n{total - len(rows):,} more not listed here.\n")
    note = unchecked.sections_note(results)
    if note is not None:
        out.write("\n" + text(note, 1000) + "\n")
