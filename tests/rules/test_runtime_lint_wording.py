"""The run-time lints' wording where it lists and names what runs: HMT300 and HMT301.

The fixtures under tests/fixtures/warnings/runtime/ pin one firing of each lint; these
pin how a message names a definition (the agent's, the agent.yaml's, a test case's
turn), lists the turns a list runs on (a few of each test case, a few test cases, then
a count), clips a long test-case name, and where a warning points when the metric it
concerns is defined in the agent.yaml beside a test-cases file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_mt.pipeline import validate_text
from tests.conftest import RunJson

LEAK_HINT = (
    "give every definition of `{key}` the same settings; "
    "only threshold and response_path may differ per level"
)
TOLERANCE_HINT = (
    "use relative_tolerance (e.g. 0.01) for answers of mixed size, or a far smaller "
    "absolute_tolerance"
)
AGENT_NUMERIC = (
    "name: a\n"
    "evaluations:\n"
    "  metrics:\n"
    "    - type: standard\n"
    "      metric: numeric\n"
    "      absolute_tolerance: 0.5\n"
)


def _case(name: str, turns: int) -> str:
    """A test case with ``turns`` turns (0: a single-turn test case), each with a ground truth."""
    if turns == 0:
        return f'  - name: {name}\n    input: q\n    ground_truth: "1"\n'
    turn = '      - input: q\n        ground_truth: "1"\n'
    return f"  - name: {name}\n    turns:\n" + turn * turns


def _last(name: str = "last") -> str:
    """A test case whose one turn defines `numeric` again, last: its evaluator wins."""
    return (
        f"  - name: {name}\n    turns:\n"
        '      - input: q\n        ground_truth: "1"\n'
        "        evaluations:\n          - metric: numeric\n            absolute_tolerance: 0.1\n"
    )


def _messages(source: str, code: str = "HMT300") -> list[str]:
    return [d.message for d in validate_text(source).diagnostics if d.code == code]


def _leak(at: str, lost: str, runs_on: str) -> str:
    return (
        f"`numeric` is defined with other settings at {at}, the last definition, whose "
        f"evaluator serves every turn running `numeric`: this one's {lost} apply nowhere "
        f"({runs_on})"
    )


def test_a_leaks_turn_listing_shows_five_turns_of_three_test_cases_then_counts() -> None:
    cases = [_case("many", 7), _case("five", 5), _case("single", 0), _case("d", 1), _case("e", 1)]
    source = AGENT_NUMERIC + "test_cases:\n" + "".join(cases) + _last()
    (found,) = validate_text(source).diagnostics
    assert (found.code, found.path, found.line, found.hint) == (
        "HMT300",
        "evaluations.metrics[0]",
        4,
        LEAK_HINT.format(key="numeric"),
    )
    assert found.message == _leak(
        "test case 'last' (#5) turns[0].evaluations[0]",
        "absolute_tolerance 0.5",
        "that list runs on test case 'many' (#0) turns 0, 1, 2, 3, 4 and 2 more; "
        "test case 'five' (#1) turns 0, 1, 2, 3, 4; test case 'single' (#2) "
        "and 2 more test cases",
    )


def test_a_leaks_turn_listing_counts_one_more_test_case_and_no_more_after_three() -> None:
    four = "".join(_case(name, 1) for name in "abcd")
    assert _messages(AGENT_NUMERIC + "test_cases:\n" + four + _last()) == [
        _leak(
            "test case 'last' (#4) turns[0].evaluations[0]",
            "absolute_tolerance 0.5",
            "that list runs on test case 'a' (#0) turn 0; test case 'b' (#1) turn 0; "
            "test case 'c' (#2) turn 0 and 1 more test case",
        )
    ]
    three = _case("a", 2) + _case("b", 1) + _case("c", 1)
    assert _messages(AGENT_NUMERIC + "test_cases:\n" + three + _last()) == [
        _leak(
            "test case 'last' (#3) turns[0].evaluations[0]",
            "absolute_tolerance 0.5",
            "that list runs on test case 'a' (#0) turns 0, 1; test case 'b' (#1) turn 0; "
            "test case 'c' (#2) turn 0",
        )
    ]


def test_a_leak_between_two_agent_definitions_names_the_agents_list() -> None:
    source = (
        AGENT_NUMERIC
        + "    - type: standard\n      metric: numeric\n      absolute_tolerance: 0.1\n"
        + 'test_cases:\n  - input: q\n    ground_truth: "1"\n'
    )
    assert _messages(source) == [
        _leak(
            "the agent's evaluations.metrics[1]",
            "absolute_tolerance 0.5",
            "that list runs on test case #0",
        )
    ]


def test_a_leak_names_test_cases_by_a_name_clipped_to_60_or_by_index() -> None:
    """Every definition that differs from the last is reported, past one that does not."""
    sixty, sixty_one = "s" * 60, "l" * 61
    source = (
        AGENT_NUMERIC
        + "test_cases:\n"
        + _case(sixty, 0)
        + '  - input: q\n    ground_truth: "1"\n'  # no name: its index
        + _case("same", 0)
        + "    evaluations:\n      - metric: numeric\n        absolute_tolerance: 0.1\n"
        + _case("other", 0)
        + "    evaluations:\n      - metric: numeric\n        absolute_tolerance: 0.3\n"
        + _last(sixty_one)
    )
    winner = f"test case '{'l' * 59}…' (#4) turns[0].evaluations[0]"
    found = [(d.test_case, d.path, d.line) for d in validate_text(source).diagnostics]
    assert found == [(None, "evaluations.metrics[0]", 4), ("other", "evaluations[0]", 23)]
    assert _messages(source) == [
        _leak(
            winner,
            "absolute_tolerance 0.5",
            f"that list runs on test case '{sixty}' (#0); test case #1",
        ),
        _leak(winner, "absolute_tolerance 0.3", "that list runs on test case 'other' (#3)"),
    ]


def test_a_leak_from_a_list_no_turn_runs_shows_each_setting_briefly() -> None:
    source = (
        "test_cases:\n"
        "  - name: unheard\n"
        "    evaluations:\n"
        "      - type: geval\n"
        "        name: Judge\n"
        "        criteria: the answer is correct, complete, and cites the page it came from\n"
        "        evaluation_params: [actual_output, expected_output, input, retrieval_context]\n"
        "        model: {provider: openai, name: gpt-4o-mini-2024-07-18, temperature: 0.25}\n"
        "    turns:\n"
        "      - input: q\n"
        '        ground_truth: "1"\n'
        "        evaluations:\n"
        "          - type: geval\n"
        "            name: Judge\n"
        "            criteria: short\n"
    )
    (found,) = validate_text(source).diagnostics
    assert (found.code, found.test_case, found.path, found.line, found.hint) == (
        "HMT300",
        "unheard",
        "evaluations[0]",
        4,
        LEAK_HINT.format(key="Judge"),
    )
    assert found.message == (
        "`Judge` is defined with other settings at test case 'unheard' (#0) "
        "turns[0].evaluations[0], the last definition, whose evaluator serves every turn "
        'running `Judge`: this one\'s criteria "the answer is corre…", evaluation_params '
        '["actual_output", "…, model {"provider": "opena… apply nowhere '
        "(no turn runs that list)"
    )


def _seen(document: dict[str, Any]) -> list[tuple[str, str, str, str, int, int, str, str]]:
    return [
        (
            Path(f["path"]).name,
            d["code"],
            d["test_case"],
            d["path"],
            d["line"],
            d["column"],
            d["message"],
            d["hint"],
        )
        for f in document["files"]
        for d in f["diagnostics"]
    ]


def _with_cases_file(folder: Path, agent: str, cases: str) -> str:
    (folder / "agent.yaml").write_text(agent + "test_cases_file: cases.yaml\n", encoding="utf-8")
    (folder / "cases.yaml").write_text(cases, encoding="utf-8")
    return str(folder / "agent.yaml")


def test_a_leak_of_the_agent_yamls_definition_is_reported_at_the_files_last_one(
    tmp_path: Path, run_json: RunJson
) -> None:
    cases = (
        "- name: first\n  turns:\n"
        '    - input: q\n      ground_truth: "7"\n'
        '    - input: q\n      ground_truth: "8"\n'
        "- name: second\n  turns:\n"
        '    - input: q\n      ground_truth: "9"\n'
        "      evaluations:\n        - metric: numeric\n          absolute_tolerance: 0.1\n"
    )
    agent = AGENT_NUMERIC.replace("0.5", "0.000001")
    code, document = run_json(_with_cases_file(tmp_path, agent, cases))
    assert code == 0
    assert _seen(document) == [
        (
            "cases.yaml",
            "HMT300",
            "second",
            "turns[0].evaluations[0]",
            12,
            11,
            "this is the last definition of `numeric` in the file, so its evaluator serves "
            "every turn running `numeric`: the settings of the agent.yaml's "
            "evaluations.metrics[0] (absolute_tolerance 1e-06) apply nowhere "
            "(that list runs on test case 'first' (#0) turns 0, 1)",
            LEAK_HINT.format(key="numeric"),
        )
    ]


def test_a_tolerance_of_the_agent_yaml_is_reported_at_the_ground_truth_it_dwarfs(
    tmp_path: Path, run_json: RunJson
) -> None:
    cases = (
        "- name: first\n  turns:\n"
        '    - input: q\n      ground_truth: "0.05"\n'
        '    - input: q\n      ground_truth: "7"\n'
    )
    code, document = run_json(_with_cases_file(tmp_path, AGENT_NUMERIC, cases))
    assert code == 0
    assert _seen(document) == [
        (
            "cases.yaml",
            "HMT301",
            "first",
            "turns[0].ground_truth",
            4,
            7,
            "`absolute_tolerance: 0.5` is at least the size of the ground truth on 1 turn "
            "running `numeric` (first: test case 'first' (#0) turns[0], ground truth "
            '"0.05"): any answer from -0.45 to 0.55 passes there',
            TOLERANCE_HINT,
        )
    ]


def test_a_tolerance_counts_the_turns_it_dwarfs_up_to_an_equal_ground_truth() -> None:
    source = (
        AGENT_NUMERIC + "test_cases:\n  - name: t\n    turns:\n"
        "      - input: no truth, so numeric is skipped\n"
        '      - input: numeric does not run\n        ground_truth: "0.1"\n'
        "        evaluations:\n          - metric: equality\n"
        '      - input: q\n        ground_truth: "0.0500000000000000000000000000000001"\n'
        '      - input: equal\n        ground_truth: "0.5"\n'
        '      - input: larger\n        ground_truth: "0.51"\n'
    )
    found = [
        (d.code, d.path, d.line, d.column, d.message, d.hint)
        for d in validate_text(source).diagnostics
        if d.code == "HMT301"
    ]
    assert found == [
        (
            "HMT301",
            "evaluations.metrics[0].absolute_tolerance",
            6,
            7,
            "`absolute_tolerance: 0.5` is at least the size of the ground truth on 2 turns "
            "running `numeric` (first: test case 't' (#0) turns[2], ground truth "
            '"0.050000000000000000000000000…"): any answer from -0.45 to 0.55 passes there',
            TOLERANCE_HINT,
        )
    ]


def test_an_empty_evaluations_list_names_every_metric_that_runs_instead_at_its_key() -> None:
    source = (
        "evaluations:\n"
        "  metrics:\n"
        "    - type: standard\n"
        "      metric: bleu\n"
        "    - type: standard\n"
        "      metric: rouge\n"
        "test_cases:\n"
        "  - name: t\n"
        "    input: hi\n"
        '    ground_truth: "1"\n'
        "    evaluations: []\n"
    )
    assert [
        (d.code, d.test_case, d.path, d.line, d.column, d.message, d.hint)
        for d in validate_text(source).diagnostics
    ] == [
        (
            "HMT303",
            "t",
            "evaluations",
            11,
            5,
            "`evaluations: []` counts as absent and cannot switch metrics off: the agent's "
            "metrics run here instead (bleu, rouge)",
            "remove it; an empty list never stops the test case's or the agent's metrics",
        )
    ]
