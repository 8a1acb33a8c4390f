"""``--format json``: for scripts and editors, one document (CLI.md's, `"version": 1`):
`files[].diagnostics[]` with every field of the record, and a summary. `line`/`column` is
where the offending key or value starts, `end_line`/`end_column` just after its last
character (1-based, columns count characters; where no node starts, as at a syntax error,
the range covers the token written there)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from holodeck_mt.contract import unchecked
from holodeck_mt.text.safe_text import escape_json

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult

VERSION = 1


def document(results: Sequence[FileResult]) -> dict[str, Any]:
    sections, command = unchecked.list_unchecked(results)
    return {
        "version": VERSION,
        "files": [r.to_json() for r in results],
        "summary": {
            "files": len(results),
            "valid": sum(r.valid for r in results),
            "invalid": sum(not r.valid for r in results),
            "errors": sum(r.errors for r in results),
            "warnings": sum(r.warnings for r in results),
            # The agent.yaml sections no platform model checked, and what checks them.
            "unchecked_sections": sections,
            "check_unchecked_with": command,
            "unchecked_because": unchecked.because(results),
        },
    }


def render(results: Sequence[FileResult], out: TextIO) -> None:
    out.write(escape_json(json.dumps(document(results), indent=2, ensure_ascii=False)) + "\n")
