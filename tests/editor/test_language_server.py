"""The schema in a real editor back end: yaml-language-server, driven over LSP.

Each test opens real files (file:// URIs) in the pinned server and checks what an author sees
while typing: completions, hovers and diagnostics. Every test runs four times, once per way a
user binds the schema (the ``yaml.schemas`` setting with a glob, or a
``# yaml-language-server: $schema=...`` modeline) and per schema file (the schema files as
the site serves them, expanded and joined by relative ``$ref``s, or the single-file bundle).
The server's schema store is off: nothing is fetched.

Diagnostic messages are the server's own wording, so they are matched loosely; their lines
are matched exactly.
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scripts import bundle_schema
from tests.conftest import unavailable

from .lsp_client import LspClient, LspError

ROOT = Path(__file__).resolve().parent.parent.parent
SERVER = ROOT / "editor" / "node_modules" / ".bin" / "yaml-language-server"


def _served_schema_files() -> Path:
    """The per-concept schema files as the site serves them (expanded, as the validator reads
    them), written once for this run into a folder removed at exit."""
    folder = Path(tempfile.mkdtemp(prefix="holodeck-mt-schema-files-"))
    atexit.register(shutil.rmtree, folder, True)
    for name, text in bundle_schema.expanded_files().items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


SCHEMAS = {
    "files": _served_schema_files() / "document.schema.json",
    "bundle": ROOT / "schema" / "bundle" / "holodeck-mt.schema.json",
}
#: Globs of the ``yaml.schemas`` setting, as a user would write them.
GLOBS = ["agent.yaml", "test-cases/*.yaml"]
CURSOR = "<|>"


def _server_missing() -> str | None:
    if shutil.which("node") is None:
        return "Node.js is not installed (node is not on the PATH)"
    if not SERVER.exists():
        return f"{SERVER.relative_to(ROOT)} is missing"
    return None


def _require_server() -> None:
    """Skip loudly without the server; in CI (CI is set) fail instead."""
    missing = _server_missing()
    if missing is None:
        return
    unavailable(
        f"EDITOR TESTS NOT RUN: {missing}. Install Node.js (>= 20) and run `make test`, "
        "which installs the pinned yaml-language-server into editor/node_modules."
    )


# -- the editor ------------------------------------------------------------------------------


@dataclass
class Opened:
    """A document open in the server, with its first diagnostics in the author's lines."""

    uri: str
    body: str
    offset: int  # lines added above the body (the modeline)
    diagnostics: list[dict[str, Any]]

    def problems(self) -> list[tuple[int, str]]:
        """(0-based line in the body, message) of each diagnostic, sorted."""
        return sorted(
            (d["range"]["start"]["line"] - self.offset, d["message"]) for d in self.diagnostics
        )


@dataclass
class Editor:
    """One running server with one way of binding the schema."""

    client: LspClient
    folder: Path
    binding: str  # "settings" or "modeline"
    schema: Path
    _count: Iterator[int] = field(default_factory=itertools.count)
    _diagnosed: dict[str, Opened] = field(default_factory=dict)

    def write(self, body: str, *, name: str = "agent.yaml") -> tuple[Opened, tuple[int, int]]:
        """Write ``body`` (``<|>`` marks the cursor) to a fresh file and open it.

        Returns the document (no diagnostics yet) and the cursor's position in the file.
        """
        cursor = (0, 0)
        lines = body.split("\n")
        for number, line in enumerate(lines):
            if CURSOR in line:
                cursor = (number, line.index(CURSOR))
                lines[number] = line.replace(CURSOR, "")
        body = "\n".join(lines)
        offset = 0
        text = body
        if self.binding == "modeline":
            text = f"# yaml-language-server: $schema={self.schema.as_uri()}\n{body}"
            offset = 1
        path = self.folder / str(next(self._count)) / name
        path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
        uri = self._open(path, text)
        return Opened(uri, body, offset, []), (cursor[0] + offset, cursor[1])

    def _open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        document = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
        self.client.notify("textDocument/didOpen", {"textDocument": document})
        return uri

    def diagnose(self, body: str) -> Opened:
        """``body`` opened with its diagnostics.

        The server validates a document 200 ms after it opens; so the first call opens every
        document of :data:`DIAGNOSED` at once and later calls find theirs ready.
        """
        if not self._diagnosed:
            pending = {key: self.write(key)[0] for key in DIAGNOSED}
            for key, opened in pending.items():
                opened.diagnostics = self.client.wait_for_diagnostics(opened.uri)
                self._diagnosed[key] = opened
        if body not in self._diagnosed:
            opened, _ = self.write(body)
            opened.diagnostics = self.client.wait_for_diagnostics(opened.uri)
            self._diagnosed[body] = opened
        return self._diagnosed[body]

    def diagnose_files(self, paths: list[Path]) -> dict[Path, Opened]:
        """Files opened as they are on disk, with their diagnostics."""
        texts = {path: path.read_text(encoding="utf-8") for path in paths}
        uris = {path: self._open(path, text) for path, text in texts.items()}
        return {
            path: Opened(uri, texts[path], 0, self.client.wait_for_diagnostics(uri))
            for path, uri in uris.items()
        }

    def complete(self, body: str, *, name: str = "agent.yaml") -> list[dict[str, Any]]:
        opened, (line, character) = self.write(body, name=name)
        result = self.client.request(
            "textDocument/completion",
            {
                "textDocument": {"uri": opened.uri},
                "position": {"line": line, "character": character},
            },
        )
        items: list[dict[str, Any]] = result["items"] if isinstance(result, dict) else result or []
        return items

    def hover(self, body: str) -> str:
        opened, (line, character) = self.write(body)
        result = self.client.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": opened.uri},
                "position": {"line": line, "character": character},
            },
        )
        assert result is not None, "no hover at all"
        contents = result["contents"]
        text: str = contents["value"] if isinstance(contents, dict) else str(contents)
        return text


def _settings(binding: str, schema: Path) -> Any:
    def provide(section: str | None) -> Any:
        if section != "yaml":
            return None
        return {
            "schemaStore": {"enable": False},
            "schemas": {schema.as_uri(): GLOBS} if binding == "settings" else {},
            "validate": True,
            "completion": True,
            "hover": True,
            "format": {"enable": False},
        }

    return provide


def open_server(settings: Any, folder: Path) -> LspClient:
    """yaml-language-server on ``folder``, initialised as an editor would: ``settings``
    answers its ``workspace/configuration`` requests."""
    client = LspClient([str(SERVER), "--stdio"], settings, cwd=folder)
    try:
        client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": folder.as_uri(),
                "workspaceFolders": [{"uri": folder.as_uri(), "name": folder.name}],
                "capabilities": {
                    "workspace": {"configuration": True, "workspaceFolders": True},
                    "textDocument": {
                        "completion": {
                            "completionItem": {
                                "snippetSupport": True,
                                "documentationFormat": ["markdown", "plaintext"],
                            }
                        },
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                        "publishDiagnostics": {},
                    },
                },
            },
        )
        client.notify("initialized", {})
        client.notify("workspace/didChangeConfiguration", {"settings": None})
    except BaseException:
        client.close()
        raise
    return client


def bound_editor(settings: Any, folder: Path, binding: str, schema: Path) -> Editor:
    """An editor on ``folder`` whose server has pulled ``settings`` and binds the schema."""
    client = open_server(settings, folder)
    try:
        editor = Editor(client, folder, binding, schema)
        _wait_until_bound(editor)
    except BaseException:
        client.close()
        raise
    return editor


def _start(binding: str, schema: Path, folder: Path) -> Editor:
    return bound_editor(_settings(binding, schema), folder, binding, schema)


def _wait_until_bound(editor: Editor) -> None:
    """Open a faulty probe until the server flags it: the settings have been pulled."""
    opened, _ = editor.write("test_cases:\n  - name: probe\n")
    diagnostics = editor.client.wait_for_diagnostics(opened.uri)
    seen = 1
    while not diagnostics:  # validated before the settings arrived: wait for the revalidation
        diagnostics = editor.client.wait_for_diagnostics(opened.uri, after=seen)
        seen += 1
    assert any("Missing property" in d["message"] for d in diagnostics), diagnostics


BINDINGS = [
    pytest.param(("settings", "files"), id="setting-glob-schema-files"),
    pytest.param(("modeline", "files"), id="modeline-schema-files"),
    pytest.param(("settings", "bundle"), id="setting-glob-bundle"),
    pytest.param(("modeline", "bundle"), id="modeline-bundle"),
]


def running_editor(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, name: str
) -> Iterator[Editor]:
    """The language server bound as ``request.param`` (one of BINDINGS) says, closed after."""
    _require_server()
    binding, schema_name = request.param
    folder = tmp_path_factory.mktemp(f"{name}-{binding}-{schema_name}")
    editor = _start(binding, SCHEMAS[schema_name], folder)
    try:
        yield editor
    finally:
        editor.client.close()


@pytest.fixture(scope="module", params=BINDINGS)
def editor(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Editor]:
    yield from running_editor(request, tmp_path_factory, "editor")


# -- helpers -----------------------------------------------------------------------------------


def _labels(items: list[dict[str, Any]]) -> set[str]:
    return {item["label"] for item in items}


def _line_of(body: str, needle: str) -> int:
    """The 0-based line of the body that holds ``needle`` (exactly one does)."""
    lines = [n for n, line in enumerate(body.split("\n")) if needle in line]
    assert len(lines) == 1, f"{needle!r} is on lines {lines}"
    return lines[0]


def _assert_problems(opened: Opened, expected: list[tuple[str, str]]) -> None:
    """The diagnostics are exactly one per (line holding needle, message pattern)."""
    wanted = sorted((_line_of(opened.body, needle), pattern) for needle, pattern in expected)
    got = opened.problems()
    assert len(got) == len(wanted), got
    for (line, message), (want_line, pattern) in zip(got, wanted, strict=True):
        assert line == want_line, got
        assert re.search(pattern, message, re.IGNORECASE), got


def _schema_words(definition: str, prop: str) -> str:
    """The opening words of what our schema says about ``prop`` (what a hover must show)."""
    bundle = json.loads(SCHEMAS["bundle"].read_text(encoding="utf-8"))
    schema = bundle["$defs"][definition]["properties"][prop]
    text: str = schema.get("markdownDescription") or schema["description"]
    return _plain(text.split("\n")[0])[:48]


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\\", ""))


# -- completion --------------------------------------------------------------------------------


def test_a_test_case_completes_the_keys_of_both_shapes(editor: Editor) -> None:
    items = editor.complete('test_cases:\n  - name: "convfinqa-0"\n    <|>\n')
    assert {
        "turns",
        "input",
        "ground_truth",
        "expected_tools",
        "files",
        "retrieval_context",
        "evaluations",
    } <= _labels(items)


def test_a_test_cases_file_completes_the_keys_of_a_test_case(editor: Editor) -> None:
    items = editor.complete('- name: "convfinqa-0"\n  <|>\n', name="test-cases/convfinqa.yaml")
    assert {"turns", "input", "ground_truth", "expected_tools", "evaluations"} <= _labels(items)


def test_a_turn_completes_the_turn_keys(editor: Editor) -> None:
    items = editor.complete('test_cases:\n  - turns:\n      - input: "hi"\n        <|>\n')
    labels = _labels(items)
    assert {
        "ground_truth",
        "expected_tools",
        "files",
        "retrieval_context",
        "evaluations",
        "turn_config",
    } <= labels
    assert "turns" not in labels


def test_a_new_expected_tool_completes_name_args_and_count(editor: Editor) -> None:
    items = editor.complete(
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n          - <|>\n"
    )
    assert {"name", "args", "count"} <= _labels(items)


def test_an_expected_tool_with_a_name_completes_args_and_count(editor: Editor) -> None:
    items = editor.complete(
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n"
        "          - name: subtract\n            <|>\n"
    )
    labels = _labels(items)
    assert {"args", "count"} <= labels
    assert "name" not in labels


@pytest.mark.parametrize(
    "value",
    [pytest.param(" <|>", id="after-the-colon"), pytest.param("\n                <|>", id="below")],
)
def test_an_args_value_completes_the_fuzzy_and_regex_matchers(editor: Editor, value: str) -> None:
    items = editor.complete(
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n"
        f"          - name: subtract\n            args:\n              a:{value}\n"
    )
    inserted = " ".join(item.get("insertText", item["label"]) for item in items)
    assert "fuzzy" in inserted, items
    assert "regex" in inserted, items


@pytest.mark.parametrize(
    ("held", "other"),
    [
        pytest.param('fuzzy: "181001"\n                <|>', "regex", id="block-fuzzy"),
        pytest.param("regex: '^181001$'\n                <|>", "fuzzy", id="block-regex"),
        pytest.param('{ fuzzy: "181001", <|> }', "regex", id="flow-fuzzy"),
    ],
)
def test_a_matcher_is_not_offered_the_other_matcher(editor: Editor, held: str, other: str) -> None:
    """Accepting it would make a matcher holding both (HMT106)."""
    below = "\n                " if not held.startswith("{") else " "
    items = editor.complete(
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n"
        f"          - name: subtract\n            args:\n              b:{below}{held}\n"
    )
    inserted = " ".join(item.get("insertText", item["label"]) for item in items)
    assert other not in inserted, items


def test_a_metric_type_completes_the_four_kinds(editor: Editor) -> None:
    items = editor.complete(
        "test_cases:\n  - turns:\n      - input: hi\n        evaluations:\n          - type: <|>\n"
    )
    assert {"standard", "geval", "rag", "code"} <= _labels(items)


def test_a_standard_metric_completes_the_metric_names(editor: Editor) -> None:
    items = editor.complete(
        "test_cases:\n  - turns:\n      - input: hi\n        evaluations:\n"
        "          - type: standard\n            metric: <|>\n"
    )
    assert {
        "groundedness",
        "relevance",
        "coherence",
        "fluency",
        "bleu",
        "rouge",
        "meteor",
        "equality",
        "numeric",
    } <= _labels(items)


# -- hover -------------------------------------------------------------------------------------


def test_hovering_turns_shows_our_description(editor: Editor) -> None:
    text = editor.hover('test_cases:\n  - name: x\n    tu<|>rns:\n      - input: "hi"\n')
    assert _schema_words("MultiTurnTestCase", "turns") in _plain(text)


def test_hovering_fuzzy_shows_our_description(editor: Editor) -> None:
    text = editor.hover(
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n"
        '          - name: subtract\n            args:\n              b: { fu<|>zzy: "181001" }\n'
    )
    assert _schema_words("FuzzyMatcher", "fuzzy") in _plain(text)


def test_hovering_absolute_tolerance_shows_our_description(editor: Editor) -> None:
    text = editor.hover(
        "test_cases:\n  - turns:\n      - input: hi\n        evaluations:\n"
        "          - type: standard\n            metric: numeric\n"
        "            absolute_to<|>lerance: 0.5\n"
    )
    assert _schema_words("StandardMetric", "absolute_tolerance") in _plain(text)


# -- diagnostics: contract section 2 (mutual exclusion), matchers and metrics ----------------

INPUT_AND_TURNS = (
    'test_cases:\n  - name: "both"\n    input: "hello"\n    turns:\n      - input: "hi"\n'
)
GROUND_TRUTH_AND_TURNS = (
    'test_cases:\n  - name: "gt"\n    ground_truth: "x"\n    turns:\n      - input: "hi"\n'
)
NEITHER = 'test_cases:\n  - name: "neither"\n    evaluations: []\n'
EMPTY_TURNS = 'test_cases:\n  - name: "empty"\n    turns: []\n'
FILES_AND_TURNS = (
    'test_cases:\n  - name: "files"\n    files:\n      - path: "./data/chart.png"\n'
    '        type: image\n    turns:\n      - input: "hi"\n'
)
RETRIEVAL_CONTEXT_AND_TURNS = (
    'test_cases:\n  - name: "rc"\n    retrieval_context: ["passage"]\n'
    '    turns:\n      - input: "hi"\n'
)
FILES_AND_TURNS_WITH_A_TURN_TYPO = (
    'test_cases:\n  - name: "files"\n    files:\n      - path: "./data/chart.png"\n'
    '        type: image\n    turns:\n      - input: "hi"\n        ground_truht: "x"\n'
    '      - input: "ho"\n'
)
FUZZY_AND_REGEX = (
    "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n"
    "          - name: subtract\n            args:\n"
    '              a: { fuzzy: "206588", regex: "^206588$" }\n'
)
NEGATIVE_TOLERANCE = (
    "test_cases:\n  - turns:\n      - input: hi\n        evaluations:\n"
    "          - type: standard\n            metric: numeric\n"
    "            absolute_tolerance: -0.5\n"
)


def _misplaced(key: str) -> str:
    """The server's words for a single-turn key on a multi-turn test case.

    Ours (the schema's ``patternErrorMessage``), or the server's own for an extra property.
    """
    return rf"not allowed on a multi-turn test case|property {key} is not allowed"


def test_input_beside_turns_is_flagged_on_the_input_line(editor: Editor) -> None:
    opened = editor.diagnose(INPUT_AND_TURNS)
    _assert_problems(opened, [('input: "hello"', _misplaced("input"))])


def test_ground_truth_beside_turns_is_flagged_on_the_ground_truth_line(editor: Editor) -> None:
    opened = editor.diagnose(GROUND_TRUTH_AND_TURNS)
    _assert_problems(opened, [("ground_truth:", _misplaced("ground_truth"))])


def test_a_test_case_without_input_nor_turns_is_flagged_on_its_first_line(editor: Editor) -> None:
    opened = editor.diagnose(NEITHER)
    _assert_problems(opened, [("- name:", r"missing property")])


def test_empty_turns_are_flagged_on_the_turns_line(editor: Editor) -> None:
    opened = editor.diagnose(EMPTY_TURNS)
    _assert_problems(opened, [("turns: []", r"too few items")])


def test_files_beside_turns_are_flagged_on_the_files_line(editor: Editor) -> None:
    opened = editor.diagnose(FILES_AND_TURNS)
    _assert_problems(opened, [("files:", _misplaced("files"))])


def test_retrieval_context_beside_turns_is_flagged_on_its_line(editor: Editor) -> None:
    opened = editor.diagnose(RETRIEVAL_CONTEXT_AND_TURNS)
    _assert_problems(opened, [("retrieval_context:", _misplaced("retrieval_context"))])


def test_files_beside_turns_and_a_faulty_turn_are_both_flagged_on_their_lines(
    editor: Editor,
) -> None:
    opened = editor.diagnose(FILES_AND_TURNS_WITH_A_TURN_TYPO)
    _assert_problems(
        opened,
        [
            ("files:", _misplaced("files")),
            ("ground_truht", r"property ground_truht is not allowed"),
        ],
    )


def test_fuzzy_and_regex_together_are_flagged_on_the_argument_line(editor: Editor) -> None:
    opened = editor.diagnose(FUZZY_AND_REGEX)
    _assert_problems(opened, [("a: { fuzzy", r"property (fuzzy|regex) is not allowed")])


def test_a_negative_tolerance_is_flagged_on_its_line(editor: Editor) -> None:
    opened = editor.diagnose(NEGATIVE_TOLERANCE)
    _assert_problems(opened, [("absolute_tolerance", r"below the minimum of 0")])


# -- no diagnostics on the contract's examples -------------------------------------------------

CONTRACT_EXAMPLES = {
    "1-grammar": """\
test_cases:
  # (A) Legacy single-turn (unchanged)
  - name: "greeting"
    input: "hello"
    ground_truth: "hi there"
    expected_tools: ["greet"]

  # (B) Multi-turn — turn-level assertions only
  - name: "convfinqa-0"
    turns:
      - input: "what is the net cash from operating activities in 2009?"
        ground_truth: "206588"
      - input: "what about in 2008?"
        ground_truth: "181001"
      - input: "what is the difference?"
        ground_truth: "25587"
        expected_tools: ["subtract"]
      - input: "what percentage change does this represent?"
        ground_truth: "14.1%"
        expected_tools: ["divide"]

  # (C) Multi-turn — object-form expected_tools with arg matchers
  - name: "convfinqa-0-strict"
    turns:
      - input: "what is the net cash from operating activities in 2009?"
        ground_truth: "206588"
      - input: "what is the difference between 2009 and 2008?"
        expected_tools:
          - name: "subtract"
            args:
              a: 206588                         # literal (int ↔ float equivalence)
              b: { fuzzy: "181001" }             # fuzzy (thousands separators ok)
        ground_truth: "25587"
        evaluations:
          - type: standard
            metric: numeric
            absolute_tolerance: 0.5
""",
    "3-expected-tools": """\
test_cases:
  - input: "what is the difference?"
    expected_tools:
      - "lookup"                                 # name-only
      - name: "subtract"                          # object form
        args: { a: 206588, b: 181001 }
      - name: "divide"
        count: 1
""",
    "5-evaluators": """\
test_cases:
  - name: "evaluators"
    turns:
      - input: "what is the difference?"
        ground_truth: "25587"
        evaluations:
          # Built-in deterministic (no LLM)
          - type: standard
            metric: equality
            case_insensitive: true
            strip_whitespace: true

          - type: standard
            metric: numeric
            absolute_tolerance: 0.01
            accept_percent: true
            accept_thousands_separators: true

          # User-supplied Python grader (escape hatch — spec §Complexity Tracking)
          - type: code
            grader: "my_benchmarks.convfinqa:program_equivalence"
""",
    "6-files-per-turn": """\
test_cases:
  - name: "files"
    turns:
      - input: "summarize the attached image"
        files:
          - path: "./data/chart.png"
            type: image
""",
    "8.1-minimal-multi-turn": """\
test_cases:
  - name: "chit-chat"
    turns:
      - input: "hi"
      - input: "who are you?"
      - input: "tell me a joke"
""",
    "8.2-ground-truth-and-tools": """\
test_cases:
  - name: "convfinqa-0"
    turns:
      - input: "what is the net cash from operating activities in 2009?"
        ground_truth: "206588"
      - input: "what is the difference from 2008's 181001?"
        ground_truth: "25587"
        expected_tools: ["subtract"]
""",
    "8.3-fuzzy-and-regex": """\
test_cases:
  - name: "convfinqa-0-argcheck"
    turns:
      - input: "subtract 206588 from 181001"
        expected_tools:
          - name: "subtract"
            args:
              a: { fuzzy: "206588" }
              b: { regex: "^181001(\\\\.0+)?$" }
""",
    "8.4-numeric-and-code": """\
test_cases:
  - name: "convfinqa-0-code-grader"
    turns:
      - input: "what percentage change does this represent?"
        ground_truth: "0.14136"
        evaluations:
          - type: standard
            metric: numeric
            absolute_tolerance: 0.001
          - type: code
            grader: "my_benchmarks.convfinqa:program_equivalence"
""",
}


VALID = 'test_cases:\n  - input: "hi"\n'

#: Every document a diagnostics test opens; :meth:`Editor.diagnose` opens them all at once.
DIAGNOSED = [
    INPUT_AND_TURNS,
    GROUND_TRUTH_AND_TURNS,
    NEITHER,
    EMPTY_TURNS,
    FILES_AND_TURNS,
    RETRIEVAL_CONTEXT_AND_TURNS,
    FILES_AND_TURNS_WITH_A_TURN_TYPO,
    FUZZY_AND_REGEX,
    NEGATIVE_TOLERANCE,
    VALID,
    *CONTRACT_EXAMPLES.values(),
]


@pytest.mark.parametrize("section", sorted(CONTRACT_EXAMPLES))
def test_a_contract_example_has_no_diagnostic(editor: Editor, section: str) -> None:
    assert editor.diagnose(CONTRACT_EXAMPLES[section]).problems() == []


def test_the_committed_examples_bind_by_their_own_modeline_and_have_no_diagnostic(
    editor: Editor,
) -> None:
    examples = sorted((ROOT / "examples").rglob("*.yaml"))
    if not examples:
        pytest.skip("no examples/ yet")
    opened = editor.diagnose_files(examples)
    problems = {str(path.relative_to(ROOT)): o.problems() for path, o in opened.items()}
    assert {path: found for path, found in problems.items() if found} == {}


def test_a_valid_document_has_no_diagnostic_and_nothing_was_fetched(editor: Editor) -> None:
    # An unreachable $ref would show as "Problems loading reference" on the document.
    assert editor.diagnose(VALID).problems() == []
    messages = [m.get("message", "") for m in editor.client.notifications("window/showMessage")]
    assert not [m for m in messages if "http" in m.lower()], messages


def test_a_broken_server_fails_instead_of_hanging() -> None:
    _require_server()
    client = LspClient(["node", "-e", "process.stdin.resume()"], lambda section: None, timeout=0.5)
    try:
        with pytest.raises(LspError, match="no answer"):
            client.request("initialize", {})
    finally:
        client.close()
