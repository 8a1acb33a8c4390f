"""YAML text to plain JSON-shaped data, with the line and column of every key and value.

The document is built straight from the C parser's events (ruamel.yaml.clib):
no composed node graph, no round-trip objects, no constructor. Scalars are
resolved with the YAML 1.2 core schema. Everything the platform could not read
as JSON-shaped data (tags that construct objects, non-string keys, several
documents, ...) becomes a diagnostic, never an exception, and never runs code.

Safety limits (see :mod:`holodeck_mt.limits`) are enforced while the events
stream in, before anything walks the document: alias expansions, nesting depth.
"""

from __future__ import annotations

import gc
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from holodeck_mt import diagnostics as dg
from holodeck_mt import yaml_errors
from holodeck_mt.limits import Limits

try:  # the C parser: ruamel.yaml 0.19 no longer installs it by itself.
    from _ruamel_yaml import CParser as _Parser

    C_PARSER = True
except ImportError:  # pragma: no cover - exercised only without ruamel.yaml.clib
    C_PARSER = False

Position = tuple[int, int]  # 1-based line and column


class YamlScalar:
    """A scalar YAML can hold but JSON cannot (a timestamp, binary data).

    It is kept as its text so that the schema rejects it wherever a JSON type is
    required, and accepts it wherever anything goes.
    """

    __slots__ = ("kind", "text")

    def __init__(self, kind: str, text: str) -> None:
        self.kind = kind
        self.text = text

    def __repr__(self) -> str:
        return f"{self.kind} {self.text}"


@dataclass
class Positions:
    """Where each key and value of a loaded document stands.

    Indexed by the identity of the containing mapping or list, so that a lookup
    walks the data along a path and never stores paths for every node.
    """

    root: Position = (1, 1)
    keys: dict[int, dict[str, Position]] = field(default_factory=dict)
    values: dict[int, Any] = field(default_factory=dict)

    def _walk(self, data: Any, parts: dg.JsonPath) -> Iterator[tuple[Any, str | int]]:
        node = data
        for part in parts:
            yield node, part
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return

    def value(self, data: Any, parts: dg.JsonPath) -> Position:
        """Position of the value at ``parts``, or of its nearest located ancestor."""
        found = self.root
        for parent, part in self._walk(data, parts):
            located = self.values.get(id(parent))
            if located is None:
                break
            if isinstance(part, int) and isinstance(located, list):
                if not 0 <= part < len(located):
                    break
                found = located[part]
            elif isinstance(part, str) and isinstance(located, dict) and part in located:
                found = located[part]
            else:
                break
        return found

    def key(self, data: Any, parts: dg.JsonPath) -> Position:
        """Position of the key at the end of ``parts`` (its value's for a list index)."""
        if parts and isinstance(parts[-1], str):
            parent: Any = data
            for part in parts[:-1]:
                try:
                    parent = parent[part]
                except (KeyError, IndexError, TypeError):
                    return self.value(data, parts)
            located = self.keys.get(id(parent))
            if located is not None and parts[-1] in located:
                return located[parts[-1]]
        return self.value(data, parts)


@dataclass
class Document:
    """A loaded YAML file: its data, where everything stands, and what went wrong."""

    text: str
    data: Any = None
    positions: Positions | None = None
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    #: False when the file could not be read into data at all (syntax error, limit).
    loaded: bool = False
    #: Pointers (as tuples) of nodes the loader already reported; the schema's
    #: errors at or below them are echoes of the same fault.
    reported: set[dg.JsonPath] = field(default_factory=set)
    #: True when the data holds values a compiled validator cannot take (YamlScalar).
    has_non_json: bool = False


# --- YAML 1.2 core schema resolution of plain scalars -------------------------

_INT = re.compile(r"[-+]?[0-9]+\Z")
_OCT = re.compile(r"0o[0-7]+\Z")
_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)\Z")
_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?\Z"
)
_NULLS = {"", "~", "null", "Null", "NULL"}
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}

_TAG = "tag:yaml.org,2002:"
_STR_TAG, _MAP_TAG, _SEQ_TAG = _TAG + "str", _TAG + "map", _TAG + "seq"


class _TooLong(ValueError):
    pass


#: The longest integer literal read as a number. Python refuses to print an
#: integer of more than 4,300 digits, and messages (ours, the schema library's)
#: print the values they reject; a hex literal of 3,000 digits has 3,600.
_MAX_INT_DIGITS = 4000
_MAX_HEX_DIGITS = 3000


def clip(text: str, limit: int = 60) -> str:
    """At most ``limit`` characters of ``text``: messages never quote an unbounded input."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plain(text: str) -> Any:
    """Resolve a plain (unquoted, untagged) scalar with the YAML 1.2 core schema."""
    if text in _NULLS:
        return None
    first = text[0]
    if first.isalpha() and first not in "TtFfN":  # the common case: a word
        return text
    if text in _BOOLS:
        return _BOOLS[text]
    if first in "0123456789-+.":
        if _INT.match(text):
            if len(text) > _MAX_INT_DIGITS:
                raise _TooLong(text)
            return int(text)
        if _OCT.match(text):
            if len(text) > _MAX_INT_DIGITS:
                raise _TooLong(text)
            return int(text[2:], 8)
        if _HEX.match(text):
            if len(text) > _MAX_HEX_DIGITS:
                raise _TooLong(text)
            return int(text[2:], 16)
        if _FLOAT.match(text):
            return float(text)
        if _INF.match(text):
            return -math.inf if first == "-" else math.inf
        if _NAN.match(text):
            return math.nan
        if _TIMESTAMP.match(text):
            return YamlScalar("timestamp", text)
    return text


def _tagged(tag: str, text: str) -> Any:
    """Resolve a scalar with an explicit standard tag; None for an unknown tag."""
    name = tag[len(_TAG) :] if tag.startswith(_TAG) else None
    if name == "str":
        return text
    if name == "null":
        return None
    if name == "bool":
        return _BOOLS.get(text, text)
    if name == "int":
        return _plain(text) if _INT.match(text) or _HEX.match(text) or _OCT.match(text) else text
    if name == "float":
        value = _plain(text)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return text
        try:
            return float(value)
        except OverflowError:  # an integer beyond float range, as YAML 1.2 reads it: inf
            return math.inf if value > 0 else -math.inf
    if name == "timestamp":
        return YamlScalar("timestamp", text)
    if name == "binary":
        return YamlScalar("binary", text)
    return _UNKNOWN_TAG


_UNKNOWN_TAG = object()


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag


# --- decoding -----------------------------------------------------------------


def decode(raw: bytes) -> tuple[str | None, dg.Diagnostic | None]:
    """Bytes to text: UTF-8 (with or without BOM) or UTF-16 with a BOM.

    A byte that does not decode is reported at its line and column (in
    characters, counted on the text before it) with its offset in the file.
    """
    encoding, skip = "utf-8", 0
    if raw.startswith(b"\xef\xbb\xbf"):
        skip = 3
    elif raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    try:
        return raw[skip:].decode(encoding), None
    except UnicodeDecodeError as e:
        offset = skip + e.start
        before = raw[skip:offset].decode(encoding, errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        name = "UTF-8" if encoding == "utf-8" else "UTF-16"
        return None, dg.make(
            "HMT005",
            f"invalid {name} byte 0x{raw[offset]:02x} at byte offset {offset}: {e.reason}",
            line,
            column,
            hint="save the file as UTF-8",
        )


# --- the builder --------------------------------------------------------------


class _Abort(Exception):
    def __init__(self, diagnostic: dg.Diagnostic) -> None:
        self.diagnostic = diagnostic


def load(text: str, *, limits: Limits | None = None, positions: bool = True) -> Document:
    """Load YAML text into a :class:`Document`.

    With ``positions=False`` no positions are kept (the fast path of a document
    that turns out valid); the diagnostics the loader itself raises are located
    either way.
    """
    limits = limits or Limits()
    doc = Document(text=text)
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        doc.diagnostics.append(
            dg.make("HMT005", "the file holds a NUL byte, which YAML does not allow", line, column)
        )
        return doc
    gc_was_enabled = gc.isenabled()
    gc.disable()  # the collector costs half of a large load and finds no cycles here
    try:
        _Builder(doc, limits, positions).run()
    except _Abort as abort:
        doc.diagnostics.append(abort.diagnostic)
        doc.data = None
        doc.loaded = False
    except UnicodeEncodeError as e:  # text from the API holding a lone surrogate
        line = text.count("\n", 0, e.start) + 1
        column = e.start - (text.rfind("\n", 0, e.start) + 1) + 1
        message = f"the text holds a lone surrogate U+{ord(text[e.start]):04X}, which is not UTF-8"
        doc.diagnostics.append(dg.make("HMT005", message, line, column))
        doc.data = None
        doc.loaded = False
    except MarkedYAMLError as e:
        pm, cm = e.problem_mark, e.context_mark
        said = yaml_errors.explain(
            text,
            e.problem,
            (pm.line, pm.column) if pm is not None else None,
            e.context,
            (cm.line, cm.column) if cm is not None else None,
        )
        doc.diagnostics.append(
            dg.make("HMT001", said.message, said.line, said.column, hint=said.hint)
        )
        doc.data = None
        doc.loaded = False
    except YAMLError as e:
        message = clip(str(e).splitlines()[0], 200) if str(e) else type(e).__name__
        position = getattr(e, "position", None)
        line, column = 1, 1
        if isinstance(position, int):
            line = text.count("\n", 0, position) + 1
            column = position - (text.rfind("\n", 0, position) + 1) + 1
        doc.diagnostics.append(dg.make("HMT001", f"YAML error: {message}", line, column))
        doc.data = None
        doc.loaded = False
    finally:
        if gc_was_enabled:
            gc.enable()
    return doc


_NO_KEY = object()  # a mapping frame waiting for its next key
_SKIP = object()  # the key was rejected: drop its value
_MERGE = object()  # the plain key ``<<``
_MISSING = object()


class _Builder:
    """Turns parser events into plain data; an explicit stack, no recursion."""

    def __init__(self, doc: Document, limits: Limits, positions: bool) -> None:
        self.doc = doc
        self.limits = limits
        self.positions = Positions() if positions else None
        # anchor -> (value, size in nodes once closed, or -1 while still open)
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.nodes = 0  # nodes built, aliases counted at their expanded size
        self.expanded = 0  # nodes reached through aliases
        # Frames: [container, pending key, key mark, start mark, anchor, nodes at start,
        # keys that came from a merge (or None)]
        self.stack: list[list[Any]] = []

    # -- locating ----------------------------------------------------------

    def _container_path(self) -> dg.JsonPath:
        """Path of the innermost open container."""
        stack = self.stack
        parts: list[str | int] = []
        for i in range(1, len(stack)):
            parent = stack[i - 1]
            parts.append(len(parent[0]) if type(parent[0]) is list else parent[1])
        return tuple(p for p in parts if isinstance(p, (str, int)))

    def _here(self) -> dg.JsonPath:
        """Path of the node about to be attached to the innermost container."""
        if not self.stack:
            return ()
        frame = self.stack[-1]
        base = self._container_path()
        if type(frame[0]) is list:
            return (*base, len(frame[0]))
        if isinstance(frame[1], str):
            return (*base, frame[1])
        return base

    def _report(
        self, code: str, message: str, mark: Any, parts: dg.JsonPath, hint: str | None = None
    ) -> None:
        self.doc.diagnostics.append(
            dg.make(
                code,
                message,
                mark.line + 1,
                mark.column + 1,
                pointer_parts=parts,
                hint=hint,
            )
        )
        self.doc.reported.add(parts)

    def _abort(self, code: str, message: str, mark: Any, hint: str | None = None) -> _Abort:
        return _Abort(
            dg.make(
                code,
                message,
                mark.line + 1,
                mark.column + 1,
                pointer_parts=self._here(),
                hint=hint,
            )
        )

    # -- the stream --------------------------------------------------------

    def run(self) -> None:
        parser = _Parser(self.doc.text)
        get = parser.get_event
        get()  # StreamStart
        first = get()
        if isinstance(first, ev.StreamEndEvent):
            self.doc.diagnostics.append(
                dg.make("HMT006", "the file is empty: it holds no YAML document", 1, 1)
            )
            return
        self.doc.data = self._document(get)
        self.doc.loaded = True
        self.doc.positions = self.positions
        get()  # DocumentEnd
        extra = get()
        if not isinstance(extra, ev.StreamEndEvent):
            self._report(
                "HMT003",
                "the file holds more than one YAML document; only the first is validated",
                extra.start_mark,
                (),
                hint="remove the `---` line, or split the documents into separate files",
            )
            # Read on, so that a syntax error further down is still reported.
            while not isinstance(get(), ev.StreamEndEvent):
                pass

    def _document(self, get: Any) -> Any:
        limits = self.limits
        positions = self.positions
        anchors = self.anchors
        stack = self.stack
        plain_cache: dict[str, Any] = {}
        scalar_cls, alias_cls = ev.ScalarEvent, ev.AliasEvent
        mapping_start, sequence_start = ev.MappingStartEvent, ev.SequenceStartEvent
        mapping_end, sequence_end = ev.MappingEndEvent, ev.SequenceEndEvent
        while True:
            event = get()
            cls = type(event)
            if cls is scalar_cls:
                self.nodes += 1
                tag = event.tag
                text = event.value
                if (tag is None or tag == "!") and event.implicit[0] and event.style == "":
                    value = plain_cache.get(text, _MISSING)
                    if value is _MISSING:
                        try:
                            value = _plain(text)
                        except _TooLong:  # reported, kept as text, not cached
                            self._too_long(text, event.start_mark)
                            value = text
                        else:
                            if type(value) is YamlScalar:
                                self.doc.has_non_json = True
                            elif len(plain_cache) < 4096:
                                plain_cache[text] = value
                    if text == "<<" and stack and stack[-1][1] is _NO_KEY:
                        value = _MERGE
                elif tag is None or tag == "!":
                    value = text
                else:
                    value = self._tagged_scalar(tag, text, event)
                if event.anchor is not None:
                    anchors[event.anchor] = (value, 1)
            elif cls is mapping_start or cls is sequence_start:
                self.nodes += 1
                if len(stack) >= limits.max_depth:
                    raise self._abort(
                        "HMT004",
                        f"nesting deeper than {limits.max_depth} levels",
                        event.start_mark,
                        hint="raise the limit with --max-depth if this is intended",
                    )
                tag = event.tag
                if tag is not None and tag not in (_MAP_TAG, _SEQ_TAG, "!"):
                    self._report_tag(tag, event.start_mark)
                container: Any = {} if cls is mapping_start else []
                if positions is not None:
                    if cls is mapping_start:
                        positions.keys[id(container)] = {}
                        positions.values[id(container)] = {}
                    else:
                        positions.values[id(container)] = []
                if event.anchor is not None:
                    anchors[event.anchor] = (container, -1)
                stack.append(
                    [container, _NO_KEY, None, event.start_mark, event.anchor, self.nodes, None]
                )
                continue
            elif cls is mapping_end or cls is sequence_end:
                frame = stack.pop()
                value = frame[0]
                if frame[4] is not None:
                    anchors[frame[4]] = (value, self.nodes - frame[5] + 1)
                event = _MarkOnly(frame[3])
            elif cls is alias_cls:
                anchored = anchors.get(event.anchor)
                if anchored is None:  # pragma: no cover - the parser reports these itself
                    raise self._abort(
                        "HMT001", f"unknown alias *{clip(event.anchor)}", event.start_mark
                    )
                value, size = anchored
                if size < 0:
                    raise self._abort(
                        "HMT004",
                        f"alias *{clip(event.anchor)} refers to a node that contains it "
                        "(a recursive structure)",
                        event.start_mark,
                    )
                self.nodes += size
                self.expanded += size
                if self.expanded > limits.max_alias_nodes:
                    raise self._abort(
                        "HMT004",
                        f"aliases expand to more than {limits.max_alias_nodes} nodes "
                        f"(at alias *{clip(event.anchor)}): an alias bomb?",
                        event.start_mark,
                        hint="raise the limit with --max-alias-nodes if this is intended",
                    )
            else:  # pragma: no cover - the parser emits nothing else inside a document
                raise self._abort("HMT001", f"unexpected {cls.__name__}", event.start_mark)
            # Attach the finished node to its container.
            mark = event.start_mark
            if not stack:
                if positions is not None:
                    positions.root = (mark.line + 1, mark.column + 1)
                return value
            frame = stack[-1]
            container = frame[0]
            if type(container) is list:
                if positions is not None:
                    positions.values[id(container)].append((mark.line + 1, mark.column + 1))
                container.append(value)
                continue
            key = frame[1]
            if key is _NO_KEY:
                frame[1] = (
                    value if type(value) is str or value is _MERGE else self._bad_key(value, mark)
                )
                frame[2] = mark
                continue
            frame[1] = _NO_KEY
            if key is _SKIP:
                continue
            if key is _MERGE:
                self._merge(frame, value, frame[2])
                continue
            if key in container:
                merged = frame[6]
                if merged is not None and key in merged:
                    merged.discard(key)  # an explicit key overrides a merged one
                else:
                    self._duplicate(container, key, frame[2])
                    continue
            container[key] = value
            if positions is not None:
                kmark = frame[2]
                positions.keys[id(container)][key] = (kmark.line + 1, kmark.column + 1)
                positions.values[id(container)][key] = (mark.line + 1, mark.column + 1)

    # -- the odd cases -----------------------------------------------------

    def _duplicate(self, container: dict[str, Any], key: str, mark: Any) -> None:
        first = ""
        if self.positions is not None:
            line = self.positions.keys[id(container)].get(key, (0, 0))[0]
            first = f" (first set at line {line})" if line else ""
        self._report(
            "HMT002",
            f"duplicate key '{clip(key)}'{first}",
            mark,
            (*self._container_path(), key),
            hint="remove one of the two; a YAML loader silently keeps only one",
        )

    def _bad_key(self, value: Any, mark: Any) -> Any:
        """Report a key that is not a string; its entry is dropped."""
        if isinstance(value, (dict, list)):
            what = "a mapping" if isinstance(value, dict) else "a list"
            hint = None
        elif value is None:
            what, hint = "null", "give the key a name"
        else:
            text = clip(value.text if isinstance(value, YamlScalar) else _scalar_text(value))
            kind = type(value).__name__
            if isinstance(value, YamlScalar):
                kind = "date" if value.kind == "timestamp" else value.kind
            kind = {"int": "integer", "float": "number", "bool": "boolean"}.get(kind, kind)
            what, hint = f"{kind} {text}", f"quote it: '{text}'"
        self._report(
            "HMT003",
            f"a mapping key must be a string, got {what}",
            mark,
            self._container_path(),
            hint=hint,
        )
        return _SKIP

    def _tagged_scalar(self, tag: str, text: str, event: Any) -> Any:
        try:
            value = _tagged(tag, text)
        except _TooLong:
            self._too_long(text, event.start_mark)
            return text
        if value is _UNKNOWN_TAG:
            self._report_tag(tag, event.start_mark)
            return None
        if type(value) is YamlScalar:
            self.doc.has_non_json = True
        return value

    def _too_long(self, text: str, mark: Any) -> None:
        self._report(
            "HMT004",
            f"an integer of {len(text)} digits is too long",
            mark,
            self._here(),
            hint="quote it if it is meant as text",
        )

    def _report_tag(self, tag: str, mark: Any) -> None:
        shown = clip(_short_tag(tag))
        if shown.startswith("!!python/"):
            message = f"tag {shown} would construct a Python object; it is refused, never run"
        else:
            message = f"unknown tag {shown}"
        self._report(
            "HMT003", message, mark, self._here(), hint="remove the tag: test cases are plain data"
        )

    def _merge(self, frame: list[Any], value: Any, mark: Any) -> None:
        """``<<: *base`` or ``<<: [*a, *b]``: copy in the keys not set explicitly."""
        sources = value if isinstance(value, list) else [value]
        if not sources or not all(isinstance(s, dict) for s in sources):
            self._report(
                "HMT003",
                "a merge key `<<` needs a mapping or a list of mappings",
                mark,
                self._container_path(),
            )
            return
        container = frame[0]
        merged = frame[6] if frame[6] is not None else set()
        frame[6] = merged
        position = (mark.line + 1, mark.column + 1)
        for source in sources:
            for key, item in source.items():
                if key in container:
                    continue
                container[key] = item
                merged.add(key)
                if self.positions is not None:
                    self.positions.keys[id(container)][key] = position
                    located = self.positions.values.get(id(source), {})
                    self.positions.values[id(container)][key] = located.get(key, position)


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


class _MarkOnly:
    __slots__ = ("start_mark",)

    def __init__(self, mark: Any) -> None:
        self.start_mark = mark
