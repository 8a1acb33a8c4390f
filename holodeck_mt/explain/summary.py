"""The summary closing ``holodeck-mt explain`` (docs/explain.md), read from the explained
test cases, so ``--test-case`` narrows it too.
"""

from __future__ import annotations

from typing import Any

from holodeck_mt.explain.describe import label

#: A metric's statuses that count as running on the turn (a single turn without a ground
#: truth still runs its comparison: it fails).
_RUNNING = ("runs", "no-ground-truth")


def summarise(test_cases: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``summary`` of the explain document."""
    metrics: dict[tuple[str, str], dict[str, Any]] = {}
    turns = without_metric = with_tools = with_config = config_unread = 0
    for case in test_cases:
        for turn in case["turns"]:
            turns += 1
            running = [m for m in turn["metrics"] if m["status"] in _RUNNING]
            for metric in turn["metrics"]:
                key = (metric["metric"], metric["kind"])
                entry = metrics.setdefault(
                    key,
                    {"metric": key[0], "kind": key[1], "turns_running": 0, "turns_skipped": 0},
                )
                if metric["status"] in _RUNNING:
                    entry["turns_running"] += 1
                elif metric["status"] == "skipped-no-ground-truth":
                    entry["turns_skipped"] += 1
            without_metric += not running
            with_tools += bool(turn["expected_tools"])
            if turn["has_turn_config"]:
                with_config += 1
                config_unread += not any(m["kind"] == "code" for m in running)
    return {
        "test_cases": len(test_cases),
        "turns": turns,
        "metrics": list(metrics.values()),
        "turns_without_metrics": without_metric,
        "turns_with_tool_assertions": with_tools,
        "turns_with_turn_config": with_config,
        "turn_config_read_by_nothing": config_unread,
    }


def _turns(n: int) -> str:
    return f"{n} turn" + ("" if n == 1 else "s")


def text_lines(summary: dict[str, Any]) -> list[str]:
    """The summary block of the text output."""
    cases = summary["test_cases"]
    head = f"summary: {cases} test case{'' if cases == 1 else 's'}, {_turns(summary['turns'])}"
    lines = [head]
    for metric in summary["metrics"]:
        running = _turns(metric["turns_running"])
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
            line += f", read by nothing on {_turns(unread)} (no code metric runs there)"
        lines.append(line)
    return lines
