"""Every diagnostic code, with its one-line meaning: the one place they are defined.

Codes are stable: scripts and CI steps match on them. ``docs/diagnostics.md``
documents each with an example; new codes are added, never renumbered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Code:
    code: str
    severity: Severity
    title: str
    description: str
    #: Why a code is no longer produced (codes are never reused nor renumbered).
    retired: str = ""
    #: The modules of the package that produce it (paths below holodeck_mt/);
    #: ``schema_errors.py`` for a rule of the schema (docs/diagnostics.md names its node).
    where: tuple[str, ...] = ()


_CODES = [
    # Reading and parsing the file.
    Code(
        "HMT001",
        "error",
        "yaml-syntax",
        "The file is not well-formed YAML.",
        where=("read/builder.py", "read/loader.py"),
    ),
    Code(
        "HMT002",
        "error",
        "duplicate-key",
        "A mapping holds the same key twice.",
        where=("read/builder.py",),
    ),
    Code(
        "HMT003",
        "error",
        "unsupported-yaml",
        "YAML the platform cannot read as JSON-shaped data: a tag that constructs an object, "
        "an unknown tag, a non-string key, a merge key that merges no mapping, several documents.",
        where=("read/builder.py",),
    ),
    Code(
        "HMT004",
        "error",
        "limit-exceeded",
        "The file exceeds a safety limit (size, nesting depth, alias expansions).",
        where=("read/builder.py", "read/files.py"),
    ),
    Code(
        "HMT005",
        "error",
        "encoding",
        "The file is not UTF-8 text (the platform reads only UTF-8; UTF-16 is refused).",
        where=("read/decoding.py", "read/loader.py"),
    ),
    Code(
        "HMT006",
        "error",
        "document-shape",
        "The document is empty, or is not a mapping (agent.yaml) or a list of test cases.",
        where=("read/loader.py", "contract/verdict.py"),
    ),
    Code(
        "HMT007",
        "error",
        "unloadable-scalar",
        "A scalar the platform's YAML 1.1 loader cannot construct, failing the whole load: "
        "`=`, an impossible date (`2024-02-30`), `<<` as a value, `!!int abc`.",
        where=("read/builder.py",),
    ),
    # The schema.
    Code(
        "HMT100",
        "error",
        "unknown-key",
        "A key that is not allowed where it stands.",
        where=("contract/messages.py",),
    ),
    Code(
        "HMT101",
        "error",
        "missing-key",
        "A required key is missing.",
        where=("contract/messages.py",),
    ),
    Code(
        "HMT102",
        "error",
        "wrong-type",
        "A value has the wrong type.",
        where=("contract/messages.py",),
    ),
    Code(
        "HMT103",
        "error",
        "invalid-value",
        "A value is out of its allowed set or range (enum, bounds, length, pattern).",
        where=("contract/messages.py",),
    ),
    Code(
        "HMT104",
        "error",
        "regex-compile",
        "A `regex` matcher does not compile with Python's re.",
        where=("rules/regex_compiles.py",),
    ),
    Code(
        "HMT105",
        "error",
        "test-case-shape",
        "A test case mixes single-turn and multi-turn fields, has empty `turns`, "
        "or has neither `input` nor `turns` (contract section 2).",
        where=("contract/messages.py",),
    ),
    Code(
        "HMT106",
        "error",
        "matcher-shape",
        "An argument matcher holds both `fuzzy` and `regex`, or a matcher key beside another key.",
        where=("contract/messages.py",),
    ),
    Code(
        "HMT107",
        "error",
        "file-source",
        "A file input sets both or neither of `path` and `url`.",
        where=("contract/messages.py",),
    ),
    Code(
        "HMT108",
        "error",
        "metric-kind",
        "A metric's kind cannot be told: `type` is missing at the agent level, or no kind's "
        "fields match.",
        where=("contract/messages.py",),
    ),
    Code(
        "HMT109",
        "error",
        "non-finite-number",
        "A metric's (or the optimizer's) number is `.nan` or `.inf`, which no comparison can use.",
        where=("rules/non_finite_numbers.py",),
    ),
    # References to other files and code.
    Code(
        "HMT110",
        "error",
        "test-cases-file",
        "`test_cases_file` is set beside `test_cases`, or names a file that cannot be read.",
        where=("contract/messages.py", "read/follow.py"),
    ),
    Code(
        "HMT111",
        "error",
        "grader-import",
        "A code grader's module, attribute or callable is missing (with --import-graders).",
        where=("rules/graders_import.py",),
    ),
    Code(
        "HMT112",
        "error",
        "file-missing",
        "A `files[*].path` does not exist relative to the agent.yaml (with --check-files).",
        where=("rules/files_exist.py",),
    ),
    Code(
        "HMT120",
        "error",
        "path-outside-tree",
        "A `test_cases_file`, `files[*].path` (with --check-files), or a file given or found "
        "(an agent.yaml that is a link) leaves the repository tree or names /proc, /sys or "
        "/dev; it is never read.",
        where=("rules/files_exist.py", "read/follow.py", "read/files.py"),
    ),
    Code(
        "HMT113",
        "error",
        "count-not-integer",
        "An expected tool's `count` is a float (`2.0`, `1.0e+3`): the platform requires an "
        "integer there.",
        where=("rules/count_is_integer.py",),
    ),
    Code(
        "HMT114",
        "error",
        "blank-text",
        "Text that is only whitespace where the platform refuses it like empty text: a test "
        "case's name, an input, a ground truth, an expected tool's name, a G-Eval metric's "
        "name or criteria, a custom prompt, a model's name, an azure_openai endpoint.",
        where=("contract/messages.py",),
    ),
    # Warnings: valid for the platform, but almost certainly not what the author meant.
    Code(
        "HMT200",
        "warning",
        "ineffective-flag",
        "A metric flag that has no effect on its metric (e.g. absolute_tolerance on equality).",
        where=("rules/ineffective_flags.py",),
    ),
    Code(
        "HMT201",
        "warning",
        "duplicate-name",
        "Two test cases have the same name.",
        where=("rules/duplicate_names.py",),
    ),
    Code(
        "HMT202",
        "warning",
        "unknown-top-level-key",
        "An agent.yaml key the platform does not define.",
        retired="the platform refuses an unknown top-level key, so it is now an HMT100 error "
        "from the schema",
        where=(),
    ),
    Code(
        "HMT203",
        "warning",
        "duplicate-expected-tool",
        "Two identical entries in one `expected_tools` list (a bare name and `{name: ...}` "
        "alike): entries are judged independently, so one call satisfies both; use `count`.",
        where=("rules/duplicate_expected_tools.py",),
    ),
    Code(
        "HMT204",
        "warning",
        "literal-looks-like-matcher",
        "An args value is a one-key literal mapping whose key looks like a misspelled matcher "
        "(`regexp`, `fuzy`).",
        where=("rules/literal_like_matcher.py",),
    ),
    # YAML 1.1 (the platform) and YAML 1.2 (editors) read these plain scalars differently.
    Code(
        "HMT205",
        "warning",
        "yaml11-boolean",
        "`yes`/`no`/`on`/`off` (any case): a boolean to the platform (YAML 1.1), a string to "
        "editors (YAML 1.2), where a boolean is expected: write `true` or `false`.",
        where=("read/dialect.py",),
    ),
    Code(
        "HMT206",
        "warning",
        "yaml11-number",
        "A number only YAML 1.1 reads so (`1_000`, `0b101`, `017` as octal 15, `1:30` as 90): "
        "editors read a string or another number; write the number the platform reads.",
        where=("read/dialect.py",),
    ),
    Code(
        "HMT207",
        "warning",
        "yaml12-number",
        "A scalar editors (YAML 1.2) read as a number that the platform reads as a string "
        "(`1e3`, `0o17`, `-.5`, `09`), where a string is expected: quote it.",
        where=("read/dialect.py",),
    ),
    Code(
        "HMT208",
        "warning",
        "yaml11-date",
        "An unquoted date the platform (YAML 1.1) reads as a date and editors as a string, where "
        "any value is accepted: quote it if it is text.",
        where=("read/dialect.py",),
    ),
    # About the report itself.
    Code(
        "HMT220",
        "warning",
        "diagnostics-capped",
        "More diagnostics than --max-diagnostics in one file: the rest are counted, not shown.",
        where=("contract/compiled.py", "text/report.py"),
    ),
    # Run-time lints: the file loads, but the platform will not run what it seems to say.
    Code(
        "HMT300",
        "warning",
        "metric-settings-leak",
        "A metric is defined at several levels with different settings: one evaluator per metric "
        "name serves the whole file, built from the last definition, so the others' settings "
        "apply nowhere (only `threshold` and `response_path` stay per level).",
        where=("rules/metric_settings_leak.py",),
    ),
    Code(
        "HMT301",
        "warning",
        "tolerance-dwarfs-ground-truth",
        "The `absolute_tolerance` of `numeric` is at least as large as a numeric ground truth it "
        "applies to: nearly any answer passes there.",
        where=("rules/tolerance_dwarfs_ground_truth.py",),
    ),
    Code(
        "HMT302",
        "warning",
        "enabled-false-ignored",
        "`enabled: false` on a metric that is not `type: code`: only code metrics can be "
        "switched off; this one still runs.",
        where=("rules/enabled_false_ignored.py",),
    ),
    Code(
        "HMT303",
        "warning",
        "empty-evaluations-fall-through",
        "`evaluations: []` on a test case or turn counts as absent: the next level's metrics run "
        "instead; an empty list cannot switch metrics off.",
        where=("rules/empty_evaluations.py",),
    ),
    Code(
        "HMT304",
        "warning",
        "ground-truth-metric-without-ground-truth",
        "A metric that needs a ground truth (equality, numeric, bleu, rouge, meteor, "
        "contextual_precision, contextual_recall) on a turn without `ground_truth`: skipped "
        "silently in a multi-turn test case, bound to fail in a single-turn one.",
        where=("rules/skipped_without_ground_truth.py",),
    ),
    Code(
        "HMT305",
        "warning",
        "regex-misses-float-form",
        "A regex matcher matches an integer's digits but not its float form (`^\\d+$`): a number "
        "argument may arrive as a float, and `str(206588.0)` is `206588.0`.",
        where=("rules/regex_float_form.py",),
    ),
    Code(
        "HMT306",
        "warning",
        "fuzzy-unnormalised-character",
        "A fuzzy pattern holds a currency sign or parentheses, which the fuzzy matcher does not "
        "normalise: it never matches the number it seems to say.",
        where=("rules/fuzzy_unnormalised.py",),
    ),
]

_CODES += [
    # Warnings: the platform loads it, but the contract writes it otherwise.
    Code(
        "HMT210",
        "warning",
        "number-as-written",
        'A number field holds a quoted number or a boolean (`absolute_tolerance: "0.5"`): the '
        "platform converts it; write the number unquoted.",
        where=("contract/platform_reading.py",),
    ),
    Code(
        "HMT211",
        "warning",
        "boolean-as-written",
        'A boolean field holds a string or number the platform converts (`"yes"`, `"1"`, '
        "`1`, `n`): write `true` or `false`.",
        where=("contract/platform_reading.py",),
    ),
    Code(
        "HMT212",
        "warning",
        "integer-as-written",
        "An integer field holds a quoted integer, a float without fraction or a boolean "
        "(`count: true`): the platform converts it; write the integer.",
        where=("contract/platform_reading.py",),
    ),
    Code(
        "HMT213",
        "warning",
        "unset-variable",
        "The text names `${NAME}` (comments included) and the variable is not set: the "
        "platform refuses to load the file unless it is set when it runs.",
        where=("read/env_vars.py",),
    ),
    Code(
        "HMT214",
        "warning",
        "no-test-cases",
        "A test-cases file holds no test cases (empty, comment-only, `{}`, `0`): the platform "
        "loads it and runs none.",
        where=("contract/platform_reading.py",),
    ),
    Code(
        "HMT215",
        "warning",
        "ignored-key",
        "A test-cases file holds another key beside `test_cases`: the platform ignores it.",
        where=("contract/platform_reading.py",),
    ),
]

CODES: dict[str, Code] = {c.code: c for c in _CODES}


def severity(code: str) -> Severity:
    return CODES[code].severity


def runtime_lint(code: str) -> bool:
    """Whether the code is a run-time lint (HMT300-HMT319): a valid file that will not run
    what it seems to say. Generated or hand-made documents may well trigger them."""
    return code.startswith("HMT3") and code[3:].isdigit() and 300 <= int(code[3:]) <= 319
