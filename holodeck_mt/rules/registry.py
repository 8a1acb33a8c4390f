"""Every diagnostic code, in one list (the docs' order), each with its meaning: a rule's own
module describes it, other stages' codes are data here (a retired code stays listed)."""

from __future__ import annotations

from holodeck_mt.rules import (
    axis_range,
    comment_cuts_value,
    count_is_integer,
    duplicate_expected_tools,
    duplicate_names,
    empty_evaluations,
    enabled_false_ignored,
    files_exist,
    fuzzy_unnormalised,
    graders_import,
    ineffective_flags,
    literal_like_matcher,
    literal_reference,
    metric_settings_leak,
    non_finite_numbers,
    regex_compiles,
    regex_float_form,
    skipped_without_ground_truth,
    tolerance_dwarfs_ground_truth,
)
from holodeck_mt.rules.rule import Code, Rule
from holodeck_mt.selection import Options

__all__ = ["CODES", "REGISTRY", "RULES", "Code", "Rule", "rules_to_run"]


REGISTRY: list[Code] = [
    # Reading and parsing the file (read/).
    Code("HMT001", "yaml-syntax", "The file is not well-formed YAML.", yaml_server=True),
    Code("HMT002", "duplicate-key", "A mapping holds the same key twice.", yaml_server=True),
    Code(
        "HMT003",
        "unsupported-yaml",
        "YAML the platform cannot read as JSON-shaped data: a tag that constructs an "
        "object, an unknown tag, a non-string key, a merge key that merges no "
        "mapping, several documents.",
    ),
    Code(
        "HMT004",
        "limit-exceeded",
        "The file exceeds a safety limit (size, nesting depth, alias expansions).",
    ),
    Code(
        "HMT005",
        "encoding",
        "The file is not UTF-8 text (the platform reads only UTF-8; UTF-16 is refused).",
    ),
    Code(
        "HMT006",
        "document-shape",
        "The document is empty, or is not a mapping (agent.yaml) or a list of test cases.",
    ),
    Code(
        "HMT007",
        "unloadable-scalar",
        "A scalar the platform's YAML 1.1 loader cannot construct, failing the whole "
        "load: `=`, an impossible date (`2024-02-30`), `<<` as a value, `!!int abc`.",
    ),
    # The schema (contract/), and the rules a schema cannot state.
    Code("HMT100", "unknown-key", "A key that is not allowed where it stands.", yaml_server=True),
    Code("HMT101", "missing-key", "A required key is missing.", yaml_server=True),
    Code("HMT102", "wrong-type", "A value has the wrong type.", yaml_server=True),
    Code(
        "HMT103",
        "invalid-value",
        "A value is out of its allowed set or range (enum, bounds, length, pattern).",
        yaml_server=True,
    ),
    regex_compiles.RULE,
    Code(
        "HMT105",
        "test-case-shape",
        "A test case mixes single-turn and multi-turn fields, has empty `turns`, or "
        "has neither `input` nor `turns` (contract section 2).",
        yaml_server=True,
    ),
    Code(
        "HMT106",
        "matcher-shape",
        "An argument matcher holds both `fuzzy` and `regex`, or a matcher key beside another key.",
        yaml_server=True,
    ),
    Code(
        "HMT107",
        "file-source",
        "A file input sets both or neither of `path` and `url`.",
        yaml_server=True,
    ),
    Code(
        "HMT108",
        "metric-kind",
        "A metric's kind cannot be told: `type` is missing at the agent level, or no "
        "kind's fields match.",
        yaml_server=True,
    ),
    non_finite_numbers.RULE,
    # References to other files and code.
    Code(
        "HMT110",
        "test-cases-file",
        "`test_cases_file` is set beside `test_cases`, or names a file that cannot be read.",
    ),
    graders_import.RULE,
    files_exist.RULE,
    Code(
        "HMT120",
        "path-outside-tree",
        "A `test_cases_file`, `files[*].path` (with --check-files), a subagent's "
        "`prompt_file` (which the platform's model reads), or a file given or found (an "
        "agent.yaml that is a link) leaves the repository tree or names /proc, /sys or "
        "/dev; it is never read.",
    ),
    Code(
        "HMT130",
        "platform-model",
        "A section the platform owns (`model`, `instructions`, `tools`, `execution`, "
        "`observability`, `response_format`, `claude`, ...) fails the platform's own model: "
        "checked when the platform (holodeck-ai) is importable, with the platform's message.",
    ),
    count_is_integer.RULE,
    Code(
        "HMT114",
        "blank-text",
        "Text that is only whitespace where the platform refuses it like empty text: "
        "a test case's name, an input, a ground truth, an expected tool's name, a "
        "G-Eval metric's name or criteria, a custom prompt, a model's name, an "
        "azure_openai endpoint.",
    ),
    axis_range.RULE,
    literal_reference.RULE,
    # Warnings: valid for the platform, but almost certainly not what the author meant.
    ineffective_flags.RULE,
    duplicate_names.RULE,
    Code(
        "HMT202",
        "unknown-top-level-key",
        "An agent.yaml key the platform does not define.",
        retired=(
            "the platform refuses an unknown top-level key, so it is now an HMT100 error "
            "from the schema"
        ),
    ),
    duplicate_expected_tools.RULE,
    literal_like_matcher.RULE,
    comment_cuts_value.RULE,
    # YAML 1.1 (the platform) and YAML 1.2 (editors) read these plain scalars differently.
    Code(
        "HMT205",
        "yaml11-boolean",
        "`yes`/`no`/`on`/`off` (any case): a boolean to the platform (YAML 1.1), a "
        "string to editors (YAML 1.2), where a boolean is expected: write `true` or "
        "`false`.",
    ),
    Code(
        "HMT206",
        "yaml11-number",
        "A number only YAML 1.1 reads so (`1_000`, `0b101`, `017` as octal 15, `1:30`"
        " as 90): editors read a string or another number; write the number the "
        "platform reads.",
    ),
    Code(
        "HMT207",
        "yaml12-number",
        "A scalar editors (YAML 1.2) read as a number that the platform reads as a "
        "string (`1e3`, `0o17`, `-.5`, `09`), where a string is expected: quote it.",
    ),
    Code(
        "HMT208",
        "yaml11-date",
        "An unquoted date the platform (YAML 1.1) reads as a date and editors as a "
        "string, where any value is accepted: quote it if it is text.",
    ),
    Code(
        "HMT216",
        "non-string-key",
        "A key that is not a string (`on`, `yes`, `1`) nested in a free-form value "
        "(`turn_config`, `response_format`, a tool's `parameters`) below the keys the "
        "platform checks: it loads, but nothing finds the key by the name written.",
    ),
    # About the report itself.
    Code(
        "HMT220",
        "diagnostics-capped",
        "More diagnostics than --max-diagnostics in one file: the rest are counted, not shown.",
        example_options=("--max-diagnostics", "2"),
    ),
    Code(
        "HMT221",
        "unused-suppression",
        "A `# holodeck-mt: ignore[...]` or `ignore-file[...]` comment that silences "
        "nothing, or names a code that does not exist (with --report-unused-ignores).",
        example_options=("--report-unused-ignores",),
    ),
    # Run-time lints: the file loads, but the platform will not run what it seems to say.
    metric_settings_leak.RULE,
    tolerance_dwarfs_ground_truth.RULE,
    enabled_false_ignored.RULE,
    empty_evaluations.RULE,
    skipped_without_ground_truth.RULE,
    regex_float_form.RULE,
    fuzzy_unnormalised.RULE,
    # Warnings: the platform loads it, but the contract writes it otherwise.
    Code(
        "HMT210",
        "number-as-written",
        "A number field holds a quoted number or a boolean (`absolute_tolerance: "
        '"0.5"`): the platform converts it; write the number unquoted.',
    ),
    Code(
        "HMT211",
        "boolean-as-written",
        'A boolean field holds a string or number the platform converts (`"yes"`, '
        '`"1"`, `1`, `n`): write `true` or `false`.',
    ),
    Code(
        "HMT212",
        "integer-as-written",
        "An integer field holds a quoted integer, a float without fraction or a "
        "boolean (`count: true`): the platform converts it; write the integer.",
    ),
    Code(
        "HMT213",
        "unset-variable",
        "The text names `${NAME}` (comments included) and the variable is not set: "
        "the platform refuses to load the file unless it is set when it runs; in the path "
        "of `test_cases_file`, the test-cases file is not validated, and it says so. A `.env` "
        "refused (a link out of the tree, a FIFO, too large) is one more, saying why.",
    ),
    Code(
        "HMT214",
        "no-test-cases",
        "A test-cases file holds no test cases (empty, comment-only, `{}`, `0`): the "
        "platform loads it and runs none.",
    ),
    Code(
        "HMT215",
        "ignored-key",
        "A test-cases file holds another key beside `test_cases`: the platform ignores it.",
    ),
]

CODES: dict[str, Code] = {entry.code: entry for entry in REGISTRY}
RULES: list[Rule] = [entry for entry in REGISTRY if isinstance(entry, Rule)]


def title(code: str) -> str:
    """``HMT102 wrong-type``: a code and its rule's name, as a report heads a diagnostic."""
    entry = CODES.get(code)
    return f"{code} {entry.name}" if entry else code


def rules_to_run(options: Options) -> list[Rule]:
    """The rules whose check runs under ``options``, in the registry's order: an opt-in rule
    when its option is on, and a rule only when one of its codes is selected."""
    return [
        rule
        for rule in RULES
        if (rule.runs != "opt-in" or getattr(options, rule.option))
        and any(map(options.selection.selects, rule.codes))
    ]
