"""A metric's path is where it is written: an entry that is not a metric (a schema error of
its own) shifts no path of the metrics after it."""

from __future__ import annotations

from holodeck_mt.semantics import precedence


def test_a_stray_entry_shifts_no_metric_path() -> None:
    case = {
        "input": "hi",
        "evaluations": [7, {"metric": "bleu"}],
        "turns": None,
    }
    turn_case = {"turns": [{"input": "a", "evaluations": ["x", None, {"metric": "rouge"}]}]}
    plan = precedence.build({}, [case, turn_case], ("test_cases",))
    paths = sorted(d.path for d in plan.definitions)
    assert paths == [
        ("test_cases", 0, "evaluations", 1),
        ("test_cases", 1, "turns", 0, "evaluations", 2),
    ]
