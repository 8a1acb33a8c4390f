"""``holodeck-mt lsp`` against a hostile client and a hostile workspace.

The workspace is the boundary of what the server reads, whatever folder it was started
in; frames with an absurd, negative or malformed ``Content-Length`` are dropped and the
next message is answered; a request it cannot read gets a JSON-RPC error; what it
publishes holds no raw control or bidi character.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.limits import Limits
from holodeck_mt.lsp import checking
from holodeck_mt.pipeline import validate_text
from tests.editor.lsp_client import LspClient, LspError

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")


def _start(cwd: Path, workspace: Path | None, options: dict[str, Any] | None = None) -> LspClient:
    client = LspClient(
        [sys.executable, "-m", "holodeck_mt", "lsp"], settings=lambda section: None, cwd=cwd
    )
    root = workspace.as_uri() if workspace is not None else None
    folders = [{"uri": root, "name": "ws"}] if root is not None else None
    client.request(
        "initialize",
        {
            "processId": None,
            "rootUri": root,
            "workspaceFolders": folders,
            "capabilities": {},
            "initializationOptions": options or {},
        },
    )
    client.notify("initialized", {})
    return client


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    """A $HOME-like folder holding a secret and the workspace (home/ws)."""
    (tmp_path / "secret.yaml").write_text("- input: SECRET-VALUE-42\n")
    (tmp_path / "ws").mkdir()
    yield tmp_path


def _open(client: LspClient, path: Path, text: str) -> list[dict[str, Any]]:
    uri = path.as_uri()
    item = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
    client.notify("textDocument/didOpen", {"textDocument": item})
    return client.wait_for_diagnostics(uri)


def _raw(client: LspClient, data: bytes) -> None:
    stdin = client._process.stdin
    assert stdin is not None
    stdin.write(data)
    stdin.flush()


def _answers(client: LspClient) -> bool:
    """Whether the server answers a valid request (fix all of a document it does not hold)."""
    arguments = ["file:///nowhere.yaml", 1]
    params = {"command": "holodeck-mt.fixAll", "arguments": arguments}
    return client.request("workspace/executeCommand", params) is False


def test_the_workspace_not_the_working_directory_bounds_what_is_read(home: Path) -> None:
    agent = home / "ws" / "agent.yaml"
    text = "name: a\ntest_cases_file: ../secret.yaml\n"
    agent.write_text(text)
    client = _start(cwd=home, workspace=home / "ws")
    try:
        published = _open(client, agent, text)
    finally:
        client.close()
    assert [(d["code"], d["range"]["start"]["line"]) for d in published] == [("HMT120", 1)]
    assert "SECRET" not in json.dumps(published)


def test_without_a_workspace_the_open_files_folder_is_the_boundary(home: Path) -> None:
    agent = home / "ws" / "agent.yaml"
    text = "name: a\ntest_cases_file: ../secret.yaml\n"
    agent.write_text(text)
    client = _start(cwd=home, workspace=None)
    try:
        published = _open(client, agent, text)
    finally:
        client.close()
    assert [d["code"] for d in published] == ["HMT120"]


@pytest.mark.parametrize(
    "frame",
    [
        b"Content-Length: 99999999999999999999999\r\n\r\n{}",
        b"Content-Length: 200000000000\r\n\r\n{}",
        b"Content-Length: -12\r\n\r\n{}\r\n",
        b"Content-Length: twelve\r\n\r\n{}\r\n",
        b"Content-Length: 12\r\nContent-Length: x\r\n\r\n{}\r\n",
        b"X-Junk: " + b"x" * 100_000 + b"\r\n\r\n",
        b"\r\n\r\n{not json at all}\r\n",
        b"Content-Length: 13\r\n\r\n{not json!!!}",
    ],
    ids=["absurd", "over-limit", "negative", "malformed", "two", "huge-header", "none", "bad-json"],
)
def test_a_broken_frame_is_dropped_and_the_next_message_answered(
    frame: bytes, tmp_path: Path
) -> None:
    client = _start(cwd=tmp_path, workspace=tmp_path)
    try:
        _raw(client, frame)
        assert _answers(client)
    finally:
        client.close()


def test_a_request_with_invalid_params_gets_an_error_reply(tmp_path: Path) -> None:
    client = _start(cwd=tmp_path, workspace=tmp_path)
    try:
        with pytest.raises(LspError, match="-32602"):
            client.request("textDocument/codeAction", {"textDocument": 5})
        with pytest.raises(LspError, match="-32602") as raised:
            client.request(
                "workspace/executeCommand",
                {"command": "holodeck-mt.applyFix", "arguments": ["file:///x.yaml"]},
            )
        assert "Traceback" not in str(raised.value)
        assert _answers(client)  # still serving
    finally:
        client.close()


def test_published_messages_hold_no_raw_control_or_bidi_character(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    text = 'name: a\ntest_cases:\n  - input: q\n    "e\\u202evil\\x1b[2J": 1\n'
    path.write_text(text)
    client = _start(cwd=tmp_path, workspace=tmp_path, options={"schemaDiagnostics": True})
    try:
        published = _open(client, path, text)
    finally:
        client.close()
    messages = " ".join(d["message"] for d in published)
    assert "HMT100" in {d["code"] for d in published}
    assert "\u202e" not in messages and "\x1b" not in messages
    assert "\\u202e" in messages


def test_an_agent_file_over_the_size_limit_is_not_read_for_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = tmp_path / "cases.yaml"
    text = "- input: q\n  ground_truth: 12\n"
    cases.write_text(text)
    agent = tmp_path / "agent.yaml"
    agent.write_text("name: a\ntest_cases_file: cases.yaml\n# " + "x" * 5000 + "\n")
    read_text = Path.read_text

    def guarded(self: Path, *args: Any, **kwargs: Any) -> str:
        assert self != agent, "the agent.yaml was read whole"
        return read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", guarded)
    limits = Limits(max_bytes=1000)
    found = checking.diagnose(cases, text, [tmp_path], limits)
    alone = validate_text(text, path=str(cases), role="test-cases-file", base_dir=tmp_path)
    assert found == alone.diagnostics


def _framed(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


#: Frames pygls cannot read, or that the framing drops: one line on stderr each.
GARBAGE = [
    _framed(b"{not json!!!}"),
    _framed(b"\x1b]0;owned\x07\x1b[31m" + b"\xff" * 5000),
    _framed(b"[1, 2]"),
    _framed(b'"a string"'),
    _framed(b"null"),
    _framed(b'{"id": 7, "method": "initialize"}'),
    _framed(b'{"jsonrpc": "2.0", "id": {}, "method": "x"}'),
    _framed(b"[" * 100_000),
    b"Content-Length: \x1b[2J\r\n\r\n{}\r\n",
    b"Content-Length: -12\r\n\r\n{}\r\n",
]


def test_each_unreadable_frame_is_one_escaped_line_and_the_next_request_answered(
    tmp_path: Path,
) -> None:
    client = _start(cwd=tmp_path, workspace=tmp_path)
    try:
        for frame in GARBAGE:
            _raw(client, frame)
        assert _answers(client)
    finally:
        client.close()
    lines = client._stderr
    assert len(lines) == len(GARBAGE), "\n".join(lines)
    assert all(line.startswith("holodeck-mt lsp: dropped a message: ") for line in lines)
    assert not any("Traceback" in line or "\x1b" in line or len(line) > 400 for line in lines)
    assert "not JSON" in lines[0] and "not a JSON-RPC message" in lines[2]
