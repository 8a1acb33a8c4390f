"""Every request gets an answer: one pygls cannot even read gets a JSON-RPC error.

pygls turns a request whose params do not fit the method's type into an exception
raised while the message is read: the request is logged and never answered, and a
client waits for ever. Here such a request is answered with ``Invalid Params``
(``-32602``), its id echoed when it is one JSON-RPC allows. A command's arguments
that are not what the command takes raise :func:`invalid` for the same answer,
without the server's traceback in it. After ``shutdown``, pygls drops every message
but ``exit``; here a request is answered ``Invalid Request`` (``-32600``), as LSP asks,
and a notification is still dropped.
"""

from __future__ import annotations

from typing import Any

from lsprotocol.types import EXIT
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol

from holodeck_mt.text.safe_text import clip, escape


class AnsweringProtocol(LanguageServerProtocol):
    """The LSP protocol, answering a request it cannot read instead of dropping it."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            request_id = data.get("id")
            if "method" in data and isinstance(request_id, (int, str)) and request_id is not True:
                answer = _shut_down() if self._after_shutdown(data.get("method")) else error
                self._send_response(request_id, error=answer.to_response_error())
            raise

    def handle_message(self, message: Any) -> None:
        method, request_id = getattr(message, "method", None), getattr(message, "id", None)
        if self._after_shutdown(method) and request_id is not None:
            self._send_response(request_id, error=_shut_down().to_response_error())
            return
        super().handle_message(message)

    def _after_shutdown(self, method: object) -> bool:
        """Whether a message of ``method`` comes after ``shutdown``, and is not ``exit``."""
        return bool(self._shutdown) and isinstance(method, str) and method != EXIT


def _shut_down() -> JsonRpcInvalidRequest:
    return JsonRpcInvalidRequest("Invalid Request: the server is shut down")


def invalid(why: str) -> JsonRpcInvalidParams:
    """The error a handler raises for arguments it cannot take (``-32602``)."""
    return JsonRpcInvalidParams(f"Invalid Params: {escape(clip(why, 200))}")
