"""The language server's input, framed defensively (docs/limits.md): pygls trusts
``Content-Length``, so :class:`FramedInput` hands it only well-formed frames."""

from __future__ import annotations

import logging
import re
from collections import deque
from typing import BinaryIO

from holodeck_mt.limits import MAX_FILE_BYTES
from holodeck_mt.model import clip
from holodeck_mt.text import safe_text

#: The longest header line read as such.
MAX_HEADER = 8192
#: The largest frame body: a document at the file limit, every character escaped once.
MAX_FRAME = 2 * MAX_FILE_BYTES + 65536
_LENGTH = re.compile(rb"[ \t]*content-length[ \t]*:[ \t]*(\S*)[ \t]*", re.IGNORECASE)
_HEADER_AT = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)


class FramedInput:
    """A binary stream for pygls' reader: ``readline`` gives headers, ``read`` the body."""

    def __init__(self, raw: BinaryIO, max_frame: int = MAX_FRAME, *, quiet: bool = False) -> None:
        self._raw = raw
        self._quiet = quiet
        self._max_frame = max_frame
        self._lines: deque[bytes] = deque()
        self._body = b""

    def readline(self) -> bytes:
        if not self._lines:
            body = self._next_frame()
            if body is None:
                return b""
            self._lines.extend((b"Content-Length: %d\r\n" % len(body), b"\r\n"))
            self._body = body
        return self._lines.popleft()

    def read(self, size: int = -1) -> bytes:
        body, self._body = self._body, b""
        return body

    def _next_frame(self) -> bytes | None:
        """The next well-formed frame's body; None at the end of the input."""
        while True:
            length = self._headers()
            if length is None:
                return None
            if length < 0:
                continue
            body = self._raw.read(length)
            return body if len(body) == length else None

    def _headers(self) -> int | None:
        """The next frame's length, -1 when it is dropped, None at the end; a line that is
        no header is a dropped frame's body: the frame starts again after it."""
        length: int | None = None
        bad: str | None = None
        seen = False
        while True:
            line = self._raw.readline(MAX_HEADER + 1)
            if not line:
                return None
            if len(line) > MAX_HEADER and not line.endswith(b"\n"):
                self._skip_long_line()  # junk: its frame is dropped, the next one read
                self._drop("a line over 8 KiB where a header belongs")
                length, bad, seen = None, None, False
                continue
            if not line.strip():
                if seen:
                    break
                continue  # a blank line between frames
            found = _HEADER_AT.search(line)
            junk = b":" not in line if found is None else found.start() > 0
            if junk:
                length, bad, seen = None, None, False  # junk: start again after it
                if found is None:
                    continue
                line = line[found.start() :]
            seen = True
            matched = _LENGTH.fullmatch(line.rstrip(b"\r\n"))
            if matched is not None:
                length, why = self._length(matched.group(1))
                bad = bad or why
        if bad is None and length is None:
            bad = "a frame without Content-Length"
        if bad is not None:
            self._drop(bad)
            return -1
        return length

    def _length(self, value: bytes) -> tuple[int | None, str | None]:
        """A ``Content-Length`` value as a length, or why it is refused."""
        if not value.isdigit() or len(value) > 15:
            return None, f"Content-Length {clip(value.decode('latin-1'), 40)!r}"
        if int(value) > self._max_frame:
            return None, f"Content-Length {int(value):,}, over {self._max_frame:,}"
        return int(value), None

    def _skip_long_line(self) -> None:
        while True:
            piece = self._raw.readline(MAX_HEADER + 1)
            if not piece or piece.endswith(b"\n"):
                return

    def _drop(self, why: str) -> None:
        if not self._quiet:
            say(f"dropped a message: {why}")


def say(line: str) -> None:
    safe_text.say(line, 300, "holodeck-mt lsp: ")


class OneLine(logging.Handler):
    """pygls' warnings as one line each, never a traceback: a frame it cannot read (not
    JSON, not an object, not a message) is one line, however many records pygls logs."""

    def emit(self, record: logging.LogRecord) -> None:
        message = str(record.msg)
        if message.startswith("Unable to deserialize"):
            return  # the frame's own record follows, with the error
        error = record.exc_info[1] if record.exc_info else None
        if not message.startswith("Unable to handle") or error is None:
            say(record.getMessage())
        elif isinstance(error, ValueError):
            say(f"dropped a message: not JSON ({error})")
        else:
            say("dropped a message: not a JSON-RPC message")
