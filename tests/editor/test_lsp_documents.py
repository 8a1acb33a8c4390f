"""The server's open documents apply an edit as pygls does, in time proportional to the edit.

Property: any sequence of edits inside the lines (LSP's ranges, UTF-16 columns) leaves the
fast document with the same text as pygls' own, whatever the line endings, and the lines
it knows where they start are those of that text (the next edit and the diagnostics'
positions are found through them).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

from lsprotocol import types as lsp
from pygls.workspace import TextDocument

from holodeck_mt.lsp.documents import FastTextDocument
from holodeck_mt.lsp.positions import line_starts

pieces = st.sampled_from(["a", "é", "😀", " ", ":", "\n", "\r\n", "\r", "- x: 1\n"])
texts = st.lists(pieces, max_size=40).map("".join)


def _fast(text: str) -> FastTextDocument:
    document = TextDocument("file:///x.yaml", text, version=1)
    document.__class__ = FastTextDocument
    assert isinstance(document, FastTextDocument)
    return document


@st.composite
def edits(draw: st.DrawFn, text: str) -> lsp.TextDocumentContentChangePartial:
    lines = TextDocument("file:///x.yaml", text).lines or [""]

    def position() -> lsp.Position:
        line = draw(st.integers(0, len(lines) - 1))
        width = len(lines[line].rstrip("\r\n").encode("utf-16-le")) // 2
        character = draw(st.integers(0, width))
        return lsp.Position(line=line, character=character)

    start, end = sorted([position(), position()], key=lambda p: (p.line, p.character))
    return lsp.TextDocumentContentChangePartial(
        range=lsp.Range(start=start, end=end), text=draw(texts)
    )


def _starts(text: str) -> list[int]:
    """Where the lines start, by LSP's definition: after each LF, CR LF and lone CR."""
    return [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]


@settings(max_examples=200, deadline=None)
@given(st.data(), texts)
def test_edits_give_the_text_pygls_gives(data: st.DataObject, text: str) -> None:
    reference = TextDocument("file:///x.yaml", text, version=1)
    fast = _fast(text)
    for _ in range(data.draw(st.integers(1, 6))):
        edit = data.draw(edits(reference.source))
        reference.apply_change(edit)
        fast.apply_change(edit)
        assert fast.source == reference.source
        assert fast.line_starts() == _starts(reference.source)


@given(texts)
def test_lines_start_after_each_lsp_line_break(text: str) -> None:
    assert line_starts(text) == _starts(text)
