"""``holodeck-mt explain`` as text, rendered from the JSON document."""

from __future__ import annotations

from typing import Any

from holodeck_mt.explain.describe import label, settings_text, show
from holodeck_mt.model import test_case_phrase, unmarked
from holodeck_mt.text.safe_text import escape_as_json as safe
from holodeck_mt.text.safe_text import guard_lines
from holodeck_mt.wording.hints import plural, quote


def say_where(loc: dict[str, Any]) -> str:
    """``turn 1 of test case 'x' (#2), cases.yaml:33``; ``the agent, agent.yaml:12``."""
    if loc["level"] == "agent":
        subject = "the agent"
    else:
        subject = safe(test_case_phrase(loc["test_case"], loc["test_case_index"]))
        if loc["level"] == "turn":
            subject = f"turn {loc['turn']} of {subject}"
    return f"{subject}, {safe(str(loc['file']))}:{loc['line']} ({safe(str(loc['path']))})"


_STATUS = {
    "runs": "runs",
    "skipped-no-ground-truth": "skipped on this turn, silently: it needs a ground_truth "
    "(the roll-up averages over the turns that ran it)",
    "no-ground-truth": "runs without a ground_truth, so it cannot pass",
    "disabled": "off (enabled: false)",
}


def _metric_lines(metric: dict[str, Any]) -> list[str]:
    head = f"{label(metric['metric'])} ({metric['kind']}): {_STATUS[metric['status']]}"
    threshold = metric["threshold"]
    if threshold is None:
        judge = "grader" if metric["kind"] == "code" else "evaluator"
        head += f"; no threshold: the {judge}'s own pass/fail"
        if "evaluator_threshold" in metric:
            shared = show(metric["evaluator_threshold"])
            head += f" (judged at {shared}, the shared evaluator's threshold)"
    else:
        head += f"; passes at a score of {show(threshold)} or more"
    if metric["response_path"] is not None:
        head += f"; graded on {show(metric['response_path'])} of the response"
    if metric["enabled_ignored"]:
        head += "; `enabled: false` is ignored (it only switches off code metrics)"
    lines = [head]
    settings = settings_text(metric["settings"], set(metric["explicit"]))
    if not metric["settings_from_elsewhere"]:
        lines.append(f"  settings (this definition's): {settings}")
        return lines
    lines.append(f"  settings from {say_where(metric['settings_from'])}: {settings}")
    ignored = metric["own_settings_ignored"]
    if ignored:
        own = ", ".join(f"{label(k)} {show(v)}" for k, v in ignored.items())
        lines.append(f"  not applied from this definition: {own} (one evaluator per metric name)")
    return lines


def _turn_lines(turn: dict[str, Any]) -> list[str]:
    lines = []
    if turn["input"] is not None:
        lines.append(f"input: {quote(turn['input'], 80)}")
    truth = turn["ground_truth"]
    lines.append("ground truth: none" if truth is None else f"ground truth: {show(truth)}")
    source = turn["metrics_from"]
    if source is None:
        lines.append("metrics: none (no evaluations at any level)")
    else:
        lines.append(f"metrics from the {source['level']} ({safe(source['path'])}):")
        for metric in turn["metrics"]:
            lines += ["  " + line for line in _metric_lines(metric)]
    if turn["expected_tools"]:
        lines.append("expected tools (only this turn's calls count):")
        lines += [f"  {tool['text']}" for tool in turn["expected_tools"]]
    if turn["files"]:
        lines.append("files sent with this turn only:")
        for file in turn["files"]:
            where_from = file.get("path", file.get("url"))
            kind = file.get("type")
            text = show(where_from) if where_from is not None else "?"
            lines.append(f"  {text}" + (f" ({show(kind)})" if kind is not None else ""))
    return lines


def render(document: dict[str, Any]) -> str:
    out: list[str] = []
    if document["evaluators"]:
        out.append("evaluators (one per metric name for the whole file, from its last definition):")
        for evaluator in document["evaluators"]:
            settings = settings_text(evaluator["settings"], set(evaluator["explicit"]))
            out.append(f"  {label(evaluator['metric'])} ({evaluator['kind']}): {settings}")
            out.append(f"    from {say_where(evaluator['from'])}")
            if evaluator["settings_differ"]:
                others = [d for d in evaluator["definitions"] if d != evaluator["from"]]
                out += [f"    overrides {say_where(other)}" for other in others]
        out.append("")
    for case in document["test_cases"]:
        named = safe(test_case_phrase(case["name"], case["index"]))
        shape = plural(len(case["turns"]), "turn") if case["multi_turn"] else "single turn"
        out.append(f"{named}, {shape}, {safe(str(case['file']))}:{case['line']}")
        indent = "    " if case["multi_turn"] else "  "
        for turn in case["turns"]:
            if case["multi_turn"]:
                out.append(f"  turn {turn['turn']}, line {turn['line']}")
            out += [indent + line for line in _turn_lines(turn)]
    out += ["", *_summary_lines(document["summary"])]
    left = document.get("left_out")
    if left:
        out.append(
            f"... {left['turns']:,} more turn(s) ({left['test_cases']:,} whole test case(s)) "
            "left out: the output is bounded; explain one test case with --test-case NAME"
        )
    return guard_lines(unmarked("\n".join(out)) + "\n")  # what it shows, resolved already


def _summary_lines(summary: dict[str, Any]) -> list[str]:
    cases = summary["test_cases"]
    head = f"summary: {plural(cases, 'test case')}, {plural(summary['turns'], 'turn')}"
    lines = [head]
    for metric in summary["metrics"]:
        running = plural(metric["turns_running"], "turn")
        line = f"  {label(metric['metric'])} ({metric['kind']}): runs on {running}"
        if metric["turns_skipped"]:
            line += f", skipped on {metric['turns_skipped']} for want of a ground_truth"
        lines.append(line)
    lines.append(f"  turns with no metric: {summary['turns_without_metrics']}")
    lines.append(f"  turns with tool assertions: {summary['turns_with_tool_assertions']}")
    if summary["turns_with_turn_config"]:
        unread = summary["turn_config_read_by_nothing"]
        line = f"  turns with a turn_config: {summary['turns_with_turn_config']}"
        if unread:
            line += f", read by nothing on {plural(unread, 'turn')} (no code metric runs there)"
        lines.append(line)
    return lines
