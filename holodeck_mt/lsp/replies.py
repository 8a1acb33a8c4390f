"""Every request gets an answer: one pygls cannot even read gets a JSON-RPC error.

pygls never answers a request whose params it cannot read (the client waits for ever):
here it gets ``-32602``. After ``shutdown`` pygls drops every message but ``exit``; here
a request gets ``-32600``, as LSP asks.
"""

from __future__ import annotations

from typing import Any

from lsprotocol.types import EXIT
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol

from holodeck_mt.text.safe_text import clip, escape


class AnsweringProtocol(LanguageServerProtocol):
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
