"""`holodeck-mt explain`, golden-tested in text and JSON.

Inputs: every contract example, the bundled ConvFinQA example, and files built to
show each precedence and leak case (tests/explain/inputs/). Expected outputs are
tests/explain/expected/<case>.<format>; ``make goldens`` rewrites them
(HOLODECK_MT_UPDATE_GOLDENS=1), and the diff is reviewed by hand.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app.cli import main
from tests.conftest import ROOT

INPUTS = Path("tests") / "explain" / "inputs"
EXPECTED = ROOT / "tests" / "explain" / "expected"
UPDATE = bool(os.environ.get("HOLODECK_MT_UPDATE_GOLDENS"))

CASES: dict[str, list[str]] = {
    **{
        f"contract-{p.stem}": [str(p.relative_to(ROOT))]
        for p in sorted((ROOT / "examples" / "contract").glob("*.yaml"))
    },
    "convfinqa": ["examples/convfinqa/agent.yaml"],
    "convfinqa-one-test-case": ["examples/convfinqa/agent.yaml", "--test-case", "greeting"],
    **{p.stem: [str(INPUTS / p.name)] for p in sorted((ROOT / INPUTS).glob("*.yaml"))},
    "with-test-cases-file": [str(INPUTS / "with-test-cases-file" / "agent.yaml")],
    "refused": ["tests/golden/inputs/several-faults.yaml"],
}
FORMATS = ("text", "json")


def _run(args: list[str], fmt: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["explain", *args, "--format", fmt])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", list(CASES))
def test_explain_output_matches_its_golden(
    case: str, fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    code, out = _run(CASES[case], fmt, capsys)
    expected = EXPECTED / f"{case}.{fmt}"
    if UPDATE:
        expected.write_text(out, encoding="utf-8")
    assert expected.is_file(), f"missing golden {expected}: run make goldens"
    assert out == expected.read_text(encoding="utf-8"), f"{expected.name} is stale: make goldens"
    assert code == (1 if case == "refused" else 0)


def _document(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out = _run(args, "json", capsys)
    assert code == 0
    document: dict[str, Any] = json.loads(out)
    assert document["version"] == 1
    return document


def _turn(document: dict[str, Any], case: str, turn: int | None) -> dict[str, Any]:
    (found,) = [c for c in document["test_cases"] if c["name"] == case]
    (chosen,) = [t for t in found["turns"] if t["turn"] == turn]
    result: dict[str, Any] = chosen
    return result


def test_the_first_non_empty_list_wins_whole_turn_then_test_case_then_agent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    doc = _document([str(INPUTS / "precedence-levels.yaml")], capsys)
    agent = _turn(doc, "agent-list", 0)
    assert agent["metrics_from"]["level"] == "agent"
    assert [m["metric"] for m in agent["metrics"]] == ["equality", "bleu"]
    case = _turn(doc, "case-list", 0)
    assert case["metrics_from"]["level"] == "test case"
    assert [m["metric"] for m in case["metrics"]] == ["numeric"]
    turn = _turn(doc, "case-list", 1)
    assert (turn["metrics_from"]["level"], [m["metric"] for m in turn["metrics"]]) == (
        "turn",
        ["bleu"],
    )
    assert turn["metrics"][0]["threshold"] == 0.4
    assert _turn(doc, "single-turn-own-list", None)["metrics_from"]["level"] == "test case"
    assert _turn(doc, "single-turn-agent-list", None)["metrics_from"]["level"] == "agent"


def test_an_empty_evaluations_list_falls_through_to_the_next_level(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    doc = _document([str(INPUTS / "empty-evaluations.yaml")], capsys)
    assert _turn(doc, "empty-on-the-test-case", 0)["metrics_from"]["level"] == "agent"
    assert _turn(doc, "empty-on-the-turn", 0)["metrics_from"]["level"] == "test case"


def test_the_last_definition_of_a_metric_sets_it_for_every_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    doc = _document([str(INPUTS / "settings-leak.yaml")], capsys)
    (numeric,) = doc["evaluators"]
    assert numeric["from"]["path"] == "test_cases[1].evaluations[0]"
    assert numeric["settings_differ"] is True
    first = _turn(doc, "first", 1)["metrics"][0]
    assert first["settings"]["absolute_tolerance"] == 1e-6
    assert first["settings"]["accept_percent"] is True
    assert first["own_settings_ignored"] == {"absolute_tolerance": 0.5, "accept_percent": False}
    # The threshold stays per level.
    assert _turn(doc, "second", 0)["metrics"][0]["threshold"] == 1
    assert first["threshold"] is None


def test_the_leak_crosses_into_the_test_cases_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    doc = _document([str(INPUTS / "with-test-cases-file" / "agent.yaml")], capsys)
    agent_list = _turn(doc, "in-the-file", 0)["metrics"][0]
    assert agent_list["settings"]["absolute_tolerance"] == 0.5
    assert agent_list["settings_from"]["file"].endswith("cases.yaml")


def test_threshold_response_path_and_code_metrics_stay_per_level(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    doc = _document([str(INPUTS / "per-level-settings.yaml")], capsys)
    agent = _turn(doc, "own-threshold-and-path", 0)["metrics"]
    turn = _turn(doc, "own-threshold-and-path", 1)["metrics"]
    assert (agent[0]["threshold"], agent[0]["response_path"]) == (1, "answer")
    assert (turn[0]["threshold"], turn[0]["response_path"]) == (0.5, None)
    assert (agent[1]["status"], turn[1]["status"]) == ("runs", "disabled")
    assert turn[2]["status"] == "runs" and turn[2]["enabled_ignored"] is True


def test_ground_truth_metrics_skip_turns_without_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    doc = _document([str(INPUTS / "ground-truth-skips.yaml")], capsys)
    statuses = {m["metric"]: m["status"] for m in _turn(doc, "multi-turn", 0)["metrics"]}
    assert statuses == {
        "equality": "skipped-no-ground-truth",
        "Helpful": "runs",
        "contextual_recall": "skipped-no-ground-truth",
    }
    assert {m["status"] for m in _turn(doc, "multi-turn", 1)["metrics"]} == {"runs"}
    single = {m["metric"]: m["status"] for m in _turn(doc, "single-turn", None)["metrics"]}
    assert single["equality"] == "no-ground-truth"


def test_tool_assertions_are_spelled_out(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    doc = _document(["examples/contract/section-1-grammar.yaml"], capsys)
    (tool,) = _turn(doc, "convfinqa-0-strict", 1)["expected_tools"]
    assert tool["text"] == (
        'subtract: at least 1 call whose name contains "subtract", a = 206588 (int or float), '
        'b ~ "181001" (fuzzy: case, spaces and separators ignored)'
    )


def test_an_unknown_test_case_name_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["explain", "examples/convfinqa/agent.yaml", "--test-case", "nope\x1b"]) == 2
    err = capsys.readouterr().err
    assert "no test case named" in err and "\x1b" not in err


def test_a_missing_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "does/not/exist.yaml"]) == 2
    assert "cannot read" in capsys.readouterr().err


HOSTILE = (
    "test_cases:\n"
    '  - name: "evil\\e[31m\\u202e"\n'
    "    turns:\n"
    '      - input: "in\\u0007put\\u2028x"\n'
    '        ground_truth: "1\\u0085"\n'
    "        expected_tools:\n"
    '          - name: "t\\e"\n'
    "            args:\n"
    '              "k\\e": { fuzzy: "\\e" }\n'
    "        files:\n"
    '          - path: "a\\eb"\n'
    "            type: image\n"
)


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_control_or_bidi_character_of_the_input_reaches_the_output(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import unicodedata

    path = tmp_path / "evil.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    code, out = _run([str(path)], fmt, capsys)
    assert code == 0
    raw = [c for c in out if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    assert raw == []
    if fmt == "json":
        (case,) = json.loads(out)["test_cases"]
        assert case["name"] == "evil\x1b[31m\u202e"
    else:
        assert "test case 'evil\\u001b[31m\\u202e'" in out


def test_the_summary_counts_running_skipped_and_unread(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(ROOT)
    skips = _document([str(INPUTS / "ground-truth-skips.yaml")], capsys)["summary"]
    assert (skips["test_cases"], skips["turns"], skips["turns_without_metrics"]) == (2, 3, 0)
    by_name = {m["metric"]: (m["turns_running"], m["turns_skipped"]) for m in skips["metrics"]}
    assert by_name == {"equality": (2, 1), "Helpful": (3, 0), "contextual_recall": (2, 1)}
    agent = tmp_path / "agent.yaml"
    agent.write_text(
        "name: a\ntest_cases:\n"
        "  - turns:\n"
        "      - input: q\n        turn_config: {turn_program: 'subtract(1, 2)'}\n"
        "        expected_tools: [subtract]\n"
        "      - input: r\n        turn_config: {turn_program: 'add(1, 2)'}\n"
        "        evaluations:\n          - {type: code, grader: my_graders:exact}\n",
        encoding="utf-8",
    )
    plan = _document([str(agent)], capsys)["summary"]
    assert plan["turns_with_tool_assertions"] == 1
    assert (plan["turns_with_turn_config"], plan["turn_config_read_by_nothing"]) == (2, 1)
    assert plan["turns_without_metrics"] == 1
    code, out = _run([str(agent)], "text", capsys)
    assert code == 0
    assert out.splitlines()[-5:] == [
        "summary: 1 test case, 2 turns",
        "  my_graders:exact (code): runs on 1 turn",
        "  turns with no metric: 1",
        "  turns with tool assertions: 1",
        "  turns with a turn_config: 2, read by nothing on 1 turn (no code metric runs there)",
    ]


def test_explain_judges_the_substituted_document_and_shows_each_reference_as_written(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HMT_TOL", "0.5")
    monkeypatch.setenv("HMT_OFF", "false")
    agent = tmp_path / "agent.yaml"
    agent.write_text(
        "name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: Answer.}\n"
        "evaluations:\n  metrics:\n"
        "    - {type: standard, metric: numeric, absolute_tolerance: ${HMT_TOL}}\n"
        "    - {type: code, grader: 'graders.g:exact', enabled: ${HMT_OFF}}\n"
        "test_cases:\n  - name: net cash\n    input: q\n    ground_truth: '206588'\n",
        encoding="utf-8",
    )
    [turn] = _document([str(agent)], capsys)["test_cases"][0]["turns"]
    numeric, code = turn["metrics"]
    # Judged as validate judges it: the variable's value, a boolean, turns the grader off.
    assert code["status"] == "disabled"
    assert numeric["settings"]["absolute_tolerance"] == "${HMT_TOL}"
    assert main(["explain", str(agent)]) == 0
    out = capsys.readouterr().out
    assert "absolute_tolerance ${HMT_TOL}," in out
    assert '"${HMT_TOL}"' not in out and "absolute_tolerance 0.5" not in out
    assert "numeric (standard)" in out or "numeric" in out  # a literal name stays shown
