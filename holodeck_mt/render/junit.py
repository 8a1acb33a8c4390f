"""``--format junit``: a JUnit XML report, for CI systems that show test results.
One ``<testcase>`` per test case (a shared name becomes ``name (#i)``); the rest: docs/usage.md."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from holodeck_mt.model import Diagnostic
from holodeck_mt.render.text import headline, summary
from holodeck_mt.text.safe_text import escape, escape_xml

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult

FILE_CASE = "(file)"
#: Test cases without diagnostics listed per file (the platform runs at most 1,000).
MAX_LISTED = 1000
#: Characters XML 1.0 cannot hold, even escaped: they become U+FFFD.
_NOT_XML = re.compile(r"[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _names(result: FileResult) -> list[str | None]:
    """The name of every test case of the file, by index (None when unnamed)."""
    count = result.stats.get("test_cases", 0)
    names = [*result.test_cases[:count], *[None] * (count - len(result.test_cases))]
    for d in result.diagnostics:  # the validator's own view wins
        if d.test_case_index is not None and d.test_case_index < count and d.test_case:
            names[d.test_case_index] = d.test_case
    return names


def _labels(names: list[str | None]) -> list[str]:
    shared = Counter(n for n in names if n is not None)
    return [
        f"#{i}" if name is None else f"{name} (#{i})" if shared[name] > 1 else name
        for i, name in enumerate(names)
    ]


def _testcase(
    suite: ET.Element, result: FileResult, name: str, diagnostics: list[Diagnostic]
) -> bool:
    """Add one ``<testcase>``; whether it failed."""
    path, level = result.path, result.level
    file = _clean(escape(path))
    case = ET.SubElement(
        suite, "testcase", {"name": _clean(escape(name)), "classname": file, "file": file}
    )
    errors = [d for d in diagnostics if level(d) == "error"]
    warnings = [d for d in diagnostics if level(d) != "error"]  # and the cap's notes
    if errors:
        first = errors[0]
        message = _clean(escape(f"[{first.code}] {first.message}"))
        failure = ET.SubElement(case, "failure", {"message": message, "type": first.code})
        failure.text = _clean("\n".join(_line(path, d) for d in errors) + "\n")
    if warnings:
        out = ET.SubElement(case, "system-out")
        out.text = _clean("\n".join(_line(path, d) for d in warnings) + "\n")
    return bool(errors)


def _line(path: str, d: Diagnostic) -> str:
    text = headline(path, d)
    return f"{text}\n  hint: {escape(d.hint)}" if d.hint else text


def report(results: Sequence[FileResult]) -> ET.Element:
    root = ET.Element("testsuites", {"name": "holodeck-mt"})
    total_tests = total_failures = 0
    for result in results:
        suite = ET.SubElement(root, "testsuite", {"name": _clean(escape(result.path))})
        names = _names(result)
        by_case: dict[int | None, list[Diagnostic]] = {}
        for d in result.diagnostics:
            index = d.test_case_index
            key = None if index is None or index >= len(names) else index
            by_case.setdefault(key, []).append(d)
        cases = [(FILE_CASE, by_case.get(None, []))]
        labels = _labels(names)
        # The first test cases, and every one with a diagnostic: a file of a million
        # test cases cannot make a report of a million elements.
        listed = [i for i in range(len(labels)) if i < MAX_LISTED or i in by_case]
        cases += [(labels[i], by_case.get(i, [])) for i in listed]
        failures = sum(_testcase(suite, result, *case) for case in cases)
        notes = [summary([result])] if any(d.not_shown for d in result.diagnostics) else []
        if len(listed) < len(labels):  # past the cap, a test case's faults may not be shown
            unlisted = len(labels) - len(listed)
            notes.append(f"{unlisted:,} more test cases with no diagnostic shown are not listed")
        if notes:
            ET.SubElement(suite, "system-out").text = _clean("\n".join(notes) + "\n")
        suite.attrib |= {
            "tests": str(len(cases)),
            "failures": str(failures),
            "errors": "0",
            "skipped": "0",
        }
        total_tests += len(cases)
        total_failures += failures
    root.attrib |= {"tests": str(total_tests), "failures": str(total_failures), "errors": "0"}
    return root


def render(results: Sequence[FileResult], out: TextIO) -> None:
    root = report(results)
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(escape_xml(ET.tostring(root, encoding="unicode")) + "\n")
