"""The run-time lints (the rules that run on a file without errors, and HMT203).

Each lint is tested alone in tests/rules/ (a fixture that fires it, a near miss that
must not). Lints are warnings: the real samples still validate with no error, and the
tests below pin which lint fires on which of them, and why.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from holodeck_mt.rules.registry import RULES
from holodeck_mt.semantics import metrics
from tests.conftest import ROOT, SAMPLES, RunJson
from tests.support import vectors

LINT_CODES = [*(rule.code for rule in RULES if rule.runs == "runtime"), "HMT203"]


def test_a_leak_into_a_test_cases_file_is_reported_in_that_file(run_json: RunJson) -> None:
    agent = ROOT / "tests" / "explain" / "inputs" / "with-test-cases-file" / "agent.yaml"
    _, document = run_json(str(agent))
    found = {
        (Path(f["path"]).name, d["code"], d["path"])
        for f in document["files"]
        for d in f["diagnostics"]
    }
    assert found == {
        ("cases.yaml", "HMT300", "turns[1].evaluations[0]"),
        ("cases.yaml", "HMT301", "turns[1].evaluations[0].absolute_tolerance"),
    }


# --- the real samples --------------------------------------------------------------------

needs_samples = pytest.mark.usefixtures("samples")

#: Which lints fire on each real sample, and why (or why none does).
SAMPLE_VERDICTS: dict[str, tuple[set[str], str]] = {
    "financial-assistant/claude/agent.yaml": (
        set(),
        "numeric is defined once (agent level), its absolute_tolerance 1e-06 is below every "
        "non-zero ground truth, every turn has a ground_truth, no matcher is a regex or fuzzy",
    ),
    "financial-assistant/openai/agent.yaml": (set(), "as the claude variant"),
    "legal-assistant/claude/agent.yaml": (
        set(),
        "its test cases have no ground_truth, but no metric runs at any level",
    ),
    "legal-summarization/openai/agent.yaml": (
        set(),
        "rouge, bleu and contextual_precision need a ground truth, and every test case has one",
    ),
    "customer-support/openai/agent.yaml": (
        set(),
        "rag and geval metrics; contextual_relevancy needs no ground truth; each has one anyway",
    ),
    "content-moderation/openai/agent.yaml": (set(), "geval and faithfulness only"),
    "ticket-routing/openai/agent.yaml": (set(), "geval and faithfulness only"),
}


@needs_samples
def test_which_lint_fires_on_which_real_sample(run_json: RunJson) -> None:
    code, document = run_json(str(SAMPLES))
    assert code == 0
    assert document["summary"]["errors"] == 0
    fired: dict[str, set[str]] = {}
    for file in document["files"]:
        relative = Path(file["path"]).resolve().relative_to(SAMPLES.resolve()).as_posix()
        fired[relative] = {d["code"] for d in file["diagnostics"] if d["code"] in LINT_CODES}
    for sample, (codes, why) in SAMPLE_VERDICTS.items():
        assert fired[sample] == codes, why
    # No sample file, the test-cases files included, fires any lint.
    assert set().union(*fired.values()) == set()


@needs_samples
def test_the_samples_former_tolerance_would_fire_hmt301_on_the_turn_its_comment_names(
    tmp_path: Path, run_json: RunJson
) -> None:
    """The comment records `absolute_tolerance: 0.5` letting 13.7% pass against 0.05995."""
    source = SAMPLES / "financial-assistant" / "claude"
    (tmp_path / "data").mkdir()
    shutil.copy(source / "data" / "convfinqa_subset_retrieval.yaml", tmp_path / "data")
    text = (source / "agent.yaml").read_text(encoding="utf-8")
    former = text.replace("relative_tolerance: 0.01", "absolute_tolerance: 0.5", 1)
    former = re.sub(r"\n *absolute_tolerance: 1\.0e-6", "", former, count=1)
    assert former != text
    (tmp_path / "agent.yaml").write_text(former, encoding="utf-8")
    code, document = run_json(str(tmp_path / "agent.yaml"))
    assert code == 0
    (hit,) = [d for f in document["files"] for d in f["diagnostics"] if d["code"] == "HMT301"]
    assert hit["path"].endswith("ground_truth")
    # 107 of the file's turns have a ground truth of magnitude 0.5 or less, 0.05995 among them.
    assert "on 107 turns running `numeric`" in hit["message"]
    former_settings = {"absolute_tolerance": 0.5, "accept_percent": True}
    assert vectors.numeric("13.7%", "0.05995", former_settings)
    current = {"relative_tolerance": 0.01, "absolute_tolerance": 1e-6, "accept_percent": True}
    assert not vectors.numeric("13.7%", "0.05995", current)


@needs_samples
def test_why_the_financial_assistant_fires_no_lint() -> None:
    from holodeck_mt.explain import explain

    document, _ = explain(str(SAMPLES / "financial-assistant" / "claude" / "agent.yaml"))
    (numeric,) = document["evaluators"]
    assert (numeric["metric"], len(numeric["definitions"])) == ("numeric", 1)  # no HMT300
    tolerance = numeric["settings"]["absolute_tolerance"]
    turns = [t for case in document["test_cases"] for t in case["turns"]]
    assert all(t["ground_truth"] is not None for t in turns)  # no HMT304
    sizes = [
        abs(value)
        for t in turns
        if (value := metrics.parse_number(t["ground_truth"], numeric["settings"]))
    ]
    assert min(sizes) > tolerance  # no HMT301
    assert all(not t["expected_tools"][0]["args"] for t in turns if t["expected_tools"])


@needs_samples
def test_why_the_legal_assistant_fires_no_ground_truth_lint() -> None:
    from holodeck_mt.explain import explain

    document, _ = explain(str(SAMPLES / "legal-assistant" / "claude" / "agent.yaml"))
    turns = [t for case in document["test_cases"] for t in case["turns"]]
    assert turns and all(t["ground_truth"] is None for t in turns)
    assert all(t["metrics_from"] is None for t in turns)  # nothing runs, nothing is skipped
