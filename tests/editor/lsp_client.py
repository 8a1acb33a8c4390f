"""A small Language Server Protocol client over stdio, enough to drive a real server in tests.

Messages are framed with ``Content-Length`` headers. A reader thread routes what the server
sends: responses go to the waiting request (by id), notifications are collected per method
(``textDocument/publishDiagnostics`` per document URI), and requests from the server
(``workspace/configuration`` and friends) are answered at once. Every wait has a timeout, so a
server that breaks or hangs fails a test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from tests.timeouts import LSP_ANSWER, scaled

#: Longest wait for any single answer of the server, in seconds: a bound on a hang, long
#: enough for a loaded two-core machine (HOLODECK_MT_TEST_TIMEOUT_SCALE multiplies it).
DEFAULT_TIMEOUT = scaled(LSP_ANSWER)

#: Answers a ``workspace/configuration`` item: section name (or None) -> its settings.
SettingsProvider = Callable[[str | None], Any]
#: Takes a ``workspace/applyEdit`` request's edit; returns whether it was applied.
EditApplier = Callable[[dict[str, Any]], bool]


class LspError(RuntimeError):
    """The server answered a request with an error, broke the protocol, or did not answer."""


class LspClient:
    """One language server process and the JSON-RPC conversation with it."""

    def __init__(
        self,
        argv: Sequence[str],
        settings: SettingsProvider,
        *,
        cwd: Path | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        apply_edit: EditApplier | None = None,
    ) -> None:
        self.timeout = timeout
        self._settings = settings
        self._apply_edit = apply_edit
        self._process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        self._write_lock = threading.Lock()
        self._state = threading.Condition()
        self._next_id = 0
        self._responses: dict[int, dict[str, Any]] = {}
        self._notifications: list[dict[str, Any]] = []
        self._diagnostics: dict[str, list[dict[str, Any]]] = {}
        self._closed_reason: str | None = None
        self._stderr: list[str] = []
        self._reader = threading.Thread(target=self._read_loop, name="lsp-reader", daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(
            target=self._drain_stderr, name="lsp-stderr", daemon=True
        )
        self._stderr_reader.start()

    # -- sending -------------------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stdin = self._process.stdin
        if stdin is None:
            raise LspError("the server's stdin is closed")
        with self._write_lock:
            try:
                stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                stdin.flush()
            except (BrokenPipeError, OSError) as error:
                raise LspError(f"cannot write to the server: {error}{self._tail()}") from error

    def notify(self, method: str, params: Any) -> None:
        """Send a notification (no answer expected)."""
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        """Send a request and return its result; raise LspError on an error or a timeout."""
        with self._state:
            self._next_id += 1
            request_id = self._next_id
        self._send({"id": request_id, "method": method, "params": params})
        with self._state:
            answered = self._state.wait_for(
                lambda: request_id in self._responses or self._closed_reason is not None,
                timeout=self.timeout,
            )
            if request_id not in self._responses:
                why = self._closed_reason if answered else f"no answer in {self.timeout} s"
                raise LspError(f"{method}: {why}{self._tail()}")
            response = self._responses.pop(request_id)
        if "error" in response:
            raise LspError(f"{method}: {response['error']}")
        return response.get("result")

    # -- waiting for notifications -------------------------------------------------------------

    def diagnostics_count(self, uri: str) -> int:
        """How many ``publishDiagnostics`` the server has sent so far for ``uri``."""
        with self._state:
            return len(self._diagnostics.get(uri, []))

    def wait_for_diagnostics(self, uri: str, *, after: int = 0) -> list[dict[str, Any]]:
        """The diagnostics of the first ``publishDiagnostics`` for ``uri`` past the ``after``-th."""
        with self._state:
            arrived = self._state.wait_for(
                lambda: (
                    len(self._diagnostics.get(uri, [])) > after or self._closed_reason is not None
                ),
                timeout=self.timeout,
            )
            published = self._diagnostics.get(uri, [])
            if len(published) <= after:
                why = self._closed_reason if arrived else f"none in {self.timeout} s"
                raise LspError(f"publishDiagnostics for {uri}: {why}{self._tail()}")
            diagnostics: list[dict[str, Any]] = published[after]["diagnostics"]
            return diagnostics

    def notifications(self, method: str) -> list[dict[str, Any]]:
        """The params of every notification received so far with this method."""
        with self._state:
            return [n.get("params", {}) for n in self._notifications if n["method"] == method]

    # -- receiving -----------------------------------------------------------------------------

    def _read_loop(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        reason = "the server closed its output"
        try:
            while True:
                message = _read_message(stdout)
                if message is None:
                    break
                self._dispatch(message)
        except (OSError, ValueError) as error:
            reason = f"unreadable message from the server: {error}"
        with self._state:
            self._closed_reason = reason
            self._state.notify_all()

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "method" in message and "id" in message:
            self._answer(message)
        elif "method" in message:
            with self._state:
                self._notifications.append(message)
                if message["method"] == "textDocument/publishDiagnostics":
                    params = message["params"]
                    self._diagnostics.setdefault(params["uri"], []).append(params)
                self._state.notify_all()
        elif "id" in message:
            with self._state:
                self._responses[message["id"]] = message
                self._state.notify_all()

    def _answer(self, message: dict[str, Any]) -> None:
        """Answer a request of the server; unknown methods get a JSON-RPC error."""
        method = message["method"]
        if method == "workspace/configuration":
            items = message.get("params", {}).get("items", [])
            result: Any = [self._settings(item.get("section")) for item in items]
            self._send({"id": message["id"], "result": result})
        elif method == "workspace/applyEdit" and self._apply_edit is not None:
            applied = self._apply_edit(message.get("params", {}).get("edit", {}))
            self._send({"id": message["id"], "result": {"applied": applied}})
        elif method in {
            "client/registerCapability",
            "client/unregisterCapability",
            "window/workDoneProgress/create",
            "window/showMessageRequest",
        }:
            self._send({"id": message["id"], "result": None})
        else:
            error = {"code": -32601, "message": f"unhandled method {method}"}
            self._send({"id": message["id"], "error": error})

    def _drain_stderr(self) -> None:
        stderr = self._process.stderr
        assert stderr is not None
        for line in iter(stderr.readline, b""):
            self._stderr.append(line.decode("utf-8", "replace").rstrip())

    def _tail(self) -> str:
        if not self._stderr:
            return ""
        return "\nserver stderr (last lines):\n" + "\n".join(self._stderr[-20:])

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        """Ask the server to shut down; kill it if it does not answer or does not exit."""
        try:
            if self._process.poll() is None and self._closed_reason is None:
                self.request("shutdown", None)
                self.notify("exit", None)
                self._process.wait(timeout=scaled(5))
        except (LspError, subprocess.TimeoutExpired):
            pass
        finally:
            if self._process.poll() is None:
                self._process.kill()
                self._process.wait(timeout=scaled(5))
            # The readers stop at the end of the streams once the process is gone.
            self._reader.join(timeout=scaled(5))
            self._stderr_reader.join(timeout=scaled(5))
            for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
                if stream is not None:
                    stream.close()


def _read_message(stream: IO[bytes]) -> dict[str, Any] | None:
    """Read one framed message, or None at the end of the stream."""
    length: int | None = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length is None:
        raise ValueError("a message without Content-Length")
    body = stream.read(length)
    if len(body) < length:
        return None
    message: dict[str, Any] = json.loads(body.decode("utf-8"))
    return message


def editor_env(path: tuple[Path, ...] = (), **variables: str) -> dict[str, str]:
    """This environment for an editor under test, ``path`` first on the PATH, then this
    interpreter's folder (``holodeck-mt`` on the PATH, as an installed validator is), with
    ``variables`` set."""
    folders = [*map(str, path), str(Path(sys.executable).parent), os.environ.get("PATH", "")]
    return {**os.environ, "PATH": os.pathsep.join(folders), **variables}


def run_editor(
    argv: list[str], cwd: Path, env: dict[str, str], out: Path, wait: float
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """Run an editor's batch session (``argv``), which writes its JSON report to ``out``:
    the finished process and the report."""
    completed = subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=4 * wait,
        stdin=subprocess.DEVNULL,
    )
    assert out.is_file(), (completed.returncode, completed.stdout[-2000:], completed.stderr[-2000:])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return completed, report
