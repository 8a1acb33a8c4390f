"""Open documents that take an edit in time proportional to the edit, not to the file:
pygls splits and rejoins the whole text on each change (a third of a second per keystroke
on an 11 MB file); here the text keeps its line starts and shifts those after the edit.
"""

from __future__ import annotations

import bisect
import itertools
import types
from typing import Any

from lsprotocol import types as lsp
from pygls.workspace import TextDocument, Workspace

from holodeck_mt.lsp.positions import UTF16, UTF32, line_starts, units
from holodeck_mt.text.lines import CR_LF_BREAKS as _LINE_BREAK


class FastTextDocument(TextDocument):
    _starts: list[int] | None = None

    @property
    def _text(self) -> str:
        return self._source or ""

    def line_starts(self) -> list[int]:
        """A copy of the offsets where the text's lines start (LSP's line breaks)."""
        return list(self._line_starts())

    def _line_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = line_starts(self._text)
        return self._starts

    def _offset(self, position: lsp.Position, encoding: str) -> int:
        starts = self._line_starts()
        source = self._text
        if position.line >= len(starts):
            return len(source)
        start = starts[position.line]
        end = starts[position.line + 1] if position.line + 1 < len(starts) else len(source)
        line = source[start:end].rstrip("\r\n")
        if encoding == UTF32 or line.isascii():  # a code unit a character: no count
            return start + min(position.character, len(line))
        counts = itertools.accumulate((units(char, encoding) for char in line), initial=0)
        reached = (i for i, n in enumerate(counts) if n >= position.character)
        return start + next(reached, len(line))

    def _apply_incremental_change(self, change: lsp.TextDocumentContentChangePartial) -> None:
        encoding = str(self._position_codec.encoding or UTF16)
        source = self._text
        start = self._offset(change.range.start, encoding)
        end = max(start, self._offset(change.range.end, encoding))
        text = change.text
        self._source = "".join((source[:start], text, source[end:]))
        touches_cr = (
            "\r" in text or source[start - 1 : start] == "\r" or "\r" in source[end : end + 1]
        )
        if self._starts is None or touches_cr:
            self._starts = None  # a CR LF pair may be made or split: count afresh
            return
        starts = self._starts
        first = bisect.bisect_right(starts, start)  # lines starting after the edit's start
        last = bisect.bisect_right(starts, end)  # ... and after its end: they shift
        delta = len(text) - (end - start)
        inserted = [start + m.end() for m in _LINE_BREAK.finditer(text)]
        if first == last and not inserted and delta == 0:
            return  # within a line, as long as what it replaced: no line moves
        shifted = starts[last:] if delta == 0 else [s + delta for s in starts[last:]]
        starts[first:] = inserted + shifted


def install(workspace: Workspace) -> None:
    """Make the workspace create :class:`FastTextDocument` for the documents opened next."""
    original = workspace._create_text_document

    def create(self: Workspace, *args: Any, **kwargs: Any) -> TextDocument:
        document = original(*args, **kwargs)
        document.__class__ = FastTextDocument
        return document

    workspace._create_text_document = types.MethodType(create, workspace)  # type: ignore[method-assign]
