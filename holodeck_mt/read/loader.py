"""YAML text to plain JSON-shaped data, read exactly as the platform's ``yaml.safe_load``.

Syntax by libyaml, checked against PyYAML's own parser where the two may part (below);
scalars by YAML 1.1 (``scalars``); data and positions from the events (``builder``, or
the compiled builder where it was built: C over libyaml, several times faster).
"""

from __future__ import annotations

import bisect
import gc
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from holodeck_mt import model as dg
from holodeck_mt.limits import Limits
from holodeck_mt.model import clip
from holodeck_mt.read import builder as bd
from holodeck_mt.read import scalars as sc
from holodeck_mt.read.builder import EMPTY, Abort, Builder, DialectNote
from holodeck_mt.read.decoding import decode, nul_diagnostic
from holodeck_mt.text.lines import LINE_BREAKS, YAML_BREAKS
from holodeck_mt.text.positions import Positions, line_column

if TYPE_CHECKING:  # PyYAML is imported only for a text the compiled builder declines
    from yaml.error import YAMLError

__all__ = ["DialectNote", "Document", "Index", "Positions", "decode", "load"]


#: Which positions to keep: every one, none, or the root's and its children's.
Index = Literal["all", "none", "top"]


@dataclass
class Document:
    """A loaded YAML file: its data, where everything stands, and what went wrong."""

    text: str
    data: Any = None
    positions: Positions | None = None
    #: Which positions :attr:`positions` holds (see :data:`Index`).
    index: Index = "none"
    #: Whether a report would name a line more precisely with every position.
    needs_index: bool = False
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    #: False when the file could not be read into data at all (syntax error, limit).
    loaded: bool = False
    #: Nodes the loader reported; the schema's errors at or below them are echoes.
    reported: set[dg.JsonPath] = field(default_factory=set)
    #: True when the data holds values a compiled validator cannot take (YamlScalar).
    has_non_json: bool = False
    #: Plain scalars the platform (YAML 1.1) and editors (YAML 1.2) read differently.
    dialect: list[DialectNote] = field(default_factory=list)


_INDEX_DEPTHS: dict[Index, int | None] = {"all": sys.maxsize, "none": None, "top": 1}

_COLLECTOR = threading.Lock()
_PAUSES = 0
_RESUME = False


@contextmanager
def _pause_collector() -> Iterator[None]:
    """The cyclic collector paused while documents are built (a million containers and no
    cycles, walked again by every collection), until the last build across threads leaves."""
    global _PAUSES, _RESUME
    with _COLLECTOR:
        if _PAUSES == 0:
            _RESUME = gc.isenabled()
            gc.disable()
        _PAUSES += 1
    try:
        yield
    finally:
        with _COLLECTOR:
            _PAUSES -= 1
            if _PAUSES == 0 and _RESUME:
                gc.enable()


def load(text: str, *, limits: Limits | None = None, positions: bool | Index = True) -> Document:
    """Load YAML text into a :class:`Document`, keeping the ``positions`` of :data:`Index`
    (True: ``"all"``, False: ``"none"``); the loader's own diagnostics are located anyway."""
    limits = limits or Limits()
    index = "all" if positions is True else "none" if positions is False else positions
    doc = Document(text=text)
    nul = nul_diagnostic(text)
    if nul is not None:
        doc.diagnostics.append(nul)
        return doc
    try:
        with _pause_collector():
            built = _build_as_the_platform(text, limits, _INDEX_DEPTHS[index])
    except Abort as abort:
        doc.diagnostics.append(abort.diagnostic)
        return doc
    except UnicodeEncodeError as e:  # text from the API holding a lone surrogate
        line, column = line_column(text, e.start)
        message = f"the text holds a lone surrogate U+{ord(text[e.start]):04X}, which is not UTF-8"
        doc.diagnostics.append(dg.make("HMT005", message, line, column))
        return doc
    except Exception as e:
        from yaml.error import YAMLError

        if not isinstance(e, YAMLError):
            raise
        doc.diagnostics.append(_syntax_error(text, e))
        return doc
    doc.diagnostics = built.diagnostics
    doc.needs_index = built.needs_index
    doc.reported = built.reported
    doc.has_non_json = built.has_non_json
    doc.dialect = built.dialect
    if built.result is EMPTY:
        doc.diagnostics.append(
            dg.make("HMT006", "the file is empty: it holds no YAML document", 1, 1)
        )
        return doc
    doc.data = built.result
    doc.positions = built.positions
    doc.index = index
    doc.loaded = True
    return doc


def _compiled_module() -> ModuleType | None:
    """The compiled builder (``_fastbuild``, C over libyaml, several times faster than
    :class:`Builder` on the common document), unless ``HOLODECK_MT_PURE_BUILDER=1``;
    ``HOLODECK_MT_REQUIRE_COMPILED=1`` makes its absence an error."""
    if os.environ.get("HOLODECK_MT_PURE_BUILDER", "") not in ("", "0"):
        return None
    try:
        from holodeck_mt.read import _fastbuild
    except ImportError:
        if os.environ.get("HOLODECK_MT_REQUIRE_COMPILED", "") not in ("", "0"):
            raise
        return None
    return _fastbuild


_FAST = _compiled_module()
#: Whether the compiled builder is here.
COMPILED = _FAST is not None


def build_compiled(text: str, limits: Limits, index_depth: int | None) -> Builder | None:
    """The text as :class:`Builder` reads it, built in C; None: left to :class:`Builder`."""
    if _FAST is None:
        return None
    reference = Builder(limits, index_depth, text)
    built = _FAST.build(
        text,
        bd.plain_value,
        bd.NOT_PLAIN,
        sc.TYPED_FIRST,
        reference.index_depth,
        reference.ends_depth,
        reference.ends_left,
        limits.max_depth,
        reference.quoted_spans,
        reference.watch_question,
        bd.CACHE_SIZE,
    )
    if built is None:
        return None
    data, root, keys, values, value_ends, spans = built
    if reference.positions is not None:
        reference.positions = Positions(root=root, keys=keys, values=values, value_ends=value_ends)
    reference.spans = spans
    reference.result = data
    return reference


#: The largest text the pure-Python parser (about 1 MB/s) reads again.
PURE_MAX_CHARS = 8 * 1024 * 1024

#: A block scalar header the pure-Python parser takes (spaces, not tabs, before a comment).
_BLOCK_HEADER = re.compile(
    rf"[|>](?:[-+][0-9]?|[0-9][-+]?)?(?: +#[^{LINE_BREAKS}]*| *)(?:[{LINE_BREAKS}]|\Z)"
)


class EventSource(NamedTuple):
    """``get_event()`` over a text, and ``close()`` to free the parser."""

    get_event: Callable[[], Any]
    close: Callable[[], None]


def libyaml(text: str) -> EventSource:
    # PyYAML is imported on first use: the compiled builder's runs never need it.
    try:
        from yaml._yaml import CParser
    except ImportError as missing:  # pragma: no cover - exercised only without libyaml
        raise ImportError(
            "holodeck-mt needs PyYAML built with libyaml (its C binding, yaml.CParser); "
            "reinstall PyYAML from a wheel: pip install --force-reinstall 'PyYAML>=6.0.1'"
        ) from missing
    parser = CParser(text)
    return EventSource(parser.get_event, lambda: None)


def pure(text: str) -> EventSource:
    from yaml import SafeLoader

    loader = SafeLoader(text)
    return EventSource(loader.get_event, loader.dispose)


def libyaml_may_differ(text: str, scalars: list[tuple[int, int, str]]) -> bool:
    """Whether the pure-Python parser could read the text otherwise (``scalars``: spans)."""
    if text.find("\ufeff", 1) >= 0:
        return True
    spans = []
    for start, end, style in scalars:
        indicator = text.find(style, start, end)  # after the node's anchor and tag
        if indicator < 0:
            return True
        if style in "|>" and _BLOCK_HEADER.match(text, indicator) is None:
            return True
        spans.append((indicator, end))
    return "\t" in text and stray_tab(text, spans) is not None


def stray_tab(text: str, spans: list[tuple[int, int]]) -> int | None:
    """The offset of the first tab outside the ``spans`` of scalars and outside a comment."""
    starts = [start for start, _ in spans]
    tab = text.find("\t")
    while tab >= 0:
        inside = _span_at(spans, starts, tab)
        if inside is not None:
            tab = text.find("\t", inside[1])
            continue
        line_start = max(text.rfind(brk, 0, tab) for brk in LINE_BREAKS) + 1
        if not _in_comment(text, line_start, tab, spans, starts):
            return tab
        line_end = YAML_BREAKS.search(text, tab)
        if line_end is None:
            return None
        tab = text.find("\t", line_end.start())
    return None


def _span_at(
    spans: list[tuple[int, int]], starts: list[int], offset: int
) -> tuple[int, int] | None:
    i = bisect.bisect_right(starts, offset) - 1
    if i >= 0 and spans[i][0] <= offset < spans[i][1]:
        return spans[i]
    return None


def _in_comment(
    text: str, line_start: int, offset: int, spans: list[tuple[int, int]], starts: list[int]
) -> bool:
    """Whether a comment starts on this line before ``offset``."""
    hash_at = text.find("#", line_start, offset)
    while hash_at >= 0:
        before = text[hash_at - 1] if hash_at > line_start else " "
        if before in " \t" and _span_at(spans, starts, hash_at) is None:
            return True
        hash_at = text.find("#", hash_at + 1, offset)
    return False


def load_as_needed(text: str, limits: Limits) -> Document:
    """The document of ``text`` with the positions of its two top levels, every one when a
    report would name a line only the full index holds (a duplicate's first): most files
    need no full index (time, and most of a reading's memory)."""
    doc = load(text, limits=limits, positions="top")
    return load(text, limits=limits, positions="all") if doc.needs_index else doc


def _build_as_the_platform(text: str, limits: Limits, positions: int | None) -> Builder:
    """Build with libyaml; read again with PyYAML's own parser where the two may part."""
    second_opinion = len(text) <= PURE_MAX_CHARS
    fast = build_compiled(text, limits, positions)
    if fast is not None and not (second_opinion and libyaml_may_differ(text, fast.spans)):
        return fast
    from yaml.error import YAMLError

    try:
        built = _build(text, libyaml(text), limits, positions)
    except (YAMLError, Abort) as refused:  # the platform's parser may fail elsewhere
        if not second_opinion:
            raise
        try:
            return _build(text, pure(text), limits, positions)
        except YAMLError as also_refused:
            raise _first(also_refused, refused) from None
    if second_opinion and (built.flow_differs or libyaml_may_differ(text, built.spans)):
        return _build(text, pure(text), limits, positions)
    return built


def _first(platform: YAMLError, libyaml: YAMLError | Abort) -> YAMLError:
    """Of two parsers' errors, the platform's; libyaml's (explained better) if on the same line."""
    from yaml.error import MarkedYAMLError

    if not isinstance(platform, MarkedYAMLError) or not isinstance(libyaml, MarkedYAMLError):
        return platform  # a character the platform refuses anywhere in the text
    ours, theirs = platform.problem_mark, libyaml.problem_mark
    if ours is not None and theirs is not None and ours.line == theirs.line:
        return libyaml
    return platform


def _build(text: str, source: EventSource, limits: Limits, positions: int | None) -> Builder:
    builder = Builder(limits, positions, text)
    try:
        builder.stream(source.get_event)
    finally:
        source.close()
    return builder


def _syntax_error(text: str, e: YAMLError) -> dg.Diagnostic:
    """HMT001 for a text the platform's parser refuses, at the line it names."""
    from yaml.error import MarkedYAMLError
    from yaml.reader import ReaderError

    if isinstance(e, ReaderError):
        line, column = line_column(text, e.position)
        shown = f"U+{e.character:04X}" if isinstance(e.character, int) else repr(e.character)
        message = f"YAML syntax error: control characters are not allowed ({shown})"
        return dg.make("HMT001", message, line, column)
    if isinstance(e, MarkedYAMLError):
        from holodeck_mt.read import yaml_errors  # a file that parses never needs it (start-up)

        pm, cm = e.problem_mark, e.context_mark
        said = yaml_errors.explain(
            text,
            e.problem,
            (pm.line, pm.column) if pm is not None else None,
            e.context,
            (cm.line, cm.column) if cm is not None else None,
        )
        return dg.make("HMT001", said.message, said.line, said.column, hint=said.hint)
    message = clip(str(e).splitlines()[0], 200) if str(e) else type(e).__name__
    position = getattr(e, "position", None)
    line, column = line_column(text, position) if isinstance(position, int) else (1, 1)
    return dg.make("HMT001", f"YAML error: {message}", line, column)
