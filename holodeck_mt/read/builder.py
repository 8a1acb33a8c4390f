"""Parser events to plain data, with the line and column of every key and value.

Built straight from the events (no node graph, constructor or recursion), scalars read as
the platform reads them; what it cannot read, or reads as not JSON, is a diagnostic, never
an exception or code run, and the limits hold while the events stream in.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from holodeck_mt import model as dg
from holodeck_mt.limits import Limits
from holodeck_mt.model import OWN, clip, marked
from holodeck_mt.read import scalars as sc
from holodeck_mt.text.positions import Position, Positions, of_mark

#: The message of a non-string key (``contract/platform_reading`` warns of a nested one).
NON_STRING_KEY = "a mapping key must be a string"
#: What a key that is a collection is called.
COLLECTION_KEYS = ("a mapping", "a list")

_MAP_TAG, _SEQ_TAG = sc.TAG_PREFIX + "map", sc.TAG_PREFIX + "seq"
#: Lists of one-key mappings that ``yaml.safe_load`` constructs as lists of pairs.
_PAIRS_TAGS = frozenset({sc.TAG_PREFIX + "omap", sc.TAG_PREFIX + "pairs"})
_NO_KEY = sc._Marker("NO_KEY")  # a mapping waiting for its next key
_SKIP = sc._Marker("SKIP")  # the key was rejected: drop its value
_PENDING = sc._Marker("PENDING")  # the root node is not finished yet
_MISSING = sc._Marker("MISSING")
#: What :meth:`Builder.stream` returns for a stream without a document.
EMPTY = sc._Marker("EMPTY")
#: Distinct plain scalars remembered with their reading (the common words and numbers).
CACHE_SIZE = 4096
#: The most plain scalars noted as read differently by YAML 1.1 and 1.2.
MAX_DIALECT_NOTES = 1000
#: Up to this length, every indexed value's end is noted; beyond, the root's first few.
_SMALL_TEXT = 1 << 18
_ROOT_ENDS = 64
#: How a key's type is named in a message.
_KINDS = {"int": "integer", "float": "number", "bool": "boolean", "timestamp": "date"}
#: Types of a reading that needs more than being stored.
_SPECIAL = (sc.Unconstructible, sc._Marker, sc.YamlScalar)


def _quote_if_text(shown: str | None = None) -> dg.Quote:
    """The fix of a scalar that may be meant as text: quoted, the hint says, if it is."""
    return dg.Quote(shown=shown, condition=" if it is meant as text")


class Abort(Exception):
    """A fault after which the document cannot be built (a limit, an undefined alias)."""

    def __init__(self, diagnostic: dg.Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class DialectNote:
    """A plain scalar the platform (YAML 1.1) and editors (YAML 1.2) read differently."""

    parts: dg.JsonPath
    position: Position
    text: str
    platform: Any
    editor: Any


class _Reading(NamedTuple):
    """A cached reading that differs between the two dialects."""

    platform: Any
    editor: Any


class _Frame:
    """An open mapping or list (at most ``max_depth`` at once: no slots needed)."""

    def __init__(self, container: Any, event: Any, nodes: int, pairs: bool) -> None:
        self.container = container
        self.is_map = type(container) is dict
        self.flow = bool(event.flow_style)
        self.key: Any = _NO_KEY
        self.key_mark: Any = None
        self.start_mark = event.start_mark
        self.anchor = event.anchor
        self.pairs = pairs  # an ``!!omap`` or ``!!pairs`` list
        self.nodes_at_start = nodes
        self.merged: set[str] | None = None  # keys an explicit one may override
        self.key_positions: dict[str, Position] | None = None
        self.value_positions: Any = None
        self.value_ends: Any = None


class Builder:
    """Turns one document's events into data; an explicit stack, no recursion."""

    def __init__(self, limits: Limits, index_depth: int | None, text: str) -> None:
        """``index_depth``: the deepest level indexed in :attr:`positions` (0: the root's)."""
        self.limits = limits
        self.positions = Positions() if index_depth is not None else None
        #: Values' ends noted: every one of a small text fully indexed, else the root's
        #: first few (a file of a million items keeps no end per position).
        small = index_depth == sys.maxsize and len(text) <= _SMALL_TEXT
        self.ends_depth = sys.maxsize if small else 0
        self.ends_left = sys.maxsize if small else _ROOT_ENDS
        #: The deepest indexed level (-1: none); these are given to the compiled builder too.
        self.index_depth = index_depth if index_depth is not None else -1
        self.diagnostics: list[dg.Diagnostic] = []
        self.reported: set[dg.JsonPath] = set()
        self.has_non_json = False
        self.dialect: list[DialectNote] = []
        #: (start, end, style) of block scalars, and quoted ones when the text has a tab.
        self.spans: list[tuple[int, int, str]] = []
        self.quoted_spans = "\t" in text
        self.flow_differs = False  # see _note_plain_in_flow
        #: Whether a report would name a line this index lacks (a duplicate's first).
        self.needs_index = False
        self.watch_question = "?" in text
        # anchor -> (value, size in nodes once closed or -1 while open, line)
        self._anchors: dict[str, tuple[Any, int, int]] = {}
        self._nodes = 0  # nodes built, aliases counted at their expanded size
        self._expanded = 0  # nodes reached through aliases
        self._stack: list[_Frame] = []
        self._cache: dict[str, Any] = {}
        self._repeats: dict[tuple[int, str], int] = {}
        #: The event that ended the last finished node: where the open nodes end so far.
        self._last: Any = None
        self.result: Any = EMPTY

    def stream(self, get_event: Callable[[], Any]) -> Any:
        """Read a whole stream; return its first document's data, or :data:`EMPTY`."""
        from yaml import events as ev  # here: the compiled builder's runs never need it

        get_event()  # StreamStart
        if isinstance(get_event(), ev.StreamEndEvent):
            return EMPTY
        handlers: dict[type, Callable[[Any], None]] = {
            ev.ScalarEvent: self._scalar,
            ev.MappingStartEvent: lambda event: self._open({}, event, _MAP_TAG),
            ev.SequenceStartEvent: lambda event: self._open([], event, _SEQ_TAG),
            ev.MappingEndEvent: self._collection_end,
            ev.SequenceEndEvent: self._collection_end,
            ev.AliasEvent: self._alias,
        }
        self.result = _PENDING
        while self.result is _PENDING:
            event = get_event()
            handler = handlers.get(type(event))
            if handler is None:  # pragma: no cover - parsers emit nothing else in a node
                raise self._abort("HMT001", f"unexpected {type(event).__name__}", event.start_mark)
            handler(event)
        get_event()  # DocumentEnd
        extra = get_event()
        if not isinstance(extra, ev.StreamEndEvent):
            # The platform stops reading here too: what follows is never parsed.
            self._report(
                "HMT003",
                "the file holds more than one YAML document; only the first is validated",
                extra.start_mark,
                (),
                hint="remove the `---` line, or split the documents into separate files",
            )
        return self.result

    def _scalar(self, event: Any) -> None:
        self._nodes += 1
        tag = event.tag
        if (tag is None and event.implicit[0]) or tag == "!":
            value = self._read_plain(event.value, event)
        elif tag is None:
            value = event.value
        else:
            value = self._construct(tag, event.value, event)
        style = event.style
        if style:
            if style in "|>" or self.quoted_spans:
                self.spans.append((event.start_mark.index, event.end_mark.index, style))
        elif self._stack and self._stack[-1].flow:
            self._note_plain_in_flow(event)
        if event.anchor is not None:
            self._anchor(event.anchor, value, 1, event.start_mark)
        self._last = event
        self._attach(value, event.start_mark)

    def _collection_end(self, event: Any) -> None:
        frame = self._stack.pop()
        if frame.pairs:
            self._pair_up(frame)
        if frame.anchor is not None:
            size = self._nodes - frame.nodes_at_start + 1
            self._anchors[frame.anchor] = (frame.container, size, self._anchors[frame.anchor][2])
        if frame.flow or self._last is None:
            self._last = event
        self._attach(frame.container, frame.start_mark)

    def _pair_up(self, frame: _Frame) -> None:
        """An ``!!omap``/``!!pairs`` list's one-key mappings as ``[key, value]`` pairs."""
        items = frame.container
        if not all(type(item) is dict and len(item) == 1 for item in items):
            self._report(
                "HMT003",
                "an !!omap or !!pairs list holds an item that is not a one-key mapping; "
                "the platform cannot read it",
                frame.start_mark,
                self._here(),
                hint="write each item as `- key: value`, or remove the tag",
            )
            return
        items[:] = [list(next(iter(item.items()))) for item in items]

    def _alias(self, event: Any) -> None:
        anchored = self._anchors.get(event.anchor)
        name = marked("*" + clip(event.anchor), OWN)  # only ever shown
        if anchored is None:
            raise self._abort("HMT001", f"found undefined alias {name}", event.start_mark)
        value, size, _ = anchored
        if size < 0:
            raise self._abort(
                "HMT004",
                f"alias {name} refers to a node that contains it (a recursive structure)",
                event.start_mark,
            )
        self._nodes += size
        self._expanded += size
        self._last = event
        if self._expanded > self.limits.max_alias_nodes:
            raise self._abort(
                "HMT004",
                f"aliases expand to more than {self.limits.max_alias_nodes} nodes "
                f"(at alias {name}): an alias bomb?",
                event.start_mark,
                hint="raise the limit with --max-alias-nodes if this is intended",
            )
        self._attach(value, event.start_mark)

    def _open(self, container: Any, event: Any, own_tag: str) -> None:
        self._nodes += 1
        if len(self._stack) >= self.limits.max_depth:
            raise self._abort(
                "HMT004",
                f"nesting deeper than {self.limits.max_depth} levels",
                event.start_mark,
                hint="raise the limit with --max-depth if this is intended",
            )
        tag = event.tag
        pairs = own_tag == _SEQ_TAG and tag in _PAIRS_TAGS
        if tag is not None and tag != "!" and tag != own_tag and not pairs:
            self._report_tag(
                tag, event.start_mark, COLLECTION_KEYS[0 if own_tag == _MAP_TAG else 1]
            )
        frame = _Frame(container, event, self._nodes, pairs)
        if self.positions is not None and len(self._stack) <= self.index_depth:
            frame.value_positions = {} if frame.is_map else []
            self.positions.values[id(container)] = frame.value_positions
            if len(self._stack) <= self.ends_depth:
                frame.value_ends = {}
                self.positions.value_ends[id(container)] = frame.value_ends
            if frame.is_map:
                frame.key_positions = {}
                self.positions.keys[id(container)] = frame.key_positions
        if event.anchor is not None:
            self._anchor(event.anchor, container, -1, event.start_mark)
        self._stack.append(frame)

    def _attach(self, value: Any, mark: Any) -> None:
        """Put a finished node into the innermost open collection (or make it the root)."""
        if not self._stack:
            if self.positions is not None:
                self.positions.root = of_mark(mark)
            self.result = value
            return
        frame = self._stack[-1]
        if not frame.is_map:
            frame.container.append(value)
            if frame.value_positions is not None:
                frame.value_positions.append((mark.line + 1, mark.column + 1))
                if frame.value_ends is not None and self.ends_left:
                    self.ends_left -= 1
                    frame.value_ends[len(frame.value_positions) - 1] = (
                        mark.index,
                        end_record(self._last),
                    )
        elif frame.key is _NO_KEY:
            frame.key = (
                value if type(value) is str or value is sc.MERGE else self._refuse_key(value, mark)
            )
            frame.key_mark = mark
        else:
            self._set(frame, value, mark)

    def _set(self, frame: _Frame, value: Any, mark: Any) -> None:
        key = frame.key
        frame.key = _NO_KEY
        if key is _SKIP:
            return
        if key is sc.MERGE:
            self._merge(frame, value, frame.key_mark)
            return
        container = frame.container
        if key in container:
            if frame.merged is not None and key in frame.merged:
                frame.merged.discard(key)  # an explicit key overrides a merged one
            else:
                self._duplicate(frame, key, frame.key_mark)
                return
        container[key] = value
        if frame.key_positions is not None:
            kmark = frame.key_mark
            frame.key_positions[key] = (kmark.line + 1, kmark.column + 1)
            frame.value_positions[key] = (mark.line + 1, mark.column + 1)
            if frame.value_ends is not None and self.ends_left:
                self.ends_left -= 1
                frame.value_ends[key] = (mark.index, end_record(self._last))

    def _anchor(self, name: str, value: Any, size: int, mark: Any) -> None:
        earlier = self._anchors.get(name)
        if earlier is not None:
            raise self._abort(
                "HMT001",
                f"anchor &{marked(clip(name))} is defined twice (first at line {earlier[2]})",
                mark,
                hint="the platform refuses a repeated anchor: give each one its own name",
            )
        self._anchors[name] = (value, size, mark.line + 1)

    def _note_plain_in_flow(self, event: Any) -> None:
        """Note a ``?`` in a plain scalar or an empty tagged one in a flow collection:
        the platform's parser fails on ``[http://x?y=1]`` and ``[!!str, x]``, libyaml not."""
        if (self.watch_question and "?" in event.value) or (event.tag and not event.value):
            self.flow_differs = True

    def _read_plain(self, text: str, event: Any) -> Any:
        """An untagged plain scalar (or one tagged ``!``), as the platform reads it."""
        value = self._cache.get(text, _MISSING)
        if value is _MISSING:
            try:
                value = _reading(text)
            except sc.TooLong:  # reported, kept as text, not remembered
                self._report_too_long(text, event.start_mark)
                return text
            if len(self._cache) < CACHE_SIZE:
                self._cache[text] = value
        if type(value) is _Reading:
            frame = self._stack[-1] if self._stack else None
            noted = len(self.dialect) < MAX_DIALECT_NOTES
            if frame and not (frame.is_map and frame.key is _NO_KEY) and noted:
                self.dialect.append(
                    DialectNote(
                        self._here(), of_mark(event.start_mark), text, value.platform, value.editor
                    )
                )
            value = value.platform
        if isinstance(value, _SPECIAL):
            value = self._handle_special(value, event)
        return value

    def _construct(self, tag: str, text: str, event: Any) -> Any:
        try:
            value = sc.construct(tag, text)
        except sc.TooLong:
            self._report_too_long(text, event.start_mark)
            return text
        if value is sc.UNKNOWN_TAG:
            self._report_tag(tag, event.start_mark, None)
            return None
        if isinstance(value, _SPECIAL):
            value = self._handle_special(value, event)
        return value

    def _handle_special(self, value: Any, event: Any) -> Any:
        """A merge key, a value the platform cannot construct, or one JSON cannot hold."""
        in_key = bool(self._stack) and self._stack[-1].is_map and self._stack[-1].key is _NO_KEY
        if type(value) is sc.YamlScalar:
            self.has_non_json = True
            return value
        if value is sc.MERGE:
            if in_key:
                return value
            value = sc.Unconstructible(event.value, "`<<` is a merge key: it cannot be a value")
        elif value is sc.VALUE:
            if in_key:
                return event.value  # the platform reads a "value" key as a string
            value = sc.Unconstructible(
                event.value,
                "YAML 1.1 reads a bare `=` as its 'value' type, which has nothing to load",
            )
        assert isinstance(value, sc.Unconstructible)
        shown = clip(value.text)
        self._report(
            "HMT007",
            f"the platform cannot load `{marked(shown, OWN)}`: {value.why}",
            event.start_mark,
            self._here(),
            fix=_quote_if_text(shown=f'"{shown}"'),
        )
        return value.text

    def _container_path(self) -> dg.JsonPath:
        parts = (frame.key if frame.is_map else len(frame.container) for frame in self._stack[:-1])
        return tuple(p for p in parts if isinstance(p, (str, int)))

    def _here(self) -> dg.JsonPath:
        if not self._stack:
            return ()
        frame = self._stack[-1]
        base = self._container_path()
        if not frame.is_map:
            return (*base, len(frame.container))
        if isinstance(frame.key, str):
            return (*base, frame.key)
        return base

    def _report(
        self,
        code: str,
        message: str,
        mark: Any,
        parts: dg.JsonPath,
        hint: str | None = None,
        fix: dg.Intent | None = None,
    ) -> None:
        line, column = of_mark(mark)
        self.diagnostics.append(
            dg.make(code, message, line, column, pointer_parts=parts, hint=hint, fix=fix)
        )
        self.reported.add(parts)

    def _abort(self, code: str, message: str, mark: Any, hint: str | None = None) -> Abort:
        line, column = of_mark(mark)
        return Abort(dg.make(code, message, line, column, pointer_parts=self._here(), hint=hint))

    def _duplicate(self, frame: _Frame, key: str, mark: Any) -> None:
        first = ""
        if frame.key_positions is not None:
            first = f" (first set at line {frame.key_positions[key][0]})"
        else:
            self.needs_index = True
        slot = (id(frame.container), key)
        seen = self._repeats.get(slot, 1) + 1
        self._repeats[slot] = seen
        repeat = "" if seen == 2 else f", set for the {_ordinal(seen)} time"
        self._report(
            "HMT002",
            f"duplicate key '{marked(clip(key), OWN)}'{first}{repeat}",
            mark,
            (*self._container_path(), key),
            hint="remove one of them; a YAML loader silently keeps only one",
        )

    def _refuse_key(self, value: Any, mark: Any) -> Any:
        """Report a key that is not a string; its entry is dropped."""
        fix: dg.Quote | None = None
        if isinstance(value, (dict, list)):
            got = COLLECTION_KEYS[0] if isinstance(value, dict) else COLLECTION_KEYS[1]
            hint = None
        elif value is None:
            got, hint = "null", "give the key a name"
        else:
            text = clip(value.text if isinstance(value, sc.YamlScalar) else scalar_text(value))
            kind = value.kind if isinstance(value, sc.YamlScalar) else type(value).__name__
            kind = _KINDS.get(kind, kind)
            got, hint, fix = f"{kind} {text}", None, dg.Quote(shown=f"'{text}'")
        self._report(
            "HMT003",
            f"{NON_STRING_KEY}, got {marked(got, OWN)}",
            mark,
            self._container_path(),
            hint=hint,
            fix=fix,
        )
        return _SKIP

    def _report_too_long(self, text: str, mark: Any) -> None:
        self._report(
            "HMT004",
            f"an integer of {len(text)} digits is too long",
            mark,
            self._here(),
            fix=_quote_if_text(),
        )

    def _report_tag(self, tag: str, mark: Any, on: str | None) -> None:
        shown = clip("!!" + tag[len(sc.TAG_PREFIX) :] if tag.startswith(sc.TAG_PREFIX) else tag)
        said = marked(shown)
        if shown.startswith("!!python/"):
            message = f"tag {said} would construct a Python object; it is refused, never run"
        elif on is not None and shown in ("!!map", "!!seq", "!!str"):
            message = f"tag {said} cannot tag {on}"
        else:
            message = f"unknown tag {said}"
        self._report(
            "HMT003", message, mark, self._here(), hint="remove the tag: test cases are plain data"
        )

    def _merge(self, frame: _Frame, value: Any, mark: Any) -> None:
        """``<<: *base`` or ``<<: [*a, *b]``: copy in the keys not set explicitly."""
        sources = value if isinstance(value, list) else [value]
        if not all(isinstance(s, dict) for s in sources):
            self._report(
                "HMT003",
                "a merge key `<<` needs a mapping or a list of mappings",
                mark,
                self._container_path(),
            )
            return
        container = frame.container
        if frame.merged is None:
            frame.merged = set()
        position = of_mark(mark)
        for source in sources:
            for key, item in source.items():
                if key in container:
                    continue
                container[key] = item
                frame.merged.add(key)
                if frame.key_positions is not None:
                    frame.key_positions[key] = position
                    located = self.positions.values.get(id(source), {}) if self.positions else {}
                    frame.value_positions[key] = located.get(key, position)


def _reading(text: str) -> Any:
    """How the platform reads a plain scalar; a :class:`_Reading` if editors differ."""
    value = sc.resolve(text)
    if text and (text[0] in "-+.0123456789" or type(value) is bool):
        editor = sc.editor_reading(text)
        if not isinstance(value, (sc.Unconstructible, sc._Marker)) and sc.readings_differ(
            value, editor
        ):
            return _Reading(value, editor)
    return value


NOT_PLAIN = sc._Marker("NOT_PLAIN")


def plain_value(text: str) -> Any:
    """A plain scalar's reading for the compiled builder to store, else :data:`NOT_PLAIN`."""
    try:
        value = _reading(text)
    except sc.TooLong:
        return NOT_PLAIN
    return NOT_PLAIN if isinstance(value, (_Reading, *_SPECIAL)) else value


def end_record(event: Any) -> tuple[int, int, int, int, int, int, str | None] | None:
    """Offsets, 0-based lines and columns, and block style of the event ending a value."""
    if event is None:
        return None
    start, end = event.start_mark, event.end_mark
    style = getattr(event, "style", None)
    return (
        start.index,
        start.line,
        start.column,
        end.index,
        end.line,
        end.column,
        style if style in ("|", ">") else None,
    )


def scalar_text(value: Any) -> str:
    """A boolean or number as YAML writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
