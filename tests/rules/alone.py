"""One rule at a time: its fixture run with only its codes selected (``--select``).

A fixture names what it must report (``# expect:`` lines, as the fixture corpus reads
them); run with ``--select`` of the rule's codes (and the option of an opt-in rule), it
reports exactly the expected diagnostics of those codes and nothing else, whatever other
rules might say about the same file. A near miss (``tests/fixtures/near-misses/<name>.yaml``,
named after the rule) reports nothing.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from holodeck_mt.rules.rule import Rule
from tests.conftest import FIXTURES, ROOT, RunJson, fixture_header

NEAR_MISSES = FIXTURES / "near-misses"


def run_alone(rule: Rule, fixture: Path, run_json: RunJson) -> tuple[int, list[dict[str, Any]]]:
    """The exit code and the diagnostics (each with its file's name) of the fixture, with
    only the rule's codes selected."""
    options, _ = fixture_header(fixture)
    if rule.flag and rule.flag not in options:
        options.append(rule.flag)
    shown = fixture.relative_to(ROOT)  # as the fixture corpus runs it: the messages quote it
    code, document = run_json(*options, "--select", ",".join(rule.codes), str(shown))
    found = [
        {**d, "file": Path(f["path"]).name} for f in document["files"] for d in f["diagnostics"]
    ]
    return code, found


def _key(d: dict[str, Any], fixture: Path) -> tuple[Any, ...]:
    file = Path(d["file"]).name if "file" in d else fixture.name
    return (file, d["code"], d["line"], d["path"])


def assert_fires(rule: Rule, fixture: Path, run_json: RunJson) -> None:
    """The fixture reports, with only the rule selected, exactly its expected diagnostics
    of the rule's codes (file, code, line, path; the message where given), and exits 1
    when they are errors, 0 when warnings."""
    _, expected = fixture_header(fixture)
    wanted = [e for e in expected if e["code"] in rule.codes]
    assert wanted, f"{fixture.name} expects no diagnostic of {rule.code}"
    code, found = run_alone(rule, fixture, run_json)
    assert Counter(_key(d, fixture) for d in found) == Counter(_key(e, fixture) for e in wanted)
    messages = {_key(d, fixture): d["message"] for d in found}
    for e in wanted:
        if "message" in e:
            assert messages[_key(e, fixture)] == e["message"]
    assert code == (1 if rule.severity == "error" else 0)


def assert_silent(rule: Rule, run_json: RunJson) -> None:
    """The rule's near miss reports nothing with the rule selected, and exits 0."""
    near_miss = NEAR_MISSES / f"{rule.name}.yaml"
    code, found = run_alone(rule, near_miss, run_json)
    assert (code, found) == (0, [])
