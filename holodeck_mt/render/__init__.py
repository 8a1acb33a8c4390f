"""Renderers: one diagnostic record, many formats, chosen by ``--format``."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult


Renderer = Callable[[Sequence["FileResult"], TextIO], None]


#: Each ``--format`` name and the module of ``holodeck_mt.render`` that renders it. A new
#: format is one module with a ``render(results, stream)`` function and one line here.
MODULES = {
    "text": "text",
    "json": "json_format",
    "github": "github",
    "sarif": "sarif",
    "junit": "junit",
    "markdown": "markdown",
}
#: The ``--format`` names, in the order ``--help`` lists them.
FORMATS = tuple(MODULES)


def renderer(name: str) -> Renderer:
    """The renderer of one format, importing only its module (start-up time counts)."""
    module = importlib.import_module(f"holodeck_mt.render.{MODULES[name]}")
    render: Renderer = module.render
    return render


def configure(render: Renderer, *, colour: str = "auto", quiet: bool = False) -> Renderer:
    """``render`` given ``colour`` and ``quiet`` (no summary) if it takes them (keyword-only)."""
    takes = getattr(render, "__kwdefaults__", None) or {}
    chosen = {k: v for k, v in (("colour", colour), ("quiet", quiet)) if k in takes}
    return functools.partial(render, **chosen) if chosen else render
