"""After ``shutdown``, ``holodeck-mt lsp`` answers every request ``Invalid Request`` (-32600),
as LSP asks, ignores every notification but ``exit``, and ``exit`` ends it with 0."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tests.editor.lsp_client import LspClient, LspError
from tests.timeouts import scaled

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

INVALID_REQUEST = "'code': -32600"


@pytest.fixture
def client(tmp_path: Path) -> LspClient:
    started = LspClient([sys.executable, "-m", "holodeck_mt", "lsp"], settings=lambda _: None)
    started.request(
        "initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}
    )
    started.notify("initialized", {})
    return started


def test_requests_after_shutdown_are_invalid_requests(client: LspClient, tmp_path: Path) -> None:
    try:
        assert client.request("shutdown", None) is None
        where = {"textDocument": {"uri": (tmp_path / "agent.yaml").as_uri()}}
        position = {**where, "position": {"line": 0, "character": 0}}
        for method, params in [
            ("textDocument/hover", position),
            ("textDocument/codeAction", 5),  # params pygls cannot even read
            ("workspace/executeCommand", {"command": "holodeck-mt.fixAll", "arguments": []}),
            ("no/such/method", None),
            ("shutdown", None),
        ]:
            with pytest.raises(LspError, match=INVALID_REQUEST):
                client.request(method, params)
    finally:
        client.close()


def test_notifications_after_shutdown_are_ignored_and_exit_ends_it(
    client: LspClient, tmp_path: Path
) -> None:
    try:
        assert client.request("shutdown", None) is None
        uri = (tmp_path / "agent.yaml").as_uri()
        document = {"uri": uri, "languageId": "yaml", "version": 1, "text": "name: [\n"}
        client.notify("textDocument/didOpen", {"textDocument": document})
        with pytest.raises(LspError, match=INVALID_REQUEST):  # answered after the didOpen
            client.request(
                "textDocument/hover",
                {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}},
            )
        time.sleep(scaled(0.5))  # past the debounce a validation would have waited
        assert client.diagnostics_count(uri) == 0
        client.notify("exit", None)
        assert client._process.wait(timeout=scaled(10)) == 0
    finally:
        client.close()
