"""``--format sarif``: a SARIF 2.1.0 log, for code scanning, listing the codes that occur.
Relative paths stay relative to ``%SRCROOT%``, the folder the validator ran in."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from functools import cache
from importlib import metadata
from pathlib import PurePath, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import quote

from holodeck_mt.model import MESSAGE, Diagnostic, clip, clip_parts, format_path
from holodeck_mt.render import json_format
from holodeck_mt.rules.registry import CODES
from holodeck_mt.text.safe_text import escape_json
from holodeck_mt.urls import REPOSITORY

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult

TOOL_NAME = "holodeck-mt"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"


@cache
def tool_version() -> str:
    try:
        return metadata.version(TOOL_NAME)
    except metadata.PackageNotFoundError:  # pragma: no cover - a bare source tree
        return "0+unknown"


def rules(codes: set[str]) -> list[dict[str, Any]]:
    """The rule table: the registry's entries for ``codes``, by code."""
    return [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.description},
            "defaultConfiguration": {"level": rule.severity},
        }
        for rule in (CODES[code] for code in sorted(codes) if code in CODES)
    ]


def artifact_location(path: str) -> dict[str, str]:
    """A relative path as a relative URI under ``%SRCROOT%``; an absolute one as a file URI."""
    pure: PurePath = PureWindowsPath(path) if os.sep == "\\" else PurePosixPath(path)
    if pure.is_absolute():
        return {"uri": pure.as_uri()}
    return {"uri": quote(pure.as_posix()), "uriBaseId": SRCROOT}


def logical_location(d: Diagnostic) -> dict[str, str] | None:
    """The test case and the field path, e.g. ``test_cases[0].turns[1].input``."""
    if not d.pointer_parts and d.test_case_index is None:
        return None
    last = d.pointer_parts[-1] if d.pointer_parts else None
    kind = "element" if isinstance(last, int) else "property" if last is not None else "object"
    full = clip(format_path(clip_parts(d.pointer_parts)), MESSAGE)
    case = f"#{d.test_case_index}" if d.test_case_index is not None else ""
    return {"name": d.path or case or full, "fullyQualifiedName": full, "kind": kind}


def result(
    path: str, d: Diagnostic, rule_index: dict[str, int], level: str | None = None
) -> dict[str, Any]:
    """One SARIF result; ``level`` overrides the code's (a warning under ``--strict``)."""
    ends = {"endLine": d.end_line, "endColumn": d.end_column}
    region = {"startLine": d.line, "startColumn": d.column}
    region |= {k: v for k, v in ends.items() if v is not None}
    location: dict[str, Any] = {
        "physicalLocation": {"artifactLocation": artifact_location(path), "region": region}
    }
    logical = logical_location(d)
    if logical is not None:
        location["logicalLocations"] = [logical]
    text = d.message if not d.hint else f"{d.message}. Hint: {d.hint}"
    entry: dict[str, Any] = {"ruleId": d.code}
    if d.code in rule_index:
        entry["ruleIndex"] = rule_index[d.code]
    entry |= {
        "level": level or d.severity,
        "message": {"text": text},
        "locations": [location],
        "properties": {
            "testCase": d.test_case,
            "testCaseIndex": d.test_case_index,
            "path": d.path,
            "pointer": d.pointer,
        },
    }
    return entry


def log(results: Sequence[FileResult]) -> dict[str, Any]:
    tool_rules = rules({d.code for r in results for d in r.diagnostics})
    rule_index = {rule["id"]: i for i, rule in enumerate(tool_rules)}
    driver = {"name": TOOL_NAME, "informationUri": REPOSITORY, "version": tool_version()}
    found = [result(r.path, d, rule_index, r.level(d)) for r in results for d in r.diagnostics]
    run: dict[str, Any] = {
        "tool": {"driver": driver | {"rules": tool_rules}},
        "columnKind": "unicodeCodePoints",
        "results": found,
    }
    if any(d.not_shown for r in results for d in r.diagnostics):  # the true totals
        run["properties"] = json_format.document(results)["summary"]
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render(results: Sequence[FileResult], out: TextIO) -> None:
    out.write(escape_json(json.dumps(log(results), indent=2, ensure_ascii=False)) + "\n")
