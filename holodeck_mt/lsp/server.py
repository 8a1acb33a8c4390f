"""``holodeck-mt lsp``: the validator's diagnostics and quick fixes over LSP on stdio
(pygls; docs/editors.md). Validation runs on one worker thread, once per version; a result
for a version the editor has left is dropped. What is published or logged is escaped.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import to_fs_path

from holodeck_mt.fix import engine as fixes
from holodeck_mt.lsp import checking, documents, sharing
from holodeck_mt.lsp.documents import FastTextDocument
from holodeck_mt.lsp.framing import FramedInput, OneLine
from holodeck_mt.lsp.positions import UTF8, UTF16, UTF32, Lines
from holodeck_mt.model import Diagnostic, clip
from holodeck_mt.text.safe_text import escape
from holodeck_mt.urls import code_docs

_T = TypeVar("_T")
#: Seconds of quiet after an edit before the document is validated again.
DEBOUNCE = 0.15
APPLY_FIX = "holodeck-mt.applyFix"
FIX_ALL = "holodeck-mt.fixAll"
SOURCE = "holodeck-mt"
FIX_ALL_KIND = "source.fixAll.holodeck-mt"
#: What opens the hint's line of a published message.
HINT = "hint: "


class AnsweringProtocol(LanguageServerProtocol):
    """Every request gets an answer: ``-32602`` for params pygls cannot read (it never
    answers), ``-32600`` after ``shutdown`` (pygls drops it), as LSP asks."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            request_id = data.get("id")
            if "method" in data and isinstance(request_id, (int, str)) and request_id is not True:
                answer = _say_shut_down() if self._after_shutdown(data.get("method")) else error
                self._send_response(request_id, error=answer.to_response_error())
            raise

    def handle_message(self, message: Any) -> None:
        method, request_id = getattr(message, "method", None), getattr(message, "id", None)
        if self._after_shutdown(method) and request_id is not None:
            self._send_response(request_id, error=_say_shut_down().to_response_error())
            return
        super().handle_message(message)

    def _after_shutdown(self, method: object) -> bool:
        """Whether a message of ``method`` comes after ``shutdown``, and is not ``exit``."""
        return bool(self._shutdown) and isinstance(method, str) and method != lsp.EXIT


def _say_shut_down() -> JsonRpcInvalidRequest:
    return JsonRpcInvalidRequest("Invalid Request: the server is shut down")


def invalid(why: str) -> JsonRpcInvalidParams:
    """The error a handler raises for arguments it cannot take (``-32602``)."""
    return JsonRpcInvalidParams(f"Invalid Params: {escape(clip(why, 200))}")


@dataclass
class Validation:
    """A document's last validation: the text and version it was of, and what it found."""

    version: int
    text: str
    diagnostics: list[Diagnostic]
    lines: Lines | None = None


class HoloDeckServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("holodeck-mt", "", protocol_cls=AnsweringProtocol)
        self.schema_diagnostics = sharing.DEFAULT_SCHEMA_DIAGNOSTICS
        self.checked: dict[str, Validation] = {}
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._running: set[str] = set()
        self.last_edit: dict[str, float] = {}
        self._revalidate: set[str] = set()
        #: The validation under way of each document: its text and version, and the job.
        self._validating: dict[str, tuple[str, int, asyncio.Future[Validation | None]]] = {}
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="validate")
        self.readings: dict[str, checking.Reading] = {}

    @property
    def encoding(self) -> str:
        chosen = str(self.workspace.position_encoding or UTF16)
        return chosen if chosen in (UTF8, UTF32) else UTF16

    def schedule(self, uri: str, delay: float) -> None:
        """Validate ``uri`` after ``delay`` seconds, unless another edit comes first."""
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._pending[uri] = asyncio.ensure_future(self._validate_later(uri, delay))

    async def _validate_later(self, uri: str, delay: float) -> None:
        """One validation of a document at a time; edits during it ask for one more after."""
        if delay:
            await asyncio.sleep(delay)
        self._pending.pop(uri, None)
        if uri in self._running:
            self._revalidate.add(uri)
            return
        self._running.add(uri)
        try:
            await self.validate(uri)
        finally:
            self._running.discard(uri)
        if uri in self._revalidate:  # once the edits made meanwhile pause, not while they go on
            self._revalidate.discard(uri)
            quiet_for = time.monotonic() - self.last_edit.get(uri, -DEBOUNCE)
            self.schedule(uri, max(0.0, DEBOUNCE - quiet_for))

    async def validate(self, uri: str) -> Validation | None:
        """Validate the open document and publish; None when it is not a HoloDeck file."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None
        text, version = document.source, document.version or 0
        running = self._validating.get(uri)
        # The same text (not only the same number: a document reopened starts again at 1).
        if running is None or running[0] is not text or running[1] != version:
            job = asyncio.ensure_future(self._validate(uri, text, version))
            running = self._validating[uri] = (text, version, job)
            job.add_done_callback(lambda done: self._forget(uri, done))
        # Shielded: a request cancelled while it waits leaves the validation to the others.
        return await asyncio.shield(running[2])

    def _forget(self, uri: str, job: asyncio.Future[Validation | None]) -> None:
        running = self._validating.get(uri)
        if running is not None and running[2] is job:
            del self._validating[uri]

    async def _validate(self, uri: str, text: str, version: int) -> Validation | None:
        started = time.perf_counter()
        self._log(f"validating {uri} version {version}")
        found, cpu = await self.off_the_loop(self._time_diagnose, uri, text)
        current = self.workspace.text_documents.get(uri)
        if current is None or (current.version or 0) != version:
            return None  # the editor has moved on: a newer validation is scheduled
        checked = Validation(version, text, found or [])
        self.checked[uri] = checked
        self.publish(uri, checked)
        took = (time.perf_counter() - started) * 1000
        self._log(
            f"published {uri} version {version}: validated in {took:.0f} ms "
            f"(CPU {cpu * 1000:.0f} ms)"
        )
        return checked

    def _log(self, message: str) -> None:
        shown = escape(clip(message, 2000))
        self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Log, message=shown))

    async def off_the_loop(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run ``work`` on the validation thread: the editor's messages are not held up."""
        return await asyncio.get_running_loop().run_in_executor(self._worker, work, *args)

    def lines(self, uri: str, checked: Validation) -> Lines:
        """The lines of a validated text, from the open document's own index when it is that."""
        if checked.lines is None or checked.lines.encoding != self.encoding:
            document = self.workspace.text_documents.get(uri)
            starts: list[int] = []
            if isinstance(document, FastTextDocument) and document.version == checked.version:
                starts = document.line_starts()
            checked.lines = Lines(checked.text, self.encoding, starts)
        return checked.lines

    def publish(self, uri: str, checked: Validation) -> None:
        lines = self.lines(uri, checked)
        shown = [
            d
            for d in checked.diagnostics
            if self.schema_diagnostics or not sharing.is_shown_by_yaml_server(d, checked.text)
        ]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(
                uri=uri, version=checked.version, diagnostics=[to_lsp(d, lines) for d in shown]
            )
        )

    def _time_diagnose(self, uri: str, text: str) -> tuple[list[Diagnostic] | None, float]:
        started = time.thread_time()
        found = self._diagnose(uri, text)
        return found, time.thread_time() - started

    def _diagnose(self, uri: str, text: str) -> list[Diagnostic] | None:
        roots = self.roots()
        return checking.diagnose(_path(uri), text, roots, readings=self.readings, log=self._log)

    def roots(self) -> list[Path]:
        """The workspace folders (``workspaceFolders``, else ``rootUri``), as paths."""
        uris = [f.uri for f in self.workspace.folders.values()] or [self.workspace.root_uri]
        return [Path(path) for path in map(_fs_path, uris) if path]

    async def current(self, uri: str, version: int | None = None) -> Validation | None:
        """The validation of the document as it is now (validated now if need be)."""
        document = self.workspace.text_documents.get(uri)
        if document is None or (version is not None and document.version != version):
            return None
        checked = self.checked.get(uri)
        if checked is None or checked.version != document.version:
            checked = await self.validate(uri)
        return checked

    async def apply(self, uri: str, checked: Validation, edits: list[fixes.Edit]) -> bool:
        """Ask the editor to make ``edits`` to the validated version; whether it did."""
        lines = self.lines(uri, checked)
        text_edits = [
            lsp.TextEdit(range=_range(lines, e.start, e.end), new_text=e.new_text) for e in edits
        ]
        document = lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=checked.version)
        edit = lsp.WorkspaceEdit(
            document_changes=[lsp.TextDocumentEdit(text_document=document, edits=text_edits)]
        )
        params = lsp.ApplyWorkspaceEditParams(edit=edit, label="holodeck-mt")
        return bool((await self.workspace_apply_edit_async(params)).applied)


def to_lsp(d: Diagnostic, lines: Lines) -> lsp.Diagnostic:
    start = lines.from_validator(d.line, d.column)
    end_line = d.end_line if d.end_line is not None else d.line
    end_column = d.end_column if d.end_column is not None else d.column
    end = lines.from_validator(end_line, end_column)
    message = escape(d.message)
    if d.hint is not None:  # on a second line: few editors show ``data``
        message += f"\n{HINT}{escape(d.hint)}"
    return lsp.Diagnostic(
        range=lsp.Range(start=lsp.Position(*start), end=lsp.Position(*max(start, end))),
        message=message,
        severity=lsp.DiagnosticSeverity[d.severity.capitalize()],
        code=d.code,
        code_description=lsp.CodeDescription(href=code_docs(d.code)),
        source=SOURCE,
        data={
            key: escape(value) if value is not None else None
            for key, value in (("path", d.path), ("test_case", d.test_case), ("hint", d.hint))
        },
    )


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri)


def _fs_path(uri: str | None) -> str | None:
    """The file system path of a ``file:`` URI; None for another scheme or no URI."""
    if not uri or not uri.startswith("file:"):
        return None
    try:
        return to_fs_path(uri)
    except ValueError:
        return None


def _arguments(command: str, arguments: tuple[Any, ...]) -> tuple[str, int, list[fixes.Edit]]:
    """``[uri, version]``, and for applyFix ``[{start, end, newText}, ...]``; else -32602."""
    if command == FIX_ALL:
        usage, ok = "[uri, version]", len(arguments) == 2
    else:
        usage = "[uri, version, [{start, end, newText}, ...]]"
        ok = len(arguments) == 3 and isinstance(arguments[2], list) and bool(arguments[2])
    if not ok:
        raise invalid(f"{command} takes {usage}")
    try:
        edits = arguments[2] if command == APPLY_FIX else []
        chosen = [fixes.Edit(int(e["start"]), int(e["end"]), str(e["newText"])) for e in edits]
        return str(arguments[0]), int(arguments[1]), chosen
    except (KeyError, TypeError, ValueError) as e:
        raise invalid(f"{command}: {e}") from None


def _range(lines: Lines, start: int, end: int) -> lsp.Range:
    return lsp.Range(
        start=lsp.Position(*lines.from_offset(start)), end=lsp.Position(*lines.from_offset(end))
    )


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    a0, a1, b0, b1 = ((p.line, p.character) for p in (a.start, a.end, b.start, b.end))
    return a0 <= b1 and b0 <= a1


server = HoloDeckServer()


@server.feature(lsp.INITIALIZE)
def initialize(ls: HoloDeckServer, params: lsp.InitializeParams) -> None:
    documents.install(ls.workspace)
    # The sample runs on the worker before the first document (one job at a time there).
    ls._worker.submit(checking.warm)
    ls.schema_diagnostics = sharing.schema_diagnostics(
        params.initialization_options, ls.schema_diagnostics
    )


@server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: HoloDeckServer, params: lsp.DidChangeConfigurationParams) -> None:
    """A changed ``holodeck-mt.schemaDiagnostics`` republishes every open document."""
    chosen = sharing.schema_diagnostics(params.settings, ls.schema_diagnostics)
    if chosen == ls.schema_diagnostics:
        return
    ls.schema_diagnostics = chosen
    for uri, checked in list(ls.checked.items()):
        ls.publish(uri, checked)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: HoloDeckServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: HoloDeckServer, params: lsp.DidChangeTextDocumentParams) -> None:
    """The first edit after a pause is validated at once; the edits that follow it closely
    are debounced into one validation when they pause (a burst costs two at most)."""
    uri = params.text_document.uri
    now = time.monotonic()
    quiet = now - ls.last_edit.get(uri, -DEBOUNCE) > DEBOUNCE
    ls.last_edit[uri] = now
    ls.schedule(uri, 0 if quiet else DEBOUNCE)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: HoloDeckServer, params: lsp.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    document = ls.workspace.text_documents.get(uri)
    checked = ls.checked.get(uri)
    if document is not None and checked is not None and checked.version == document.version:
        ls.publish(uri, checked)  # validated as saved already: published again, not redone
        return
    ls.schedule(uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: HoloDeckServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    pending = ls._pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    ls.checked.pop(uri, None)
    ls.readings.pop(str(_path(uri)), None)
    ls.last_edit.pop(uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL_KIND]),
)
async def code_action(
    ls: HoloDeckServer, params: lsp.CodeActionParams
) -> list[lsp.CodeAction] | None:
    uri = params.text_document.uri
    checked = await ls.current(uri)
    if checked is None:
        return None
    lines = ls.lines(uri, checked)
    found = await ls.off_the_loop(fixes.fixes, checked.text, checked.diagnostics)
    actions: list[lsp.CodeAction] = []
    for fix in found:
        diagnostic = to_lsp(fix.diagnostic, lines)
        if not _overlaps(diagnostic.range, params.range):
            continue
        title = fix.title if fix.safe else f"{fix.title} (unsafe: changes what the test asserts)"
        edits = [{"start": e.start, "end": e.end, "newText": e.new_text} for e in fix.edits]
        actions.append(
            lsp.CodeAction(
                title=title,
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=fix.safe,
                command=lsp.Command(
                    title=title, command=APPLY_FIX, arguments=[uri, checked.version, edits]
                ),
            )
        )
    if any(f.safe for f in found):
        title = "Fix all safe holodeck-mt problems"
        actions.append(
            lsp.CodeAction(
                title=title,
                kind=FIX_ALL_KIND,
                command=lsp.Command(title=title, command=FIX_ALL, arguments=[uri, checked.version]),
            )
        )
    return actions


@server.command(APPLY_FIX)
async def apply_fix(ls: HoloDeckServer, *arguments: Any) -> bool:
    """Apply one quick fix: ``[uri, version, [{start, end, newText}, ...]]`` (text offsets)."""
    uri, version, chosen = _arguments(APPLY_FIX, arguments)
    checked = await ls.current(uri, version)
    if checked is None:
        return False  # the document changed since the fix was offered
    if not all(0 <= e.start <= e.end <= len(checked.text) for e in chosen):
        raise invalid("holodeck-mt.applyFix: an edit is outside the document")
    return await ls.apply(uri, checked, chosen)


@server.command(FIX_ALL)
async def fix_all(ls: HoloDeckServer, *arguments: Any) -> bool:
    """Apply every safe fix that does not overlap another: ``[uri, version]``."""
    uri, version, _ = _arguments(FIX_ALL, arguments)
    checked = await ls.current(uri, version)
    if checked is None:
        return False
    found = await ls.off_the_loop(fixes.fixes, checked.text, checked.diagnostics)
    _, applied = fixes.apply(checked.text, [f for f in found if f.safe])
    edits = sorted({e for f in applied for e in f.edits})
    return bool(edits) and await ls.apply(uri, checked, edits)


def serve(version: str) -> None:
    """Answer an editor on standard input and output, as holodeck-mt ``version``."""
    server.version = version
    logs = logging.getLogger("pygls")
    logs.addHandler(OneLine(logging.WARNING))
    logs.propagate = False
    server.start_io(stdin=FramedInput(sys.stdin.buffer))  # type: ignore[arg-type]
