"""Which ``${NAME}`` references what a diagnostic shows came from, by ranges of the substituted
text, never by characters: its own node, its test case (else section), its path's keys, its
test case's name (shown as the file writes them); a fix on a substituted node is dropped."""

from __future__ import annotations

import bisect
import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from holodeck_mt.model import (
    DERIVED,
    ORIGIN,
    OWN,
    PIECE,
    Diagnostic,
    JsonPath,
    clip,
    format_path,
    unmarked,
)
from holodeck_mt.text.positions import node_at

if TYPE_CHECKING:
    from holodeck_mt.locate.locate import Locator
    from holodeck_mt.read.document import Reading


class Written(str):
    """What stands for a value that came from a reference (``${NAME}``): shown as is."""


def references(names: Sequence[str]) -> str:
    """```${A}```, ```${A}` and `${B}```."""
    shown = [f"`${{{name}}}`" for name in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def resolve_pieces(
    text: str,
    own: Sequence[str],
    near: Sequence[str],
    written: str | None = None,
    origin: Callable[[str], Sequence[str]] = lambda at: (),
) -> str:
    """``text`` with its marked pieces shown, or named by the references they may hold:
    ``own`` those the diagnostic's own node overlaps (``written``: that node as the file
    writes it, one line), ``near`` those of the test case (or section) around it, which any
    value shown from elsewhere may come from; ``origin`` gives those of the nodes a piece
    names as its origin (its ``json`` list). Only ranges decide, never characters."""

    def piece(match: re.Match[str]) -> str:
        kind, words, instead = match.group(1), match.group(2), match.group(3) or ""
        if kind == ORIGIN:
            came = origin(words)
            return f"the value of {references(came)}" if came else instead
        if kind == DERIVED:
            return instead if own else words
        if kind == OWN and not own:
            return words
        if kind == OWN and written is not None:
            return f"`{clip(written)}`"
        if own:
            return f"the value of {references(own)}"
        return f"a value not shown (near {references(near)})" if near else words

    return unmarked(PIECE.sub(piece, text))


Names = tuple[str, ...]


class Provenance:
    """The set references of one ``reading``, the ranges that tell what came from them (its
    nodes found by ``locator``; None: it did not load), and ``agent``: the agent.yaml's, for
    a test-cases file it names (its values may be shown here)."""

    def __init__(self, reading: Reading, locator: Locator | None, agent: Any) -> None:
        sub, original = reading.sub, reading.text
        self._sub, self._original, unset = sub, original, set(sub.unset)
        self._locator = locator
        self._data = reading.doc.data if reading.doc.loaded else None
        spans = [(start, end, old + 2, old_end - 1) for start, end, old, old_end in sub.spans]
        self._set = [(s, e, original[a:b]) for s, e, a, b in spans if (s, e) not in unset]
        self._firsts, self._ends = [s for s, _, _ in self._set], [e for _, e, _ in self._set]
        self._starts = reading.parsed_starts
        self._near: dict[Any, Names] = {}
        self._seen: dict[tuple[JsonPath, bool], str | None] = {}
        self.agent: Provenance | None = agent

    def refs(self, start: int, end: int) -> Names:
        """The references whose values overlap ``[start, end)`` (at least one character)."""
        i = bisect.bisect_right(self._ends, start)
        j = bisect.bisect_left(self._firsts, max(end, start + 1))
        return tuple(dict.fromkeys(name for _, _, name in self._set[i:j]))

    def written(self, start: int, end: int) -> str | None:
        """``[start, end)`` as the file writes it (references, no values), if one line."""
        old = self._original[self._sub.original(start) : self._sub.original(end, end=True)]
        return old.strip() if old.strip().isprintable() else None

    def _offset(self, line: int, column: int) -> int:
        line = min(max(line, 1), len(self._starts))
        return min(self._starts[line - 1] + max(column, 1) - 1, len(self._sub.text))

    def near(self, parts: JsonPath) -> Names:
        """The references of the test case, else root section, holding ``parts`` (else all)."""
        index = self._locator.case_of(parts)[0] if self._locator is not None else None
        scope: Any = index if index is not None else (parts[0] if parts else None)
        if scope not in self._near:
            within = self._locator.scope(parts) if self._locator is not None else None
            first, after = within or (1, None)
            end = self._starts[after - 1] if after is not None else len(self._sub.text)
            self._near[scope] = self.refs(self._starts[first - 1], end)
        return self._near[scope]

    def shown(self, parts: JsonPath, value: Any, what: str = "value") -> Any:
        """``value`` (at ``parts``; ``what``: its ``key``, or marked ``words`` about it) as
        ``explain`` shows it: what came from a reference as written (a :class:`Written`)."""
        if not self.near(parts):
            return unmarked(value) if what == "words" else value
        if what == "key":
            return self._as_written(parts, value, key=True)
        found = self.node(parts)
        refs = self.refs(*found) if found is not None else self.near(parts)
        if what == "words" or not refs:
            return resolve_pieces(value, (), refs) if what == "words" else value
        if isinstance(value, dict):
            return {
                self._as_written((*parts, k), k, key=True) if isinstance(k, str) else k: self.shown(
                    (*parts, k), v
                )
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self.shown((*parts, i), item) for i, item in enumerate(value)]
        written = self.written(*found) if found is not None else None
        return Written(clip(written) if written else f"a value from {references(refs)}")

    def node(self, parts: JsonPath, *, key: bool = False) -> tuple[int, int] | None:
        """The range of the key (or value) at ``parts`` in the substituted text."""
        if self._locator is None:
            return None
        from holodeck_mt.text import ranges  # on a fault only: it imports the YAML parser

        try:
            line, column = self._locator.position(parts, key=key)
            within = self._locator.lines(parts)
            end = ranges.end_of(self._sub.text, line, column, key=key, within=within)
        except (LookupError, TypeError, ValueError):
            return None
        return self._offset(line, column), self._offset(*end)

    def _as_written(self, parts: JsonPath, text: str, *, key: bool) -> str:
        """``text`` (the key or value at ``parts``), else as written when from a reference."""
        if (parts, key) not in self._seen:  # a path's keys, a name: shared by many diagnostics
            found = self.node(parts, key=key)
            written = self.written(*found) or "${...}" if found and self.refs(*found) else None
            self._seen[parts, key] = clip(written) if written else None
        return self._seen[parts, key] or text

    def _keys_as_written(self, parts: JsonPath) -> JsonPath:
        """``parts`` with each key that came from a reference as the file writes it."""
        return tuple(
            self._as_written(parts[: i + 1], p, key=True) if isinstance(p, str) else p
            for i, p in enumerate(parts)
        )

    def name(self, index: int | None, name: str | None) -> str | None:
        """The ``index``-th test case's name as shown: as written when from a reference."""
        case = self._locator.case_path(index) if self._locator and index is not None else None
        if name is None or case is None:
            return name
        return self._as_written((*case, "name"), name, key=False) if self.near(case) else name

    def _own(self, d: Diagnostic) -> tuple[Names, str | None]:
        """The references the diagnostic's own node (its range, its scalar value) overlaps,
        and that node as the file writes it."""
        start = self._offset(d.line, d.column)
        ranged = start, max(start, self._offset(d.end_line or d.line, d.end_column or d.column))
        try:  # a collection shows no characters of its own
            node = node_at(self._data, d.pointer_parts) if d.pointer_parts else {}
        except (LookupError, TypeError):
            node = {}
        value = None if isinstance(node, (dict, list)) else self.node(d.pointer_parts)
        if value is not None and self.refs(*value):
            ranged, own = value, (*self.refs(*value), *self.refs(*ranged))
        else:
            own = self.refs(*ranged)
        return tuple(dict.fromkeys(own)), self.written(*ranged) if own else None

    def _origin(self, at: str) -> Names:
        """The references of the nodes a piece came from (its ``json``; any, if cut)."""
        try:
            origins = [(bool(agent), tuple(parts)) for agent, parts in json.loads(at)]
        except (ValueError, TypeError):
            origins = [(False, ()), (True, ())]
        found: dict[str, None] = {}
        for agent, parts in origins:
            source = self.agent if agent else self
            if source is not None and source.near(parts):
                node = source.node(parts)
                found.update(dict.fromkeys(source.refs(*node) if node else source.near(parts)))
        return tuple(found)

    def diagnostic(self, d: Diagnostic) -> Diagnostic:
        """``d`` showing nothing that came from a reference (see the module)."""
        parts, hint = d.pointer_parts, d.hint or ""
        near = self.near(parts)
        if not near and ORIGIN not in d.message + hint:
            return strip_marks(d)
        own, written = self._own(d) if near else ((), None)
        whole = self.node(parts) if d.fix is not None and near and not own else None
        new: dict[str, Any] = {
            "message": resolve_pieces(d.message, own, near, written, self._origin),
            "hint": resolve_pieces(hint, own, near, written, self._origin) or None,
            "fix": d.fix if not near or (whole and not self.refs(*whole)) else None,
        }
        keys = self._keys_as_written(parts)
        if keys != parts and self._locator is not None:  # keys come from a loaded reading
            new["pointer_parts"], new["path"] = keys, format_path(self._locator.case_of(keys)[1])
        new["test_case"] = self.name(d.test_case_index, d.test_case)
        return dataclasses.replace(d, **new)


def strip_marks(d: Diagnostic) -> Diagnostic:
    """``d`` as shown when nothing it shows came from a reference: its marks taken out."""
    message, hint = unmarked(d.message), unmarked(d.hint) or None if d.hint else d.hint
    same = (message, hint) == (d.message, d.hint)
    return d if same else dataclasses.replace(d, message=message, hint=hint)
