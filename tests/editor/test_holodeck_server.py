"""``holodeck-mt lsp`` driven over stdio by a real LSP client (tests/editor/lsp_client.py).

What an author sees while typing: on open, edit and save the server publishes the CLI's own
diagnostics for the same text (code, range, message); each quick fix, carried out by the
server through ``workspace/applyEdit``, leaves a document without that diagnostic. Ranges are
compared in the client's units, computed here from the CLI's 1-based character columns.
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.lsp.sharing import SHOWN_BY_YAML_SERVER
from holodeck_mt.urls import REPOSITORY

from .lsp_client import LspClient

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

FAULTS = """\
# Every fixable code, and some the schema cannot say.
name: agent
evaluation:   # did you mean 'evaluations'?
  metrics: []
test_cases:
  - name: café-0
    turns:
      - input: "naïve 😀 question"
        ground_truth: 206588.10
      - input: 'again'
        ground_truht: "181001"
        expected_tools:
          - subtract
          - subtract
          - name: lookup
            args:
              year: {regexp: "^2009$"}
              b: {regex: "(2009"}
  - name: numeric
    input: "q"
    evaluations:
      - type: standard
        metric: equality
        absolute_tolerance: 0.5
        threshold: "0.5"
      - {type: standard, metric: equalty}
"""


class Editor:
    """The client side: open documents' texts, kept in step with the edits it sends."""

    def __init__(self, folder: Path, options: dict[str, Any], encodings: list[str]) -> None:
        self.folder = folder
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.applied: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._names = itertools.count()
        self.client = LspClient(
            [sys.executable, "-m", "holodeck_mt", "lsp"],
            settings=lambda section: None,
            apply_edit=self._record,
        )
        capabilities = {
            "general": {"positionEncodings": encodings},
            "workspace": {"applyEdit": True, "workspaceEdit": {"documentChanges": True}},
            "textDocument": {"publishDiagnostics": {"versionSupport": True}},
        }
        self.initialized = self.client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": folder.as_uri(),
                "capabilities": capabilities,
                "initializationOptions": options,
            },
        )
        self.client.notify("initialized", {})

    def _record(self, edit: dict[str, Any]) -> bool:
        with self._lock:
            self.applied.append(edit)
        return True

    def open(self, text: str, name: str = "agent.yaml") -> tuple[str, list[dict[str, Any]]]:
        path = self.folder / str(next(self._names)) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        self.texts[uri], self.versions[uri] = text, 1
        before = self.client.diagnostics_count(uri)
        document = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
        self.client.notify("textDocument/didOpen", {"textDocument": document})
        return uri, self.client.wait_for_diagnostics(uri, after=before)

    def change(self, uri: str, edits: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send incremental edits (ranges in the negotiated units); the next diagnostics."""
        for edit in edits:
            self.texts[uri] = apply(self.texts[uri], edit, self.encoding)
        self.versions[uri] += 1
        before = self.client.diagnostics_count(uri)
        self.client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": self.versions[uri]},
                "contentChanges": [{"range": e["range"], "text": e["newText"]} for e in edits],
            },
        )
        return self.client.wait_for_diagnostics(uri, after=before)

    def save(self, uri: str) -> list[dict[str, Any]]:
        Path(uri.removeprefix("file://")).write_text(self.texts[uri], encoding="utf-8")
        before = self.client.diagnostics_count(uri)
        self.client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        return self.client.wait_for_diagnostics(uri, after=before)

    @property
    def encoding(self) -> str:
        return str(self.initialized["capabilities"].get("positionEncoding", "utf-16"))


def apply(text: str, edit: dict[str, Any], encoding: str) -> str:
    """``text`` with one LSP TextEdit applied (positions in ``encoding`` units)."""
    lines = text.splitlines(keepends=True) or [""]

    def offset(position: dict[str, int]) -> int:
        line = lines[position["line"]] if position["line"] < len(lines) else ""
        before = sum(len(x) for x in lines[: position["line"]])
        count, chars = 0, 0
        for char in line:
            if count >= position["character"]:
                break
            count += _units(char, encoding)
            chars += 1
        return before + chars

    start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
    return text[:start] + str(edit["newText"]) + text[end:]


def _units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def cli_diagnostics(text: str, folder: Path, encoding: str) -> list[tuple[Any, ...]]:
    """(code, range, message) of `holodeck-mt validate --format json` on the same text."""
    path = folder / "cli" / "agent.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["validate", "--format", "json", "-j", "1", str(path)])
    lines = text.splitlines()

    def position(line: int, column: int) -> tuple[int, int]:
        source = lines[line - 1] if line <= len(lines) else ""
        return line - 1, _units(source[: column - 1], encoding)

    return sorted(
        (
            d["code"],
            position(d["line"], d["column"]),
            position(d["end_line"], d["end_column"]),
            shown(d),
        )
        for d in json.loads(out.getvalue())["files"][0]["diagnostics"]
    )


def shown(d: dict[str, Any]) -> str:
    """A CLI diagnostic's message as the editor shows it: its hint on a second line."""
    message = str(d["message"])
    return message + (f"\nhint: {d['hint']}" if d.get("hint") else "")


def published(diagnostics: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    def at(p: dict[str, int]) -> tuple[int, int]:
        return p["line"], p["character"]

    return sorted(
        (d["code"], at(d["range"]["start"]), at(d["range"]["end"]), d["message"])
        for d in diagnostics
    )


@pytest.fixture
def editor(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Editor]:
    options, encodings = getattr(request, "param", ({}, ["utf-16"]))
    opened = Editor(tmp_path, options, encodings)
    try:
        yield opened
    finally:
        opened.client.close()


def test_open_edit_save_publish_the_clis_diagnostics(editor: Editor, tmp_path: Path) -> None:
    uri, diagnostics = editor.open(FAULTS)
    assert published(diagnostics) == cli_diagnostics(FAULTS, tmp_path, "utf-16")
    assert {d["source"] for d in diagnostics} == {"holodeck-mt"}
    # Type on the line with the emoji: ground_truth gets a second fault, the count changes.
    line = FAULTS.splitlines().index('      - input: "naïve 😀 question"')
    column = _units('      - input: "naïve 😀 question"', "utf-16")
    at = {"line": line, "character": column}
    insert = {"range": {"start": at, "end": at}, "newText": "\n        files: [{type: pdf}]"}
    diagnostics = editor.change(uri, [insert])
    text = editor.texts[uri]
    assert "files: [{type: pdf}]" in text
    assert published(diagnostics) == cli_diagnostics(text, tmp_path, "utf-16")
    assert published(editor.save(uri)) == cli_diagnostics(text, tmp_path, "utf-16")


def test_every_diagnostic_is_published_by_default(editor: Editor, tmp_path: Path) -> None:
    """An editor with no YAML language server (Neovim, Helix, Emacs) sees every fault."""
    _, diagnostics = editor.open(FAULTS)
    codes = {d["code"] for d in diagnostics}
    assert codes & SHOWN_BY_YAML_SERVER == {"HMT100", "HMT102", "HMT103"}
    assert published(diagnostics) == cli_diagnostics(FAULTS, tmp_path, "utf-16")


@pytest.mark.parametrize(
    "editor",
    [
        ({"schemaDiagnostics": False}, ["utf-16"]),
        ({"holodeck-mt.schemaDiagnostics": False}, ["utf-16"]),
        ({"holodeck-mt": {"schemaDiagnostics": False}}, ["utf-16"]),
    ],
    ids=["flat", "dotted", "nested"],
    indirect=True,
)
def test_beside_the_yaml_server_only_what_the_schema_cannot_say(
    editor: Editor, tmp_path: Path
) -> None:
    _, diagnostics = editor.open(FAULTS)
    expected = [
        d for d in cli_diagnostics(FAULTS, tmp_path, "utf-16") if d[0] not in SHOWN_BY_YAML_SERVER
    ]
    assert published(diagnostics) == expected
    assert {d[0] for d in expected} == {"HMT104", "HMT200", "HMT203", "HMT204", "HMT210"}


@pytest.mark.parametrize("editor", [({}, ["utf-8", "utf-16"])], indirect=True)
def test_positions_are_in_the_encoding_the_client_prefers(editor: Editor, tmp_path: Path) -> None:
    assert editor.encoding == "utf-8"
    _, diagnostics = editor.open(FAULTS)
    assert published(diagnostics) == cli_diagnostics(FAULTS, tmp_path, "utf-8")


def test_changing_the_setting_republishes_the_open_documents(
    editor: Editor, tmp_path: Path
) -> None:
    uri, everything = editor.open(FAULTS)
    assert published(everything) == cli_diagnostics(FAULTS, tmp_path, "utf-16")
    before = editor.client.diagnostics_count(uri)
    settings = {"holodeck-mt": {"schemaDiagnostics": False}}
    editor.client.notify("workspace/didChangeConfiguration", {"settings": settings})
    fewer = editor.client.wait_for_diagnostics(uri, after=before)
    assert {d["code"] for d in fewer} == {"HMT104", "HMT200", "HMT203", "HMT204", "HMT210"}
    before = editor.client.diagnostics_count(uri)
    settings = {"holodeck-mt": {"schemaDiagnostics": True}}
    editor.client.notify("workspace/didChangeConfiguration", {"settings": settings})
    assert published(editor.client.wait_for_diagnostics(uri, after=before)) == published(everything)


def test_a_file_that_is_not_holodecks_gets_no_diagnostics(editor: Editor) -> None:
    _, diagnostics = editor.open("on: push\njobs: {build: {runs-on: 1}}\n", name="ci.yml")
    assert diagnostics == []


def test_a_file_holding_test_cases_by_content_is_validated(editor: Editor) -> None:
    _, diagnostics = editor.open("- input: q\n  ground_truth: 12\n", name="convfinqa.yaml")
    assert [d["code"] for d in diagnostics] == ["HMT102"]


def test_the_test_cases_file_an_agent_names_is_validated_as_such(
    editor: Editor, tmp_path: Path
) -> None:
    folder = tmp_path / "project"
    (folder / "data").mkdir(parents=True)
    (folder / "agent.yaml").write_text("name: a\ntest_cases_file: data/cases.yaml\n")
    cases = "test_cases:\n  - input: q\n    ground_truth: 12\n"
    (folder / "data" / "cases.yaml").write_text(cases)
    # A mapping of test_cases is a test-cases file only as the agent's file (role matters).
    uri = (folder / "data" / "cases.yaml").as_uri()
    editor.texts[uri], editor.versions[uri] = cases, 1
    document = {"uri": uri, "languageId": "yaml", "version": 1, "text": cases}
    editor.client.notify("textDocument/didOpen", {"textDocument": document})
    diagnostics = editor.client.wait_for_diagnostics(uri)
    out = _cli_json(folder / "agent.yaml")
    followed = next(f for f in out["files"] if f["path"].endswith("cases.yaml"))
    assert [(d["code"], d["message"]) for d in diagnostics] == [
        (d["code"], shown(d)) for d in followed["diagnostics"]
    ]


def _cli_json(path: Path) -> dict[str, Any]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["validate", "--format", "json", "-j", "1", str(path)])
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


def _actions(editor: Editor, uri: str, diagnostic: dict[str, Any]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = editor.client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic] if "message" in diagnostic else []},
        },
    )
    return result


def _apply_through_the_server(editor: Editor, uri: str, action: dict[str, Any]) -> str:
    """Run the action's command: the server sends workspace/applyEdit; apply and send it."""
    before = len(editor.applied)
    command = action["command"]
    assert editor.client.request(
        "workspace/executeCommand",
        {"command": command["command"], "arguments": command["arguments"]},
    )
    [edit] = editor.applied[before:]
    [change] = edit["documentChanges"]
    assert change["textDocument"] == {"uri": uri, "version": editor.versions[uri]}
    editor.change(uri, change["edits"])
    return editor.texts[uri]


def test_each_quick_fix_removes_its_diagnostic(editor: Editor, tmp_path: Path) -> None:
    uri, diagnostics = editor.open(FAULTS)
    fixable = []
    for diagnostic in diagnostics:
        quick = [a for a in _actions(editor, uri, diagnostic) if a["kind"] == "quickfix"]
        fixable += [(diagnostic, a) for a in quick if a["diagnostics"] == [diagnostic]]
    codes = {d["code"] for d, _ in fixable}
    assert codes == {"HMT100", "HMT102", "HMT103", "HMT200", "HMT203", "HMT204", "HMT210"}
    for diagnostic, action in fixable:
        fresh, opened = editor.open(FAULTS)
        assert diagnostic in opened
        [again] = [
            a
            for a in _actions(editor, fresh, diagnostic)
            if a["kind"] == "quickfix" and a["title"] == action["title"]
        ]
        unsafe = "(unsafe" in again["title"]
        assert again.get("isPreferred", False) is not unsafe
        fixed = _apply_through_the_server(editor, fresh, again)
        after = editor.client.wait_for_diagnostics(
            fresh, after=editor.client.diagnostics_count(fresh) - 1
        )
        assert fixed != FAULTS
        assert published(after) == cli_diagnostics(fixed, tmp_path, "utf-16")
        remaining = {(d["code"], d["range"]["start"]["line"]) for d in after}
        assert (diagnostic["code"], diagnostic["range"]["start"]["line"]) not in remaining, action[
            "title"
        ]


def test_fix_all_applies_the_safe_fixes_in_one_edit(editor: Editor) -> None:
    uri, _ = editor.open(FAULTS)
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 40, "character": 0}}
    actions = _actions(editor, uri, {"range": whole})
    [fix_all] = [a for a in actions if a["kind"] == "source.fixAll.holodeck-mt"]
    fixed = _apply_through_the_server(editor, uri, fix_all)
    assert '"206588.10"' in fixed and '"0.5"' not in fixed
    assert "ground_truht" in fixed  # an unsafe fix is not applied by fix-all
    assert "absolute_tolerance: 0.5" in fixed  # nor a removal of what the author wrote


MISSPELT_METRIC = """\
name: agent
test_cases:
  - name: numbers
    input: 12
    ground_truth: "4"
    evaluations:
      - type: standard
        metric: numerical
        absolute_tolerance: 0.5
"""


def test_a_safe_quick_fix_never_removes_the_tolerance_of_a_misspelt_metric(
    editor: Editor,
) -> None:
    uri, diagnostics = editor.open(MISSPELT_METRIC)
    # No warning cascades from the misspelt name: nothing offers to remove the tolerance.
    assert [d for d in diagnostics if d["code"] == "HMT200"] == []
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}
    [fix_all] = [
        a
        for a in _actions(editor, uri, {"range": whole})
        if a["kind"] == "source.fixAll.holodeck-mt"
    ]
    fixed = _apply_through_the_server(editor, uri, fix_all)
    assert fixed == MISSPELT_METRIC.replace("input: 12", 'input: "12"')


CASES = """\
name: agent
test_cases:
  - name: first
    input: "q"
    ground_truth: "12.5"
  - name: second
    turns:
      - input: "again"
        ground_truth: 'x'
      - input: "and again"
  - name: third
    input: "q3"
    ground_truth: "7"
"""

#: What an author types, one edit at a time: (the text replaced, its first occurrence,
#: and what replaces it). Faults come and go in one test case, in two, across lines.
TYPING = [
    ('"12.5"', "12.5"),  # a number: HMT102 in the first test case
    ("name: second", "name: first"),  # a duplicate name: two test cases at once
    ('input: "q3"', 'input: "q3"\n    ground_truht: x'),  # a line more, a misspelt key
    ("12.5\n", '"12.5"\n'),  # the first fault goes
    ('      - input: "and again"\n', ""),  # a line less
    ("ground_truht", "ground_truth"),  # two ground truths in one test case
    ("name: first\n    turns", "name: second\n    turns"),  # the names differ again
]


def _replace(editor: Editor, uri: str, old: str, new: str) -> list[dict[str, Any]]:
    """Replace the first ``old`` of the document by ``new``, as the editor sends it."""
    text = editor.texts[uri]
    start = text.index(old)

    def position(offset: int) -> dict[str, int]:
        before = text[:offset]
        line = before.count("\n")
        column = before[before.rfind("\n") + 1 :]
        return {"line": line, "character": _units(column, editor.encoding)}

    edit = {"range": {"start": position(start), "end": position(start + len(old))}}
    return editor.change(uri, [{**edit, "newText": new}])


def test_after_each_edit_the_diagnostics_are_those_of_a_fresh_validation(
    editor: Editor, tmp_path: Path
) -> None:
    uri, diagnostics = editor.open(CASES)
    assert published(diagnostics) == cli_diagnostics(CASES, tmp_path, "utf-16")
    seen = [published(diagnostics)]
    for old, new in TYPING:
        diagnostics = _replace(editor, uri, old, new)
        text = editor.texts[uri]
        assert new in text
        assert published(diagnostics) == cli_diagnostics(text, tmp_path, "utf-16"), (old, new)
        seen.append(published(diagnostics))
    assert all(a != b for a, b in itertools.pairwise(seen))  # every edit changed them


def _validations(editor: Editor, uri: str, version: int) -> int:
    said = f"validating {uri} version {version}"
    return sum(1 for p in editor.client.notifications("window/logMessage") if p["message"] == said)


def test_a_quick_fix_asked_for_during_a_validation_waits_for_it(editor: Editor) -> None:
    """A version is validated once, however many ask for it: the editor asks for the quick
    fixes of the line under the cursor with each edit."""
    uri, _ = editor.open(CASES)
    line = CASES.splitlines().index('    ground_truth: "12.5"')
    at = {"line": line, "character": len("    ground_truth: ")}
    end = {"line": line, "character": len('    ground_truth: "12.5"')}
    before = editor.client.diagnostics_count(uri)
    editor.client.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": at, "end": end}, "text": "12.5"}],
        },
    )
    actions = _actions(editor, uri, {"range": {"start": at, "end": end}})
    diagnostics = editor.client.wait_for_diagnostics(uri, after=before)
    assert [d["code"] for d in diagnostics] == ["HMT102"]
    assert any(a["title"].startswith("Quote") for a in actions), actions
    assert _validations(editor, uri, 2) == 1


def test_the_validation_at_start_up_publishes_nothing(editor: Editor) -> None:
    uri, _ = editor.open(CASES)
    published_for = {
        p["uri"] for p in editor.client.notifications("textDocument/publishDiagnostics")
    }
    assert published_for == {uri}


def test_the_hint_is_on_screen_and_each_code_links_its_documentation(editor: Editor) -> None:
    """Editors show ``message`` and link ``codeDescription``; few show ``data``."""
    _, diagnostics = editor.open("- input: q\n  ground_truth: 25587\n", name="cases.yaml")
    (diagnostic,) = diagnostics
    assert diagnostic["code"] == "HMT102"
    assert diagnostic["message"] == (
        '`ground_truth` must be a string, got integer 25587\nhint: quote it: ground_truth: "25587"'
    )
    href = diagnostic["codeDescription"]["href"]
    assert href == f"{REPOSITORY}/blob/main/docs/diagnostics.md#hmt102"
    # The anchor is the heading docs/diagnostics.md gives the code.
    docs = (Path(__file__).parents[2] / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert "\n## HMT102\n" in docs


def test_a_diagnostic_without_a_hint_is_its_message_alone(editor: Editor) -> None:
    _, diagnostics = editor.open("- input: q\n  ground_truth: '1'\n  turns: []\n", name="c.yaml")
    assert diagnostics
    for d in diagnostics:
        assert d["message"].count("\n") == (1 if d["data"]["hint"] else 0), d
        assert d["codeDescription"]["href"].endswith("#" + d["code"].lower())
