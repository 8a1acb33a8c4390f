"""The language server reads ``.env`` and the configuration of the document's workspace
folder, never those of the folder the server process was started in: driven over stdio,
the server started in another folder that holds a ``.env`` and a configuration of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.editor.lsp_client import LspClient

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

DOCUMENT = """\
name: agent
model:
  provider: openai
  name: gpt-4o
  temperature: ${AGENT_T}
instructions:
  inline: be brief
test_cases:
  - name: same
    input: ${HMT_WORKSPACE_UNSET}
  - name: same
    input: two
"""


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    """A workspace (a repository with its ``.env`` and configuration) and, beside it, the
    folder the server is started in, whose ``.env`` and configuration would change what
    is published were they read."""
    workspace, elsewhere = tmp_path / "workspace", tmp_path / "elsewhere"
    (workspace / ".git").mkdir(parents=True)
    (workspace / ".env").write_text("BASE_T=0.2\nAGENT_T=${BASE_T}\n", encoding="utf-8")
    (workspace / ".holodeck-mt.toml").write_text('ignore = ["HMT201"]\n', encoding="utf-8")
    (elsewhere / ".git").mkdir(parents=True)
    (elsewhere / ".env").write_text("AGENT_T=hot\nHMT_WORKSPACE_UNSET=x\n", encoding="utf-8")
    (elsewhere / ".holodeck-mt.toml").write_text('ignore = ["HMT213"]\n', encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("AGENT_T", "BASE_T", "HMT_WORKSPACE_UNSET"):
        monkeypatch.delenv(name, raising=False)
    yield workspace, elsewhere


def _published(workspace: Path, elsewhere: Path, text: str) -> list[dict[str, Any]]:
    client = LspClient(
        [sys.executable, "-m", "holodeck_mt", "lsp"],
        settings=lambda section: None,
        cwd=elsewhere,
    )
    try:
        client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": workspace.as_uri(),
                "capabilities": {},
                "initializationOptions": {"schemaDiagnostics": True},
            },
        )
        client.notify("initialized", {})
        path = workspace / "agents" / "agent.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        document = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
        client.notify("textDocument/didOpen", {"textDocument": document})
        return client.wait_for_diagnostics(uri)
    finally:
        client.close()


def _seen(diagnostics: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return sorted((str(d["code"]), d["range"]["start"]["line"] + 1) for d in diagnostics)


def test_the_workspaces_dot_env_and_configuration_are_read(folders: tuple[Path, Path]) -> None:
    workspace, elsewhere = folders
    diagnostics = _published(workspace, elsewhere, DOCUMENT)
    # AGENT_T from the workspace's .env, expanded: no HMT130 ("hot" from elsewhere would be);
    # HMT201 ignored by the workspace's configuration, HMT213 not (elsewhere's ignores it).
    assert _seen(diagnostics) == [("HMT213", 10)]
    [unset] = diagnostics
    assert "HMT_WORKSPACE_UNSET" in unset["message"]


def test_a_workspace_dot_env_linked_out_of_it_is_refused(folders: tuple[Path, Path]) -> None:
    workspace, elsewhere = folders
    (workspace / ".env").unlink()
    (workspace / ".env").symlink_to(elsewhere / ".env")
    diagnostics = _published(workspace, elsewhere, DOCUMENT)
    assert _seen(diagnostics) == [("HMT213", 5), ("HMT213", 5), ("HMT213", 10)]
    messages = [d["message"] for d in diagnostics]
    assert any(m.startswith("`.env` leaves the repository tree") for m in messages)
    assert all("hot" not in m for m in messages)
