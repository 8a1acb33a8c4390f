"""One rule at a time: its fixtures run with only its codes selected (``--select``).

A rule's fixtures are found by its code, so that a new rule's fixtures are all its tests
need: a fixture that fires it is any fixture of ``tests/fixtures/invalid`` or
``tests/fixtures/warnings`` whose ``# expect:`` lines (as the fixture corpus reads them)
name one of its codes; its near misses are the files of ``tests/fixtures/near-misses``
whose first line is ``# near miss of <CODE>`` (the file named after the rule).

Run with ``--select`` of the rule's codes (and the option of an opt-in rule), a fixture
reports exactly its expected diagnostics of those codes and nothing else, whatever other
rules might say about the same file; a near miss reports nothing. A run-time lint runs
beside every error code, as the whole run shows them: a test case showing an error is not
linted (docs/explain.md).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from holodeck_mt.model import severity
from holodeck_mt.rules.rule import Rule
from tests.conftest import FIXTURES, ROOT, RunJson, fixture_header

NEAR_MISSES = FIXTURES / "near-misses"
#: The folders whose fixtures declare what they report (``# expect:`` lines).
FIRING = (FIXTURES / "invalid", FIXTURES / "warnings")
#: An option whose output depends on every code's diagnostics (the cap counts them all):
#: a fixture run with it is the report's, not one rule's.
_NOT_ALONE = ("--max-diagnostics",)
#: A near miss's first line names the code it must not fire.
_NEAR_MISS_OF = re.compile(r"# near miss of (HMT\d{3})\b")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


@cache
def _firing() -> dict[Path, set[str]]:
    """The codes each fixture that may fire a rule expects, read once for every rule (but
    the fixtures run with an option that caps the output)."""
    codes = {}
    for path in sorted(p for folder in FIRING for p in folder.rglob("*.yaml")):
        options, expected = fixture_header(path)
        if not any(option.split("=", 1)[0] in _NOT_ALONE for option in options):
            codes[path] = {item["code"] for item in expected}
    return codes


def fixtures_that_fire(rule: Rule) -> list[Path]:
    """The fixtures whose expected diagnostics include one of the rule's codes, sorted
    (but those run with an option that caps the output)."""
    return [path for path, codes in _firing().items() if codes & set(rule.codes)]


def near_miss_code(path: Path) -> str | None:
    """The code a near miss says it must not fire (its first line), if it says one."""
    first = _text(path).partition("\n")[0]
    found = _NEAR_MISS_OF.match(first)
    return found.group(1) if found else None


def near_misses(rule: Rule) -> list[Path]:
    """The near misses of the rule's code, sorted."""
    return sorted(p for p in NEAR_MISSES.glob("*.yaml") if near_miss_code(p) in rule.codes)


def run_alone(rule: Rule, fixture: Path, run_json: RunJson) -> tuple[int, list[dict[str, Any]]]:
    """The exit code and the diagnostics (each with its file's name) of the fixture, with
    only the rule's codes selected."""
    options, _ = fixture_header(fixture)
    if rule.flag and rule.flag not in options:
        options.append(rule.flag)
    shown = fixture.relative_to(ROOT)  # as the fixture corpus runs it: the messages quote it
    beside = ("HMT0", "HMT1") if rule.runs == "runtime" else ()
    code, document = run_json(*options, "--select", ",".join([*rule.codes, *beside]), str(shown))
    found = [
        {**d, "file": Path(f["path"]).name}
        for f in document["files"]
        for d in f["diagnostics"]
        if d["code"] in rule.codes
    ]
    return code, found


def _key(d: dict[str, Any], fixture: Path) -> tuple[Any, ...]:
    file = Path(d["file"]).name if "file" in d else fixture.name
    return (file, d["code"], d["line"], d["path"])


def assert_fires(rule: Rule, fixture: Path, run_json: RunJson) -> None:
    """The fixture reports, with only the rule selected, exactly its expected diagnostics
    of the rule's codes (file, code, line, path; the message where given), and exits 1
    when they are errors (or the errors beside a run-time lint are), 0 when warnings."""
    _, expected = fixture_header(fixture)
    wanted = [e for e in expected if e["code"] in rule.codes]
    assert wanted, f"{fixture.name} expects no diagnostic of {rule.code}"
    code, found = run_alone(rule, fixture, run_json)
    assert Counter(_key(d, fixture) for d in found) == Counter(_key(e, fixture) for e in wanted)
    messages = {_key(d, fixture): d["message"] for d in found}
    for e in wanted:
        if "message" in e:
            assert messages[_key(e, fixture)] == e["message"]
    beside = rule.runs == "runtime" and any(severity(e["code"]) == "error" for e in expected)
    assert code == (1 if rule.severity == "error" or beside else 0)


def assert_silent(rule: Rule, near_miss: Path, run_json: RunJson) -> None:
    """The near miss reports nothing with the rule selected, and exits 0."""
    code, found = run_alone(rule, near_miss, run_json)
    assert (code, found) == (0, [])
