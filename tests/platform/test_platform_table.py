"""PLATFORM.md's examples and facts, one fixture each, with the platform's own verdict.

Every fixture under ``tests/fixtures/{invalid,warnings,valid}/platform/`` names the
row of PLATFORM.md's example table (``# row:``) or the fact of its "What the models
accept" list (``# fact:``) it pins, and the platform's verdict on it
(``# platform: loads|fails``). The exact diagnostics (code, test case, path, line,
message, hint) are asserted by ``tests/test_fixture_corpus.py`` from the ``# expect:``
lines; here: the severity the verdict policy gives, the exit code, that the platform
itself (``tests/platform_oracle.py``) gives the stated verdict, and that every row
and fact has its fixture.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from holodeck_mt.rules.registry import CODES
from tests import platform_oracle as oracle
from tests.conftest import FIXTURES, ROOT, RunJson, unavailable

FOLDERS = ("invalid", "warnings", "valid")


def _text(path: Path) -> str:
    """A fixture's text: UTF-8, or UTF-16 for the one that pins its refusal."""
    raw = path.read_bytes()
    return raw.decode("utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8")


def _fixtures() -> list[Path]:
    found = []
    for folder in FOLDERS:
        for path in sorted((FIXTURES / folder / "platform").rglob("*.yaml")):
            if "# platform:" in _text(path):
                found.append(path)
    return found


FIXTURE_FILES = _fixtures()


def _header(path: Path, tag: str) -> list[str]:
    prefix = f"# {tag}:"
    return [
        line[len(prefix) :].strip() for line in _text(path).splitlines() if line.startswith(prefix)
    ]


#: PLATFORM.md's example table, row by row, as the fixtures name them.
ROWS = [
    "a UTF-16 file (with its byte-order mark)",
    "turn `ground_truth: yes`",
    "`args: {a: {regex: on}}`",
    "turn `ground_truth: 1_000`",
    "turn `input: =`",
    "`count: 1e3`",
    "`threshold: 0o17`",
    "`turn_config: {on: 1}`",
    "`expected_tools: [ns:tool]`, `url: https://x.org/a.pdf` in a flow mapping",
    "`case_insensitive: yes`",
    "`ground_truth: 1e3`",
    "`count: 1:30`",
    'turn `input: "   "`',
    '`expected_tools: [{name: "   "}]`',
    "`count: 2.0`",
    "unknown top-level key `foo: 1` in an agent.yaml",
    "1,001 test cases",
    "11 `files` on one test case",
    "`evaluations: {metrics: []}`",
    "metric `model: {provider: azure_openai, name: gpt}`",
    "a reference to an unset variable in a comment",
    "`response_path: a-b.c[0]`",
    "`evaluations: {optimizer: {loss: ..., axes: ...}, metrics: [...]}`",
    "test_cases_file holding `{version: 1, test_cases: [...]}`",
    "empty test_cases_file",
    "`input: null` beside `turns`",
    '`absolute_tolerance: "0.5"`',
    "`count: true`",
    "duplicate key in a turn",
    "`threshold: .nan`",
    '`expected_tools: [""]`',
]

#: PLATFORM.md's "What the models accept", fact by fact.
FACTS = [
    "A string field takes only a string",
    "A number field also takes a numeric string and a boolean",
    'A boolean field also takes "true", "yes", "1", 1, 0, 1.0, and the strings y/n',
    "`null` for an optional field is the same as leaving it out",
    "`count` is checked with isinstance(count, int)",
    "`true` loads (as 1)",
    "Whitespace-only strings fail like empty ones",
    'A bare "" in expected_tools loads',
    "an empty item in evaluation_steps loads",
    "`args` keys are not checked (a non-string key loads)",
    "`turn_config` keys must be strings",
    "At most 1000 test cases per agent",
    "at most 10 `files` per test case and per turn",
    "`evaluations.metrics: []` fails",
    "evaluations.optimizer is a real field",
    "temperature is at most 2; auth_provider is one of a fixed set",
    "provider azure_openai requires endpoint",
    "response_path keys may contain -",
    "`.nan` / `.inf` load wherever a float is accepted",
]


def _id(path: Path) -> str:
    return str(path.relative_to(FIXTURES).with_suffix(""))


def test_every_row_and_fact_has_its_fixture() -> None:
    rows = {row for path in FIXTURE_FILES for row in _header(path, "row")}
    facts = {fact for path in FIXTURE_FILES for fact in _header(path, "fact")}
    assert [row for row in ROWS if row not in rows] == []
    assert [fact for fact in FACTS if fact not in facts] == []


def test_the_utf16_fixture_reports_exactly_its_expected_diagnostic(run_json: RunJson) -> None:
    """The fixture corpus reads fixtures as UTF-8; this one is checked here."""
    fixture = FIXTURES / "invalid" / "platform" / "utf16.yaml"
    (expected,) = [json.loads(line) for line in _header(fixture, "expect")]
    code, document = run_json(str(fixture))
    (diagnostic,) = document["files"][0]["diagnostics"]
    assert code == 1
    assert {k: diagnostic[k] for k in expected} == expected


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=_id)
def test_fixture_has_the_severity_the_verdict_policy_gives(
    fixture: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    folder = fixture.relative_to(FIXTURES).parts[0]
    code, document = run_json(str(fixture.relative_to(ROOT)))
    diagnostics = [d for f in document["files"] for d in f["diagnostics"]]
    for d in diagnostics:
        assert d["severity"] == CODES[d["code"]].severity
    severities = {d["severity"] for d in diagnostics}
    if folder == "invalid":
        assert code == 1 and "error" in severities
    elif folder == "warnings":
        assert code == 0 and severities == {"warning"}
    else:
        assert code == 0 and diagnostics == []


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=_id)
def test_the_platform_gives_the_stated_verdict(fixture: Path) -> None:
    problem = oracle.available()
    if problem is not None:
        unavailable(f"the platform is not importable: {problem}.")
    (stated,) = _header(fixture, "platform")
    environ = {k: v for k, v in os.environ.items() if not k.startswith("HOLODECK_MT_FIXTURE_")}
    verdict = oracle.judge_file(fixture, environ=environ)
    assert ("loads" if verdict.loads else "fails") == stated, verdict.reason
    folder = fixture.relative_to(FIXTURES).parts[0]
    deviation = "deviation" in " ".join(_header(fixture, "rule"))
    unset_variable = "variable" in " ".join(_header(fixture, "rule"))
    if verdict.loads:  # an error only where a documented deviation says so
        assert folder != "invalid" or deviation
    else:  # an error, but for an unset variable (set, perhaps, where it runs)
        assert folder == "invalid" or unset_variable
