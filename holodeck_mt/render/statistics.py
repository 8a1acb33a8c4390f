"""``--statistics``: how many diagnostics of each code a run found, instead of the diagnostics.
Counts and levels are the report's (selection, ``--strict``), past the cap too: most first."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from holodeck_mt.render.text import summary
from holodeck_mt.rules.registry import CODES

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult


def counts(results: Sequence[FileResult]) -> list[dict[str, Any]]:
    """Each code found, with its name, its level in the report and its count."""
    found: Counter[tuple[str, str]] = Counter()
    for result in results:
        for code, n in result.counts().items():
            found[code, result.level_of(code)] += n
    return [
        {"code": code, "name": getattr(CODES.get(code), "name", ""), "severity": level, "count": n}
        for (code, level), n in sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def by_file(results: Sequence[FileResult]) -> list[dict[str, Any]]:
    """Each file with diagnostics: its errors and warnings at their report level, most first."""
    rows = []
    for result in results:
        n = Counter[str]()
        for code, count in result.counts().items():
            n[result.level_of(code)] += count
        if n:
            rows.append({"path": result.path, "errors": n["error"], "warnings": n["warning"]})
    return sorted(rows, key=lambda row: -(row["errors"] + row["warnings"]))


def render_text(results: Sequence[FileResult], out: TextIO, *, quiet: bool = False) -> None:
    rows = counts(results)
    width = max((len(f"{row['count']:,}") for row in rows), default=1)
    for row in rows:
        out.write(f"{row['count']:>{width},}  {row['code']}  {row['severity']:<7}  {row['name']}\n")
    out.write("" if quiet else summary(results) + "\n")


def render_json(results: Sequence[FileResult], out: TextIO) -> None:
    out.write(json.dumps(counts(results), indent=2) + "\n")


#: The output formats statistics are printed in, and how.
RENDERERS = {"text": render_text, "json": render_json}
