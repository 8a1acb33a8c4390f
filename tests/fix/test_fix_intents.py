"""Fixes are data: each fault carries its fix intent, the rule decides its safety.

Each intent is pinned on the smallest file that shows it: the diagnostic's code, the
intent it carries, its hint (the intent's own words), the edit the engine makes and
whether it is applied unasked. Removing or renaming what the author wrote is never safe:
``metric: numerical`` (misspelt) with ``absolute_tolerance: 0.5`` keeps its tolerance
under every fix, safe or not. The table of fixes in docs/fix.md is checked against the intents.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from holodeck_mt import validate_text
from holodeck_mt.app.cli import main
from holodeck_mt.fix import engine as fixes
from holodeck_mt.model import (
    INTENTS,
    Count,
    Diagnostic,
    Intent,
    Quote,
    Remove,
    Rename,
    Rewrite,
    Role,
    Unquote,
    unmarked,
)
from tests.conftest import ROOT

CASE = "- input: q\n"
METRIC = CASE + "  ground_truth: a\n  evaluations:\n    - type: standard\n"

#: (code, intent, role, text, what the fix replaces in it, with what).
EXAMPLES: list[tuple[str, type[Intent], Role, str, str, str]] = [
    ("HMT102", Quote, "document", CASE + "  ground_truth: 14.10\n", "14.10", '"14.10"'),
    ("HMT103", Quote, "document", METRIC + "      metric: 12\n", "12", '"12"'),
    ("HMT003", Quote, "document", CASE + "  1: x\n", "1:", '"1":'),
    (
        "HMT216",
        Quote,
        "document",
        "- turns:\n    - input: q\n      turn_config: {program: {on: x}}\n",
        "on:",
        '"on":',
    ),
    ("HMT007", Quote, "document", CASE + "  ground_truth: =\n", "=", '"="'),
    (
        "HMT102",
        Unquote,
        "document",
        f"{CASE}  expected_tools:\n    - {{name: t, count: '2'}}\n",
        "'2'",
        "2",
    ),
    (
        "HMT113",
        Rewrite,
        "document",
        f"{CASE}  expected_tools:\n    - {{name: t, count: 2.0}}\n",
        "2.0",
        "2",
    ),
    (
        "HMT210",
        Rewrite,
        "document",
        f"{METRIC}      metric: equality\n      threshold: '0.5'\n",
        "'0.5'",
        "0.5",
    ),
    (
        "HMT211",
        Rewrite,
        "document",
        f"{METRIC}      metric: equality\n      enabled: 'yes'\n",
        "'yes'",
        "true",
    ),
    (
        "HMT212",
        Rewrite,
        "document",
        f"{CASE}  expected_tools:\n    - {{name: t, count: true}}\n",
        "true",
        "1",
    ),
    ("HMT100", Rename, "document", CASE + "  ground_truht: a\n", "ground_truht", "ground_truth"),
    ("HMT103", Rename, "document", METRIC + "      metric: equalty\n", "equalty", "equality"),
    (
        "HMT204",
        Rename,
        "document",
        f"{CASE}  expected_tools:\n    - {{name: t, args: {{a: {{REGEXP: x}}}}}}\n",
        "REGEXP",
        "regex",
    ),
    (
        "HMT200",
        Remove,
        "document",
        f"{METRIC}      metric: equality\n      absolute_tolerance: 0.5\n",
        "      absolute_tolerance: 0.5\n",
        "",
    ),
    (
        "HMT215",
        Remove,
        "test-cases-file",
        "notes: x  # old\ntest_cases:\n" + CASE,
        "notes: x  # old\n",
        "",
    ),
    (
        "HMT203",
        Count,
        "document",
        f"{CASE}  expected_tools:\n    - t\n    - t\n",
        "t\n    - t\n",
        "{name: t, count: 2}\n",
    ),
]
IDS = [f"{intent.__name__}-{code}" for code, intent, *_ in EXAMPLES]
FIELDS = ("code", "intent", "role", "text", "written", "fixed")


def _diagnose(text: str, role: Role) -> list[Diagnostic]:
    return validate_text(text, role=role).diagnostics


@pytest.mark.parametrize(FIELDS, EXAMPLES, ids=IDS)
def test_each_intent_makes_its_edit_with_its_safety(
    code: str, intent: type[Intent], role: Role, text: str, written: str, fixed: str
) -> None:
    found = [f for f in fixes.fixes(text, _diagnose(text, role)) if f.diagnostic.code == code]
    [fix] = found
    assert type(fix.diagnostic.fix) is intent
    assert fix.applicability == intent.applicability
    after, applied = fixes.apply(text, [fix])
    assert applied == [fix]
    head, _, tail = text.rpartition(written)
    assert after == head + fixed + tail


@pytest.mark.parametrize(FIELDS, EXAMPLES, ids=IDS)
def test_a_fixable_diagnostics_hint_is_its_intents_words(
    code: str, intent: type[Intent], role: Role, text: str, written: str, fixed: str
) -> None:
    [d] = [d for d in _diagnose(text, role) if d.code == code]
    assert isinstance(d.fix, intent)
    assert d.hint == unmarked(d.fix.hint())


def test_removing_or_renaming_what_the_author_wrote_is_unsafe() -> None:
    safety = {intent: intent.applicability for intent in INTENTS}
    assert safety == {
        Quote: "safe",
        Unquote: "safe",
        Rewrite: "safe",
        Rename: "unsafe",
        Remove: "unsafe",
        Count: "unsafe",
    }


def _corpus_pairs() -> set[tuple[str, type[Intent]]]:
    files = [*ROOT.glob("tests/fixtures/**/*.yaml"), *ROOT.glob("tests/golden/inputs/*.yaml")]
    files += ROOT.glob("tests/fix/inputs/*.yaml")
    pairs = set()
    for path in files:
        for d in validate_text(path.read_bytes()).diagnostics:
            if d.fix is not None:
                pairs.add((d.code, type(d.fix)))
    return pairs


def test_the_examples_show_every_intent_and_every_code_the_corpus_fixes() -> None:
    examples = {(code, intent) for code, intent, *_ in EXAMPLES}
    assert {intent for _, intent in examples} == set(INTENTS)
    assert _corpus_pairs() <= examples


# --- a key the author wrote is never removed or renamed by a safe fix ----------------------

MISSPELT_METRIC = METRIC + "      metric: numerical\n      absolute_tolerance: 0.5\n"


def test_safe_fixes_keep_the_tolerance_of_a_misspelt_metric(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "cases.yaml"
    target.write_text(MISSPELT_METRIC)
    assert main(["fix", str(target)]) == 1  # the misspelt metric is still an error
    assert target.read_text() == MISSPELT_METRIC
    # The tolerance draws no warning (no cascade from the misspelt name): one fix, unsafe.
    assert "Fixed 0 problems in 0 files. 1 unsafe fix not applied" in capsys.readouterr().err


def test_unsafe_fixes_rename_a_misspelt_metric_and_keep_its_tolerance(tmp_path: Path) -> None:
    target = tmp_path / "cases.yaml"
    target.write_text(MISSPELT_METRIC)
    assert main(["fix", "--unsafe-fixes", str(target)]) == 0
    assert target.read_text() == MISSPELT_METRIC.replace("numerical", "numeric")


def test_a_removal_waits_while_another_fix_changes_its_mapping() -> None:
    found = fixes.fixes(MISSPELT_METRIC, _diagnose(MISSPELT_METRIC, "document"))
    # No warning cascades from the misspelt name, so nothing offers to remove the
    # tolerance: the rename alone is applied.
    assert {type(f.diagnostic.fix) for f in found} == {Rename}
    after, applied = fixes.apply(MISSPELT_METRIC, found)
    assert [type(f.diagnostic.fix) for f in applied] == [Rename]
    assert after == MISSPELT_METRIC.replace("numerical", "numeric")


# --- the engine places intents, it never reads words ----------------------------------------


@pytest.mark.parametrize("module", ["engine.py", "nodes.py"])
def test_the_fix_engine_never_reads_a_message_or_a_hint(module: str) -> None:
    tree = ast.parse((ROOT / "holodeck_mt" / "fix" / module).read_text(encoding="utf-8"))
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not read & {"hint", "message"}
    words = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
    assert not [w for w in words if re.search(r"did you mean|quote it|write it|remove it", w)]


# --- the table of fixes (docs/fix.md) -------------------------------------------------------------


def _table_row(intent: type[Intent]) -> str:
    codes = sorted({code for code, shown, *_ in EXAMPLES if shown is intent})
    safe = "yes" if intent.applicability == "safe" else "no"
    listed = ", ".join(f"`{code}`" for code in codes)
    return f"| {intent.__name__.lower()} | {intent.does} | {safe} | {listed} |"


def test_the_docs_table_of_fixes_is_the_intents() -> None:
    page = (ROOT / "docs" / "fix.md").read_text(encoding="utf-8")
    header = "| fix | what it writes | safe | codes |\n|---|---|---|---|\n"
    assert header in page
    rows = page.split(header, 1)[1].split("\n\n", 1)[0].splitlines()
    assert rows == [_table_row(intent) for intent in INTENTS]
