"""Renderers: one diagnostic record, many formats, chosen by ``--format``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from holodeck_mt.validate import FileResult

Renderer = Callable[[Sequence[FileResult], TextIO], None]


def renderers() -> dict[str, Renderer]:
    from holodeck_mt.render import github, json_format, junit, sarif, text

    return {
        "text": text.render,
        "json": json_format.render,
        "github": github.render,
        "sarif": sarif.render,
        "junit": junit.render,
    }
