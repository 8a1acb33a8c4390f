"""The lints' entries one after another: each rule keeps going past an entry it passes over.

One document holds, in one list of arguments and one of metrics, an entry each lint
skips (not its kind, nothing to say) before the ones it reports, and pairs of expected
tools that differ only in a literal's type, a list item, a mapping value, a date or a
regex: none of them is a duplicate.
"""

from __future__ import annotations

from holodeck_mt.pipeline import validate_text

SOURCE = (
    "evaluations:\n"
    "  metrics:\n"
    "    - type: code\n"
    '      grader: "graders:grade"\n'
    "      enabled: false\n"
    "    - type: standard\n"
    "      metric: bleu\n"
    "      enabled: false\n"
    "test_cases:\n"
    "  - name: args\n"
    "    input: hi\n"
    '    ground_truth: "1"\n'
    "    expected_tools:\n"
    "      - name: t\n"
    "        args:\n"
    "          a: 1\n"
    "          b: {x: 1, y: 2}\n"
    '          c: {fuzzy: "1"}\n'
    '          d: {match: "^a$"}\n'
    '          e: {PATTERN: "x"}\n'
    '          f: {regs: "x"}\n'
    "          g: plain\n"
    '          h: {fuzzy: "X-ray"}\n'
    '          i: {fuzzy: "(-5)"}\n'
    '          j: {fuzzy: "$123456789012345678901234567890123456789012345"}\n'
    '          k: {regex: "^a$"}\n'
    '          l: {regex: "a1a2a3a4a5a6a7a8|123456"}\n'
    '          m: {regex: "^(?:1|2|3)(?:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx)?$"}\n'
    "      - name: u\n"
    "        args: {a: true}\n"
    "      - name: u\n"
    "        args: {a: 1}\n"
    "      - name: v\n"
    "        args: {a: [1]}\n"
    "      - name: v\n"
    "        args: {a: [2]}\n"
    "      - name: w\n"
    "        args: {a: {x: 1}}\n"
    "      - name: w\n"
    "        args: {a: {x: 2}}\n"
    "      - name: y\n"
    "        args: {a: 2024-01-01}\n"
    "      - name: y\n"
    "        args: {a: 2024-01-02}\n"
    "      - name: z\n"
    '        args: {a: {regex: "p"}}\n'
    "      - name: z\n"
    '        args: {a: {regex: "q"}}\n'
    "  - name: flags\n"
    "    input: hi\n"
    '    ground_truth: "1"\n'
    "    evaluations:\n"
    "      - type: geval\n"
    "        name: G\n"
    "        criteria: c\n"
    "      - metric: numeric\n"
    "        case_insensitive: true\n"
    "  - name: singular\n"
    "    turns:\n"
    "      - input: q\n"
    "        evaluations:\n"
    "          - metric: bleu\n"
    "  - name: single\n"
    "    input: q\n"
    "    evaluations:\n"
    "      - metric: bleu\n"
)


LITERAL = "is not a matcher key, so this is a literal mapping that the actual argument must equal"
UNNUMBERED = "write the number alone (a minus sign for a negative): "
DATE = "if it is text (editors, reading YAML 1.2, see `{0}` as a string)"


def test_each_lint_reports_every_entry_past_the_ones_it_skips() -> None:
    found = [
        (d.code, d.test_case, d.path, d.line, d.column, d.message, d.hint)
        for d in validate_text(SOURCE).diagnostics
    ]
    args = "expected_tools[0].args"
    assert found == [
        (
            "HMT302",
            None,
            "evaluations.metrics[1].enabled",
            8,
            7,
            "`enabled: false` has no effect on a `standard` metric: only code metrics can be "
            "switched off, so `bleu` still runs",
            "remove the metric from the list to stop it running",
        ),
        (
            "HMT204",
            "args",
            f"{args}.d.match",
            19,
            15,
            f"'match' {LITERAL}",
            "did you mean 'regex'?",
        ),
        (
            "HMT204",
            "args",
            f"{args}.e.PATTERN",
            20,
            15,
            f"'PATTERN' {LITERAL}",
            "did you mean 'regex'?",
        ),
        (
            "HMT306",
            "args",
            f"{args}.i.fuzzy",
            24,
            22,
            'the fuzzy matcher does not normalise "(" ")": "(-5)" keeps them, so it never '
            "matches a number argument",
            UNNUMBERED + '{fuzzy: "-5"}',
        ),
        (
            "HMT306",
            "args",
            f"{args}.j.fuzzy",
            25,
            22,
            'the fuzzy matcher does not normalise "$": "$12345678901234567890123456789012345678…" '
            "keeps it, so it never matches a number argument",
            UNNUMBERED + '{fuzzy: "12345678901234567890123456789…"}',
        ),
        (
            "HMT305",
            "args",
            f"{args}.m.regex",
            28,
            22,
            "the regex matches 1 but not 1.0, and a number argument may arrive as a float: "
            '"^(?:1|2|3)(?:xxxxxxxxxxxxxxxxxxxxxxxxxx…" is matched against str(value)',
            'accept the float form too, e.g. `^1(\\.0+)?$`, or use `{fuzzy: "1"}`',
        ),
        (
            "HMT208",
            "args",
            "expected_tools[7].args.a",
            42,
            19,
            'the platform reads this as the date 2024-01-01; write "2024-01-01" '
            + DATE.format("2024-01-01"),
            '"2024-01-01" reads the same in YAML 1.1 and 1.2',
        ),
        (
            "HMT208",
            "args",
            "expected_tools[8].args.a",
            44,
            19,
            'the platform reads this as the date 2024-01-02; write "2024-01-02" '
            + DATE.format("2024-01-02"),
            '"2024-01-02" reads the same in YAML 1.1 and 1.2',
        ),
        (
            "HMT200",
            "flags",
            "evaluations[1].case_insensitive",
            57,
            9,
            "`case_insensitive` has no effect on the `numeric` metric (it applies to `equality`)",
            "remove it, or use `metric: equality`",
        ),
        (
            "HMT304",
            "singular",
            "turns[0]",
            60,
            9,
            "this turn has no `ground_truth`, so `bleu` is skipped on it, silently "
            "(the test case's score averages over the turns that ran it)",
            "add a `ground_truth` to the turn, or give it its own `evaluations`",
        ),
        (
            "HMT304",
            "single",
            "",
            63,
            5,
            "this test case has no `ground_truth`, yet `bleu` compares the response with it: "
            "it cannot pass",
            "add a `ground_truth`, or give the test case its own `evaluations`",
        ),
    ]


def test_a_pair_of_names_is_a_duplicate_after_a_list_too_short_to_hold_one() -> None:
    source = (
        "test_cases:\n"
        "  - name: t\n"
        "    turns:\n"
        "      - input: q\n"
        "        expected_tools: [a]\n"
        "      - input: q\n"
        "        expected_tools: [t, t]\n"
    )
    assert [
        (d.code, d.test_case, d.path, d.line, d.column, d.message, d.hint)
        for d in validate_text(source).diagnostics
    ] == [
        (
            "HMT203",
            "t",
            "turns[1].expected_tools[1]",
            7,
            29,
            "tool 't' is listed twice in `expected_tools`",
            "to require several calls, write `- name: t` with `count: 2`",
        )
    ]
