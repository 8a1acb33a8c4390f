"""After ``holodeck-mt init-editor``, the real language server checks every HoloDeck file.

A scratch repository (tests/app/test_discovery.py) holds agent.yaml files, test-case files
named anything and a dozen other YAML files. After init-editor, yaml-language-server is
started on it with the settings init-editor wrote, as VS Code passes them: each
HoloDeck file gets the schema's diagnostics and completion, and no other file does.
With ``--modeline`` the files carry the binding themselves.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app.cli import main
from tests.app.test_discovery import HOLODECK_FILES, NOT_HOLODECK, make_repository
from tests.conftest import ROOT
from tests.docs_pages import blocks, page

from .test_language_server import _require_server, open_server

#: What the server reports on each HoloDeck file of the scratch repository:
#: (0-based line of the body, words of the server's message).
EXPECTED = {
    "agents/finance/agent.yaml": [],
    "agents/finance/data/convfinqa.yaml": [(3, "Incorrect type")],
    "agents/support/agent.yaml": [(5, "Incorrect type")],
    "data/extra.yaml": [(4, "Incorrect type")],
    "tests/routing.yaml": [(7, "expected_tool is not allowed")],
}


class Server:
    """yaml-language-server on a repository, configured as VS Code would from its settings."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.versions: dict[str, int] = {}
        self.client = open_server(self._settings, root)

    def _settings(self, section: str | None) -> Any:
        if section != "yaml":
            return None
        path = self.root / ".vscode" / "settings.json"
        written = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        return {
            "schemaStore": {"enable": False},
            "schemas": written.get("yaml.schemas", {}),
            "yamlVersion": written.get("yaml.yamlVersion", "1.2"),
            "validate": True,
            "completion": True,
            "format": {"enable": False},
        }

    def open(self, name: str, text: str | None = None) -> str:
        path = self.root / name
        uri = path.as_uri()
        body = path.read_text(encoding="utf-8") if text is None else text
        version = self.versions.get(uri, 0) + 1
        self.versions[uri] = version
        if version == 1:
            document = {"uri": uri, "languageId": "yaml", "version": 1, "text": body}
            self.client.notify("textDocument/didOpen", {"textDocument": document})
        else:  # the editor's buffer changed
            self.client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": body}],
                },
            )
        return uri

    def problems(self, name: str, offset: int = 0) -> list[tuple[int, str]]:
        """(0-based line, message) of each diagnostic of the file, once the server has one."""
        uri = self.open(name)
        diagnostics = self.client.wait_for_diagnostics(uri)
        return sorted((d["range"]["start"]["line"] - offset, d["message"]) for d in diagnostics)

    def labels(self, name: str, text: str, line: int, character: int) -> set[str]:
        uri = self.open(name, text)
        result = self.client.request(
            "textDocument/completion",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )
        items = result["items"] if isinstance(result, dict) else result or []
        return {item["label"] for item in items}


def _repository(tmp_path_factory: pytest.TempPathFactory, *args: str) -> Path:
    root = make_repository(tmp_path_factory.mktemp("repo"))
    assert main(["init-editor", str(root), *args]) == 0
    return root


@pytest.fixture(scope="module", params=["settings", "modeline"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    _require_server()
    args = ("--modeline",) if request.param == "modeline" else ()
    started = Server(_repository(tmp_path_factory, *args))
    try:
        yield started
    finally:
        started.client.close()


def _offset(server: Server, name: str) -> int:
    first = (server.root / name).read_text(encoding="utf-8").split("\n", 1)[0]
    return 1 if first.startswith("# yaml-language-server:") else 0


@pytest.mark.parametrize("name", HOLODECK_FILES)
def test_each_holodeck_file_gets_the_schemas_diagnostics(server: Server, name: str) -> None:
    found = server.problems(name, _offset(server, name))
    expected = EXPECTED[name]
    assert [line for line, _ in found] == [line for line, _ in expected], found
    for (_, message), (_, words) in zip(found, expected, strict=True):
        assert words.lower() in message.lower(), found


def test_a_test_case_file_named_anything_gets_completion(server: Server) -> None:
    name = "data/extra.yaml"
    text = (server.root / name).read_text(encoding="utf-8") + "- name: new\n  \n"
    line = text.count("\n") - 1
    labels = server.labels(name, text, line, 2)
    assert {"input", "ground_truth", "expected_tools", "evaluations"} <= labels, labels


@pytest.mark.parametrize(
    "name", ["mkdocs.yml", "k8s/deployment.yaml", ".github/workflows/ci.yml", "config.yaml"]
)
def test_the_other_yaml_files_are_not_bound(server: Server, name: str) -> None:
    assert (NOT_HOLODECK / name).is_file()
    assert server.problems(name) == []


BUNDLE = ROOT / "schema" / "bundle" / "holodeck-mt.schema.json"
#: The committed-copy modeline docs/editors.md gives beside its URL modeline.
COPY_MODELINE = "# yaml-language-server: $schema=../.vscode/holodeck-mt.schema.json"


def test_the_pages_settings_and_modeline_bind_the_schema_in_the_yaml_server(
    tmp_path: Path,
) -> None:
    """docs/editors.md's `.vscode/settings.json` (beside the copy `python -m holodeck_mt
    schema` writes) binds by its globs; its modeline block, with the committed copy's
    modeline, binds a file named anything."""
    _require_server()
    root = make_repository(tmp_path / "repo")
    (settings,) = [b for b in blocks("json", page("docs/editors.md")) if "yaml.schemas" in b]
    (root / ".vscode").mkdir()
    (root / ".vscode" / "settings.json").write_text(settings, encoding="utf-8")
    shutil.copy(BUNDLE, root / ".vscode" / "holodeck-mt.schema.json")
    (modeline,) = [b for b in blocks("yaml", page("docs/editors.md")) if "$schema=" in b]
    assert f"`{COPY_MODELINE}`" in page("docs/editors.md")
    lines = modeline.splitlines()
    (root / "data" / "modeline.yaml").write_text(
        "\n".join([COPY_MODELINE, *lines[1:]]) + "\n", encoding="utf-8"
    )
    unquoted = "\n".join([COPY_MODELINE, *lines[1:]]).replace('"206588"', "206588")
    (root / "data" / "unquoted.yaml").write_text(unquoted + "\n", encoding="utf-8")
    (root / "q4.holodeck.yaml").write_text("test_cases:\n  - name: q4\n", encoding="utf-8")
    server = Server(root)
    try:
        assert [line for line, _ in server.problems("agents/support/agent.yaml")] == [5]
        assert [line for line, _ in server.problems("q4.holodeck.yaml")] == [1]
        assert server.problems("data/extra.yaml") == []  # named anything: no glob takes it
        assert server.problems("data/modeline.yaml") == []
        found = server.problems("data/unquoted.yaml")
        assert [line for line, _ in found] == [lines.index('        ground_truth: "206588"')], found
    finally:
        server.client.close()
