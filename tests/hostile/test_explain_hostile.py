"""``explain`` has an output budget, as ``validate`` has, and escapes what it quotes.

A few agent-level metrics over thousands of turns multiply into an output far larger
than the file: past the budget the rest is left out, and a closing line says so. File
names are escaped, and no line of the text output starts with ``::``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from holodeck_mt.explain import run
from holodeck_mt.explain.document import MAX_ENTRIES
from holodeck_mt.limits import Limits

AGENT = """\
name: many
model: {provider: openai, name: gpt-4o}
evaluations:
  metrics:
    - {type: standard, metric: equality}
    - {type: standard, metric: numeric}
"""
TURNS = 6
CASES = 900


def _many(tmp_path: Path) -> Path:
    turns = "".join(f"      - {{input: q{t}, ground_truth: a}}\n" for t in range(TURNS))
    cases = "".join(f"  - name: c{i}\n    turns:\n{turns}" for i in range(CASES))
    path = tmp_path / "agent.yaml"
    path.write_text(AGENT + "test_cases:\n" + cases)
    return path


def _explain(path: Path, fmt: str = "text") -> tuple[int, str]:
    out = io.StringIO()
    code = run(str(path), None, fmt, Limits(), out)
    return code, out.getvalue()


def test_many_metrics_over_many_turns_stop_at_the_budget_and_say_so(tmp_path: Path) -> None:
    code, out = _explain(_many(tmp_path))
    assert code == 0
    lines = out.splitlines()
    assert len(lines) < 4 * MAX_ENTRIES
    assert lines[-1].startswith("... ")
    assert "left out: the output is bounded; explain one test case with --test-case" in lines[-1]


def test_the_json_document_counts_what_it_left_out(tmp_path: Path) -> None:
    code, out = _explain(_many(tmp_path), "json")
    assert code == 0
    document = json.loads(out)
    kept = sum(len(case["turns"]) for case in document["test_cases"])
    assert kept * (1 + 2) <= MAX_ENTRIES
    assert kept + document["left_out"]["turns"] == CASES * TURNS


def test_one_test_case_is_explained_whole_with_test_case(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run(str(_many(tmp_path)), "c899", "text", Limits(), out) == 0
    assert "left out" not in out.getvalue()
    assert "test case 'c899'" in out.getvalue()


def test_file_names_are_escaped_in_the_text_output(tmp_path: Path) -> None:
    name = "cases\x1b[2J\u202e.yaml"
    (tmp_path / name).write_text("- input: q\n  ground_truth: a\n")
    agent = tmp_path / "agent.yaml"
    agent.write_text(AGENT + 'test_cases_file: "cases\\e[2J\\u202e.yaml"\n')
    code, out = _explain(agent)
    assert code == 0, out
    assert "\x1b" not in out and "\u202e" not in out
    assert "cases\\u001b[2J\\u202e.yaml" in out or "cases\\x1b[2J\\u202e.yaml" in out
    assert not any(line.lstrip().startswith("::") for line in out.splitlines())
