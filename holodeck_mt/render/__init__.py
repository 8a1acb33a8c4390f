"""Renderers: one diagnostic record, many formats, chosen by ``--format``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from holodeck_mt.pipeline import FileResult


Renderer = Callable[[Sequence["FileResult"], TextIO], None]


#: The ``--format`` names; each renderer's module is imported only when it is used.
FORMATS = ("text", "json", "github", "sarif", "junit")


def renderer(name: str) -> Renderer:
    """The renderer of one format (importing only its module: start-up time counts)."""
    if name == "text":
        from holodeck_mt.render import text

        return text.render
    if name == "json":
        from holodeck_mt.render import json_format

        return json_format.render
    if name == "github":
        from holodeck_mt.render import github

        return github.render
    if name == "sarif":
        from holodeck_mt.render import sarif

        return sarif.render
    if name == "junit":
        from holodeck_mt.render import junit

        return junit.render
    raise KeyError(name)


def renderers() -> dict[str, Renderer]:
    return {name: renderer(name) for name in FORMATS}
