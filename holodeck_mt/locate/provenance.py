"""Which ``${NAME}`` references what a diagnostic shows came from, told by ranges of the
substituted text (``Substituted.spans``), never by a value's characters: its own node, the
test case (else root section) around it, each key of its path, its test case's name. A
marked piece of its words is shown, or named by those references (``text/substituted``);
a key or name from a reference is shown as the file writes it; a fix on one is dropped."""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from holodeck_mt import walk
from holodeck_mt.model import MARKS, Diagnostic, JsonPath, clip, format_path
from holodeck_mt.text import lines, ranges
from holodeck_mt.text.substituted import Written, plain, references, resolved

if TYPE_CHECKING:
    from holodeck_mt.locate.locate import Locator
    from holodeck_mt.read import loader
    from holodeck_mt.read.substitution import Substituted

Names = tuple[str, ...]


class Provenance:
    """The set references of one substituted text, and the ranges that tell what came
    from them; ``locator`` (None: the document did not load) finds nodes and test cases."""

    def __init__(
        self, sub: Substituted, original: str, doc: loader.Document | None, locator: Locator | None
    ) -> None:
        unset = set(sub.unset)
        self._sub, self._original, self._doc, self._locator = sub, original, doc, locator
        self._set = [
            (start, end, original[old + 2 : old_end - 1])
            for start, end, old, old_end in sub.spans
            if (start, end) not in unset
        ]
        self._ends = [end for _, end, _ in self._set]
        self._starts = lines.starts(sub.text)
        self._near: dict[Any, Names] = {}

    def __bool__(self) -> bool:
        return bool(self._set)

    def refs(self, start: int, end: int) -> Names:
        """The references whose values overlap ``[start, end)`` of the substituted text (an
        empty range: the character there), each once, in the file's order."""
        end = max(end, start + 1)
        found: dict[str, None] = {}
        i = bisect.bisect_right(self._ends, start)
        while i < len(self._set) and self._set[i][0] < end:
            found.setdefault(self._set[i][2])
            i += 1
        return tuple(found)

    def written(self, start: int, end: int) -> str | None:
        """``[start, end)`` of the substituted text as the file writes it (its references,
        never their values), when it is one printable line."""
        old = self._original[self._sub.original(start) : self._sub.original(end, end=True)]
        return old.strip() if old.strip().isprintable() else None

    def _offset(self, line: int, column: int) -> int:
        line = min(max(line, 1), len(self._starts))
        return min(self._starts[line - 1] + max(column, 1) - 1, len(self._sub.text))

    def near(self, parts: JsonPath) -> Names:
        """The references of the test case, else root section, holding ``parts`` (the whole
        text's when its lines are not its own)."""
        index, _ = walk.test_case_of(self._doc.data, parts) if self._doc is not None else (None, ())
        scope: Any = index if index is not None else (parts[0] if parts else None)
        if scope not in self._near:
            within = self._locator.scope(parts) if self._locator is not None else None
            if within is None:
                self._near[scope] = self.refs(0, len(self._sub.text))
            else:
                first, after = within
                end = self._starts[after - 1] if after is not None else len(self._sub.text)
                self._near[scope] = self.refs(self._starts[first - 1], end)
        return self._near[scope]

    def shown(self, parts: JsonPath, value: Any) -> Any:
        """``value`` (the node at ``parts``) as ``explain`` shows it: each scalar and key of
        it that came from a reference as the file writes it (a :class:`Written`)."""
        if not self.near(parts):
            return value
        found = self.node(parts)
        refs = self.refs(*found) if found is not None else self.near(parts)
        if not refs:
            return value
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

    def words(self, parts: JsonPath, text: str) -> str:
        """``text`` (words about the node at ``parts``, marked) showing none of its values
        that came from a reference."""
        if not self.near(parts):
            return plain(text)
        found = self.node(parts)
        return resolved(text, (), self.refs(*found) if found is not None else self.near(parts))

    def node(self, parts: JsonPath, *, key: bool = False) -> tuple[int, int] | None:
        """The range of the key (or value) at ``parts`` in the substituted text."""
        if self._locator is None or self._doc is None:
            return None
        try:
            line, column = self._locator.position(parts, key=key)
            within = self._locator.lines(parts)
            end = ranges.end_of(self._sub.text, line, column, key=key, within=within)
        except (LookupError, TypeError, ValueError):
            return None
        return self._offset(line, column), self._offset(*end)

    def _as_written(self, parts: JsonPath, text: str, *, key: bool) -> str:
        """``text`` (the key or value at ``parts``), else as written when from a reference."""
        found = self.node(parts, key=key)
        if found is None or not self.refs(*found):
            return text
        return clip(self.written(*found) or "${...}")

    def name(self, index: int, name: str | None) -> str | None:
        """The ``index``-th test case's name as shown: as written when from a reference."""
        found = walk.test_case_list(self._doc.data) if self._doc is not None else None
        if name is None or found is None:
            return name
        case = (*found[1], index)
        return self._as_written((*case, "name"), name, key=False) if self.near(case) else name

    def diagnostic(self, d: Diagnostic) -> Diagnostic:
        """``d`` showing nothing that came from a reference (see the module)."""
        parts = d.pointer_parts
        near = self.near(parts)
        if not near:
            return shown(d)
        start = self._offset(d.line, d.column)
        end = self._offset(d.end_line or d.line, d.end_column or d.column)
        own = self.refs(start, max(end, start))
        value = self.node(parts) if parts and not _collection(self._doc, parts) else None
        if value is not None:
            own = tuple(dict.fromkeys((*own, *self.refs(*value))))
        written = self.written(start, max(end, start)) if own else None
        keys = tuple(
            self._as_written(parts[: i + 1], p, key=True) if isinstance(p, str) else p
            for i, p in enumerate(parts)
        )
        new: dict[str, Any] = {
            "message": resolved(d.message, own, near, written),
            "hint": resolved(d.hint, own, near, written) or None if d.hint else d.hint,
            "fix": None if own else d.fix,
        }
        if keys != parts:
            _, relative = walk.test_case_of(self._doc.data if self._doc else None, keys)
            new["pointer_parts"], new["path"] = keys, format_path(relative)
        if d.test_case_index is not None:
            new["test_case"] = self.name(d.test_case_index, d.test_case)
        return dataclasses.replace(d, **new)


def _collection(doc: loader.Document | None, parts: JsonPath) -> bool:
    from holodeck_mt.text.positions import node_at

    try:
        return doc is None or isinstance(node_at(doc.data, parts), (dict, list))
    except (LookupError, TypeError):
        return True


def shown(d: Diagnostic) -> Diagnostic:
    """``d`` as shown when nothing it shows came from a reference: its marks taken out."""
    hint = d.hint
    if not _holds_marks(d.message) and (hint is None or not _holds_marks(hint)):
        return d
    return dataclasses.replace(
        d, message=plain(d.message), hint=plain(hint) or None if hint else hint
    )


def _holds_marks(text: str) -> bool:
    return any(mark in text for mark in MARKS)


def each(found: Sequence[Diagnostic], provenance: Provenance | None) -> list[Diagnostic]:
    """Every diagnostic of ``found`` resolved by ``provenance`` (None: no reference set)."""
    if provenance is None or not provenance:
        return [shown(d) for d in found]
    return [provenance.diagnostic(d) for d in found]
