"""What the platform's load enforces, shown by the editor on the right line.

yaml-language-server reads YAML 1.2 unless ``yaml.yamlVersion`` says ``"1.1"``, which
the README and ``examples/vscode/settings.json`` recommend so that the editor reads
scalars as the platform does. These tests run the pinned server with that setting
(and, once, without it) and check where it flags the rules the platform's load
enforces: blank text, the test-case and file limits, the LLM model rules, the agent's
closed top level, and the YAML 1.1 reading of ``yes`` and ``1_000``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RunJson
from tests.docs_pages import page

from .test_language_server import (
    ROOT,
    SCHEMAS,
    Editor,
    Opened,
    _assert_problems,
    _require_server,
    bound_editor,
)

GLOBS = ["agent.yaml", "test-cases/*.yaml"]


def _settings(schema: Path, yaml_version: str | None) -> Any:
    def provide(section: str | None) -> Any:
        if section != "yaml":
            return None
        settings: dict[str, Any] = {
            "schemaStore": {"enable": False},
            "schemas": {schema.as_uri(): GLOBS},
            "validate": True,
            "completion": True,
            "hover": True,
            "format": {"enable": False},
        }
        if yaml_version is not None:
            settings["yamlVersion"] = yaml_version
        return settings

    return provide


def _start(schema: Path, folder: Path, yaml_version: str | None) -> Editor:
    return bound_editor(_settings(schema, yaml_version), folder, "settings", schema)


@pytest.fixture(
    scope="module",
    params=[pytest.param("bundle", id="bundle"), pytest.param("files", id="schema-files")],
)
def editor(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Editor]:
    """The server as the README sets it up: the schema bound by a glob, YAML 1.1."""
    _require_server()
    folder = tmp_path_factory.mktemp(f"editor-1.1-{request.param}")
    editor = _start(SCHEMAS[request.param], folder, "1.1")
    try:
        yield editor
    finally:
        editor.client.close()


@pytest.fixture(scope="module")
def editor_1_2(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Editor]:
    """The server with its default reading (YAML 1.2), for contrast."""
    _require_server()
    folder = tmp_path_factory.mktemp("editor-1.2")
    editor = _start(SCHEMAS["bundle"], folder, None)
    try:
        yield editor
    finally:
        editor.client.close()


_CACHE: dict[tuple[int, str], Opened] = {}


def _diagnose(editor: Editor, body: str) -> Opened:
    """``body`` opened with its diagnostics; every body of the module opens at once."""
    key = (id(editor), body)
    if key not in _CACHE:
        pending = {}
        for text in ALL:
            if (id(editor), text) not in _CACHE:
                pending[text] = editor.write(text)[0]
        for text, opened in pending.items():
            opened.diagnostics = editor.client.wait_for_diagnostics(opened.uri)
            _CACHE[(id(editor), text)] = opened
    return _CACHE[key]


# -- the documents -------------------------------------------------------------------------

SCALARS = (
    "test_cases:\n"
    "  - name: dialect\n"
    "    turns:\n"
    "      - input: is it profitable?\n"
    "        ground_truth: yes\n"
    "      - input: how many shares?\n"
    "        ground_truth: 1_000\n"
    "      - input: what is the ticker?\n"
    "        ground_truth: AAL\n"
    "        evaluations:\n"
    "          - type: standard\n"
    "            metric: equality\n"
    "            case_insensitive: yes\n"
)
#: Strings to PyYAML (no `.`, or no sign after the `e`), then a float to both readings.
EXPONENTS = (
    "test_cases:\n"
    "  - name: exponents\n"
    "    turns:\n"
    "      - input: how many?\n"
    "        ground_truth: 1e6\n"
    "      - input: in thousands?\n"
    "        ground_truth: 1.5e3\n"
    "      - input: exactly?\n"
    "        ground_truth: 1.0e+6\n"
)
BLANK = (
    "test_cases:\n"
    '  - name: "   "\n'
    "    turns:\n"
    '      - input: "   "\n'
    '        ground_truth: "  "\n'
    "        expected_tools:\n"
    '          - name: "  "\n'
    "        evaluations:\n"
    "          - type: geval\n"
    '            name: " "\n'
    '            criteria: "  "\n'
)
BLANK_SINGLE = 'test_cases:\n  - name: blank\n    input: "   "\n    ground_truth: "  "\n'
_FILE = "{path: a.pdf, type: pdf}"
FILES = (
    "test_cases:\n"
    "  - name: eleven-on-a-test-case\n"
    "    input: summarise these\n"
    f"    files: [{', '.join([_FILE] * 11)}]\n"
    "  - name: eleven-on-a-turn\n"
    "    turns:\n"
    "      - input: summarise these\n"
    f"        files: [{', '.join([_FILE] * 11)}]\n"
    "      - input: and these\n"
    f"        files: [{', '.join([_FILE] * 10)}]\n"
)
TEST_CASES_1001 = "test_cases:\n" + "".join(f"  - {{input: q{i}}}\n" for i in range(1001))
MODEL = (
    "evaluations:\n"
    "  model:\n"
    "    provider: anthropic\n"
    "    name: claude\n"
    "    temperature: 2.5\n"
    "    auth_provider: password\n"
    "  metrics:\n"
    "    - type: rag\n"
    "      metric_type: faithfulness\n"
    "      model:\n"
    "        provider: azure_openai\n"
    "        name: gpt-4o\n"
    "test_cases:\n"
    "  - input: hello\n"
)
TOP_LEVEL = "foo: 1\nname: agent\nevaluations:\n  metrics: []\ntest_cases:\n  - input: hello\n"
LOADS = (
    "name: agent\n"
    "evaluations:\n"
    "  model: {provider: azure_openai, name: gpt-4o, endpoint: 'https://x.azure.com/'}\n"
    "  metrics:\n"
    "    - type: standard\n"
    "      metric: equality\n"
    "      response_path: data.net-cash[0]\n"
    "  optimizer:\n"
    "    loss: {equality: 1.0}\n"
    "    axes:\n"
    "      numeric: [{path: model.temperature, type: float, range: [0.0, 2.0]}]\n"
    "test_cases:\n"
    "  - input: hello\n"
    "    ground_truth: hi\n"
)
ALL = [SCALARS, EXPONENTS, BLANK, BLANK_SINGLE, FILES, TEST_CASES_1001, MODEL, TOP_LEVEL, LOADS]


# -- YAML 1.1, as the platform reads -----------------------------------------------------------


def test_with_yaml_1_1_yes_and_1_000_are_flagged_and_a_yes_flag_is_not(editor: Editor) -> None:
    _assert_problems(
        _diagnose(editor, SCALARS),
        [("ground_truth: yes", "string"), ("ground_truth: 1_000", "string")],
    )


def test_with_the_default_yaml_1_2_the_editor_reads_otherwise(editor_1_2: Editor) -> None:
    """Without the setting, `case_insensitive: yes` is flagged and `ground_truth: yes` is not."""
    _assert_problems(_diagnose(editor_1_2, SCALARS), [("case_insensitive: yes", "boolean")])


def test_even_with_yaml_1_1_an_exponent_the_platform_reads_as_text_is_flagged(
    editor: Editor, tmp_path: Path, run_json: RunJson
) -> None:
    """What docs/editors.md says of `1e6`: the platform loads a string, the editor flags
    a number; holodeck-mt warns (HMT207) and only the float is an error."""
    _assert_problems(
        _diagnose(editor, EXPONENTS),
        [
            ("ground_truth: 1e6", "string"),
            ("ground_truth: 1.5e3", "string"),
            ("ground_truth: 1.0e+6", "string"),
        ],
    )
    file = tmp_path / "agent.yaml"
    file.write_text(EXPONENTS, encoding="utf-8")
    code, report = run_json(str(file))
    found = [(d["line"], d["code"]) for d in report["files"][0]["diagnostics"]]
    assert (code, found) == (1, [(5, "HMT207"), (7, "HMT207"), (9, "HMT102")])
    assert "`ground_truth: 1e6`, which the platform loads, is\nflagged" in page("docs/editors.md")


def test_the_recommended_settings_read_yaml_1_1() -> None:
    settings = json.loads((ROOT / "examples" / "vscode" / "settings.json").read_text())
    assert settings["yaml.yamlVersion"] == "1.1"
    editors = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    assert '"yaml.yamlVersion": "1.1"' in editors


# -- the platform's rules, on their lines --------------------------------------------------------


def test_blank_text_is_flagged_on_its_line(editor: Editor) -> None:
    whitespace = "whitespace"
    _assert_problems(
        _diagnose(editor, BLANK),
        [
            ('name: "   "', whitespace),
            ('input: "   "', whitespace),
            ('ground_truth: "  "', whitespace),
            ('- name: "  "', whitespace),
            ('name: " "', whitespace),
            ('criteria: "  "', whitespace),
        ],
    )


def test_blank_text_on_a_single_turn_test_case_is_flagged_on_its_line(editor: Editor) -> None:
    _assert_problems(
        _diagnose(editor, BLANK_SINGLE),
        [('input: "   "', "whitespace"), ('ground_truth: "  "', "whitespace")],
    )


def test_eleven_files_are_flagged_on_their_line_and_ten_are_not(editor: Editor) -> None:
    opened = _diagnose(editor, FILES)
    lines = [line for line, _ in opened.problems()]
    body = opened.body.split("\n")
    assert lines == [3, 7], opened.problems()
    assert all("files:" in body[n] for n in lines)
    assert all("10" in message for _, message in opened.problems()), opened.problems()


def test_1001_test_cases_are_flagged_on_the_list(editor: Editor) -> None:
    problems = _diagnose(editor, TEST_CASES_1001).problems()
    assert len(problems) == 1 and "1000" in problems[0][1], problems
    assert problems[0][0] in (0, 1), problems  # the key, or the list's first line


def test_the_model_rules_are_flagged_on_their_lines(editor: Editor) -> None:
    _assert_problems(
        _diagnose(editor, MODEL),
        [
            ("temperature: 2.5", "2"),
            ("auth_provider: password", "api_key"),
            ("      model:", "endpoint"),
        ],
    )


def test_an_unknown_top_level_key_and_empty_metrics_are_flagged(editor: Editor) -> None:
    _assert_problems(
        _diagnose(editor, TOP_LEVEL),
        [("foo: 1", "not allowed"), ("metrics: []", "1")],
    )


def test_what_the_platform_loads_is_not_flagged(editor: Editor) -> None:
    """An optimizer block, an azure model with its endpoint, response_path keys with '-'."""
    assert _diagnose(editor, LOADS).problems() == []
