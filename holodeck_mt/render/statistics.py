"""``--statistics``: how many diagnostics of each code a run found, instead of the diagnostics.

As text, a line per code, the most frequent first (``  12  HMT102  error    wrong-type``),
then the summary line; as JSON, a list of ``{"code", "name", "severity", "count"}``.
The counts are those the report would print (the codes selected, the suppressions and
``--max-diagnostics`` applied), the level the report would give each (``--strict``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from holodeck_mt.render.text import summary
from holodeck_mt.rules.codes import CODES

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult


def counts(results: Sequence[FileResult]) -> list[dict[str, Any]]:
    """Each code found, with its name, its level in the report and its count."""
    found: Counter[tuple[str, str]] = Counter(
        (d.code, result.level(d)) for result in results for d in result.diagnostics
    )
    rows = []
    for (code, level), count in sorted(found.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = CODES.get(code)
        rows.append(
            {"code": code, "name": rule.name if rule else "", "severity": level, "count": count}
        )
    return rows


def render_text(results: Sequence[FileResult], out: TextIO) -> None:
    rows = counts(results)
    width = max((len(f"{row['count']:,}") for row in rows), default=1)
    for row in rows:
        out.write(f"{row['count']:>{width},}  {row['code']}  {row['severity']:<7}  {row['name']}\n")
    out.write(summary(results) + "\n")


def render_json(results: Sequence[FileResult], out: TextIO) -> None:
    out.write(json.dumps(counts(results), indent=2) + "\n")


#: The output formats statistics are printed in, and how.
RENDERERS = {"text": render_text, "json": render_json}
