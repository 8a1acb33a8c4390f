"""A result keeps only the lines its diagnostics quote; the text format shows the same.

The validate command drops each file's text once validated (a run over many large
files would hold them all), keeping the lines the text renderer quotes, numbered as
``str.splitlines`` numbers them.
"""

from __future__ import annotations

import io

import pytest

from holodeck_mt.model import FileResult, make
from holodeck_mt.render import renderer
from holodeck_mt.text.lines import keep_quoted

TEXTS = [
    "a: 1\nb: 2\nc: 3\n",
    "a: 1\r\nb: 2\r\nc: 3",
    "a: 1\rb: 2\rc: 3\r",
    "a: 1\x0bb: 2\x0cc: 3\x1cd\x85e\u2028f\u2029g\n",
    "a: 1\n\n\nc: 3\n\n",
    "",
]


def _text(result: FileResult) -> str:
    out = io.StringIO()
    renderer("text")([result], out)
    return out.getvalue()


@pytest.mark.parametrize("text", TEXTS, ids=repr)
def test_the_kept_lines_show_as_the_whole_text_does(text: str) -> None:
    lines = len(text.splitlines())
    diagnostics = [make("HMT100", "m", line, 1) for line in range(1, lines + 3)]
    whole = FileResult(path="a.yaml", diagnostics=diagnostics, text=text)
    kept = FileResult(path="a.yaml", diagnostics=diagnostics, text=text)
    keep_quoted(kept)
    assert kept.text is None
    assert _text(kept) == _text(whole)
    assert kept.quoted_lines() == whole.quoted_lines()
    assert whole.quoted_lines() == dict(enumerate(text.splitlines(), start=1))


def test_only_the_quoted_lines_are_kept() -> None:
    text = "".join(f"k{i}: {i}\n" for i in range(10_000))
    result = FileResult(path="a.yaml", diagnostics=[make("HMT100", "m", 5000, 1)], text=text)
    keep_quoted(result)
    assert result.quoted == {5000: "k4999: 4999"}


def test_a_result_without_diagnostics_keeps_no_line() -> None:
    result = FileResult(path="a.yaml", text="a: 1\n")
    keep_quoted(result)
    assert result.quoted == {} and result.text is None
