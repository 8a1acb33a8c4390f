"""Where a fault stands in the text: from a path in the data to a line and column. A file
is read keeping the positions of its top two levels only; a deeper fault is located by
reading its test case's (or root key's) own lines again, else the whole text."""

from __future__ import annotations

import dataclasses
import marshal
from typing import Any

from holodeck_mt import layout
from holodeck_mt.limits import Limits
from holodeck_mt.locate.worded import as_written
from holodeck_mt.model import MESSAGE, Diagnostic, Fault, JsonPath, format_path, make
from holodeck_mt.read import loader
from holodeck_mt.text import lines, ranges
from holodeck_mt.text.positions import Position, Positions, block_end, node_at

#: A path this long or shorter ends in a collection the "top" index holds.
_TOP_DEPTH = 2


class Locator:
    """Locates the faults of one loaded document, reading parts of it again as needed."""

    def __init__(self, doc: loader.Document, limits: Limits) -> None:
        self._doc = doc
        self._limits = limits
        self._whole: loader.Document | None = doc if doc.index == "all" else None
        #: A test case's own reading and its first line, by index (None: not readable alone).
        self._cases: dict[int, tuple[loader.Document, int] | None] = {}
        #: The same for the sections (the root's keys) outside the test cases, by key.
        self._sections: dict[str, tuple[loader.Document, int] | None] = {}
        #: A test case's own lines, by index (asked again for each of its diagnostics).
        self._case_lines: dict[int, ranges.Lines | None] = {}
        #: The document's test cases and the path to them (None: it has none).
        self._listed = layout.test_case_list(doc.data)

    def case_of(self, parts: JsonPath) -> tuple[int | None, JsonPath]:
        """The index of the test case holding ``parts`` and the path relative to it."""
        return layout.test_case_of(self._doc.data, parts)

    def in_test_case(self, diagnostic: Diagnostic) -> Diagnostic:
        """The diagnostic with its test case (name and index) and its path relative to it."""
        index, relative = self.case_of(diagnostic.pointer_parts)
        name = layout.test_case_name(self._doc.data, index) if index is not None else None
        # Each key clipped as the path will be: a key of a megabyte is not copied per diagnostic.
        path = format_path(relative, limit=MESSAGE)
        return dataclasses.replace(diagnostic, test_case=name, test_case_index=index, path=path)

    def case_path(self, index: int) -> JsonPath | None:
        """The path of the ``index``-th test case (None: the document has none)."""
        return None if self._listed is None else (*self._listed[1], index)

    def diagnostics(self, faults: list[Fault]) -> list[Diagnostic]:
        """Each fault as :meth:`diagnostic` makes it, in their order; located test case by
        test case, each reading let go once its faults are placed (memory)."""
        cases = [self.case_of(fault.parts)[0] for fault in faults]
        order = [-1 if index is None else index for index in cases]
        located: list[Diagnostic | None] = [None] * len(faults)
        for i in sorted(range(len(faults)), key=order.__getitem__):
            if cases[i] not in self._cases:
                self._cases.clear()  # the test case located before: done with
            located[i] = self.diagnostic(faults[i])
        self._cases.clear()
        return [d for d in located if d is not None]

    def diagnostic(self, fault: Fault) -> Diagnostic:
        """The fault as a diagnostic: located, worded as written, ranged, in its test case."""
        doc = self._doc
        key = fault.at == "key"
        reading, inner, first = self._reading(fault.parts)
        at = _at(reading, inner, key)
        line, column = at[0] + first - 1, at[1]
        words = as_written(fault, doc.text, line, column, lambda: self.lines(fault.parts))
        located = make(
            fault.code,
            words.message,
            line,
            column,
            pointer_parts=fault.parts,
            hint=words.hint,
            fix=words.fix,
        )
        if located.hint != words.hint:  # a hint of its own beside its fix (an anchor's)
            located = dataclasses.replace(located, hint=words.hint)
        noted = None
        if not key and reading.positions is not None:
            noted = _value_end(reading.text, reading.positions, reading.data, inner, at)
        if noted is None:
            within = self.lines(fault.parts)
            located = ranges.with_range(doc.text, located, key=key, within=within)
        else:
            located = dataclasses.replace(
                located, end_line=noted[0] + first - 1, end_column=noted[1]
            )
        return self.in_test_case(located)

    def word(self, found: Diagnostic) -> Diagnostic:
        """A diagnostic the reading made, with the words :meth:`diagnostic` gives a fault."""
        parts = found.pointer_parts
        fault = Fault(found.code, found.message, parts, hint=found.hint, fix=found.fix)
        words = as_written(
            fault, self._doc.text, found.line, found.column, lambda: self.lines(parts)
        )
        if words == (found.message, found.hint, found.fix):
            return found
        return dataclasses.replace(found, message=words.message, hint=words.hint, fix=words.fix)

    def position(self, parts: JsonPath, *, key: bool = False) -> Position:
        """Where the value (or with ``key``, the key) at ``parts`` stands."""
        reading, inner, first = self._reading(parts)
        line, column = _at(reading, inner, key)
        return line + first - 1, column

    def _reading(self, parts: JsonPath) -> tuple[loader.Document, JsonPath, int]:
        """The reading that locates ``parts``, the path in it, and the line it starts on."""
        if self._doc.positions is None:
            return self._doc, parts, 1
        if self._whole is not None or len(parts) <= _TOP_DEPTH:
            return self._whole or self._doc, parts, 1
        index, rest = self.case_of(parts)
        own = self._own(parts)
        if own is not None:
            return own[0], parts if index is None else (0, *rest), own[1]
        if self._whole is None:
            self._whole = loader.load(self._doc.text, limits=self._limits, positions="all")
        return self._whole, parts, 1

    def _own(self, parts: JsonPath) -> tuple[loader.Document, int] | None:
        """The reading of the test case (else root key) holding ``parts`` from its own lines,
        and its first line; None unless they read back as the same data."""
        data = self._doc.data
        index, _ = self.case_of(parts)
        if index is not None:
            if index not in self._cases:
                found = self._listed
                before = found[0][index] if found is not None else None
                self._cases[index] = self._read_back(self._case_lines_of(index), before, 0)
            return self._cases[index]
        name = parts[0] if parts else None
        if not isinstance(name, str):
            return None
        if name not in self._sections:
            within = self._section_lines(name)
            self._sections[name] = self._read_back(within, data[name] if within else None, name)
        return self._sections[name]

    def _read_back(
        self, within: ranges.Lines | None, before: Any, key: int | str
    ) -> tuple[loader.Document, int] | None:
        """The lines ``within`` read again keeping every position, and their first line, when
        they hold just ``key`` (a test case: 0; a root key: its name) read back as ``before``."""
        if within is None:
            return None
        first, after = within
        text = self._doc.text
        starts = lines.starts(text)
        end = starts[after - 1] if after is not None and after <= len(starts) else len(text)
        reread = loader.load(text[starts[first - 1] : end], limits=self._limits, positions="all")
        data = reread.data
        if isinstance(key, str):
            held = isinstance(data, dict) and list(data) == [key]
        else:
            held = isinstance(data, list) and len(data) == 1
        if reread.diagnostics or not held:
            return None
        return (reread, first) if _read_back(reread, data[key], before) else None

    def _section_lines(self, name: str) -> ranges.Lines | None:
        """The lines from the root key ``name`` to the next root key (None: the end)."""
        doc = self._doc
        data = doc.data
        if doc.positions is None or not isinstance(data, dict) or name not in data:
            return None
        keys = list(data)
        line, column = _at(doc, (name,), True)
        if column != 1:
            return None
        following = keys.index(name) + 1
        if following == len(keys):
            return line, None
        after = _at(doc, (keys[following],), True)[0]
        return (line, after) if after > line else None

    def lines(self, parts: JsonPath) -> ranges.Lines | None:
        """The lines of the test case, else root key, holding ``parts``, when its own."""
        index, _ = self.case_of(parts)
        if index is not None:
            return self._case_lines_of(index)
        if len(parts) > 1 and self._own(parts) is not None and isinstance(parts[0], str):
            return self._section_lines(parts[0])
        return None

    def scope(self, parts: JsonPath) -> ranges.Lines | None:
        """The lines of the test case, else root key, holding ``parts`` (None: not its own)."""
        index, _ = self.case_of(parts)
        if index is not None:
            return self._case_lines_of(index)
        return self._section_lines(parts[0]) if parts and isinstance(parts[0], str) else None

    def _case_lines_of(self, index: int) -> ranges.Lines | None:
        if index in self._case_lines:
            return self._case_lines[index]
        doc = self._doc
        found = self._listed
        own = None
        if doc.positions is not None and found is not None and 0 <= index < len(found[0]):
            cases, base = found
            item = _at(doc, (*base, index), False)
            following = _at(doc, (*base, index + 1), False) if index + 1 < len(cases) else None
            own = ranges.item_lines(doc.text, item, following)
        self._case_lines[index] = own
        return own


def _at(doc: loader.Document, parts: JsonPath, key: bool) -> Position:
    positions = doc.positions
    if positions is None:
        return 1, 1
    return positions.key(doc.data, parts) if key else positions.value(doc.data, parts)


def _value_end(
    text: str, positions: Positions, data: Any, parts: JsonPath, at: Position
) -> Position | None:
    """Where the value at ``parts``, written at ``at``, ends, from the parser event the builder
    noted (no second parse); None when it noted none."""
    if not parts:
        return None  # the document: its text, trailing space aside (see ranges)
    parent = node_at(data, parts[:-1])
    noted = positions.value_ends.get(id(parent))
    if noted is None or positions.values.get(id(parent)) is None:
        return None
    part = parts[-1]
    try:
        start, record = noted[part]
        written = positions.values[id(parent)][part]
    except (KeyError, IndexError, TypeError):
        return None
    if written != at or record is None:
        return None
    first_index, first_line, first_column, index, line, column, style = record
    line, column = line + 1, column + 1
    if style is not None:
        index, line, column = block_end(
            text, first_index, (first_line + 1, first_column + 1), index
        )
    return (line, column) if index > start else None


def is_same(a: Any, b: Any) -> bool:
    """Whether two loaded values are equal, of the same types, keys in the same order (NaN
    equal to NaN); iterative, so a deep document cannot exhaust the stack."""
    pending = [(a, b)]
    while pending:
        x, y = pending.pop()
        if type(x) is not type(y):
            return False
        if type(x) is dict:
            if list(x) != list(y):
                return False
            pending.extend(zip(x.values(), y.values(), strict=True))
        elif type(x) is list:
            if len(x) != len(y):
                return False
            pending.extend(zip(x, y, strict=True))
        elif x != y and not (x != x and y != y):
            return False
    return True


def _read_back(reading: loader.Document, reread: Any, first: Any) -> bool:
    """:func:`same`, proven at once (ten times faster) when ``marshal`` 2, which keeps types,
    key order and float bits, writes both alike; asked only without an alias (``*``), so the
    bytes stay the size of the lines."""
    if "*" not in reading.text:
        try:
            if marshal.dumps(reread, 2) == marshal.dumps(first, 2):
                return True
        except ValueError:
            pass
    return is_same(reread, first)
