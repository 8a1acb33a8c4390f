"""Values that came from a ``${NAME}`` reference (often secrets, and a report reaches CI logs,
editors and caches): never shown, named by their reference, from the start while a file is
judged (:func:`judging`), and replaced wherever they remain by :meth:`Values.diagnostic`."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from holodeck_mt.model import Diagnostic, Intent

#: A value this long is replaced wherever it stands in a text, not only where it is
#: the whole value (a shorter one would match common words and numbers).
WHOLE = 4
#: A value's first characters, this many or more, are replaced too: a value clipped
#: (``'sk-abc…'``) is still a secret.
SLICE = 8
#: Any stretch of this many characters of a value is replaced, wherever in the value it
#: starts (longer than :data:`SLICE`: eight characters of a value are often a word).
STRETCH = 16
#: The most stretches of values indexed (memory); the values past it are replaced whole.
MOST_SLICES = 262_144
#: A text this long is hidden once per text judged and its result remembered.
_REMEMBERED = 1024


def reference(name: str) -> str:
    """How a reference is written: ``${NAME}``."""
    return "${" + name + "}"


class Values:
    """The values of the set references of one text, each with the name it came from."""

    def __init__(self, used: Mapping[str, str], readings: Mapping[str, Any] | None = None) -> None:
        """``readings``: what YAML reads a value as when it is not a string (``0.7``)."""
        self._by_value: dict[str, str] = {}
        for name, value in used.items():
            if value:
                self._by_value.setdefault(value, name)
        self._readings: dict[tuple[type, Any], str] = {}
        for name, read in (readings or {}).items():
            if isinstance(read, (bool, int, float)) and not isinstance(read, str):
                self._readings.setdefault((type(read), read), name)
        # Longest first: a value holding another is replaced whole.
        self._long = sorted(
            ((v, n) for v, n in self._by_value.items() if len(v) >= WHOLE),
            key=lambda pair: -len(pair[0]),
        )
        self._remembered: dict[str, str] = {}
        self._heads: dict[str, list[tuple[str, str]]] = {}
        self._stretches: dict[str, str] = {}
        room = MOST_SLICES
        for value, name in self._long:
            if len(value) < SLICE:
                continue
            self._heads.setdefault(value[:SLICE], []).append((value, name))
            for i in range(min(len(value) - STRETCH + 1, room)):
                self._stretches.setdefault(value[i : i + STRETCH], name)
            room -= max(len(value) - STRETCH + 1, 0)

    def __bool__(self) -> bool:
        return bool(self._by_value) or bool(self._readings)

    def name_of(self, value: Any) -> str | None:
        """The variable ``value`` is the whole value of, if any."""
        if isinstance(value, str):
            return self._by_value.get(value)
        if isinstance(value, (bool, int, float)):
            return self._readings.get((type(value), value))
        return None

    def as_written(self, text: str) -> str:
        """``text`` with each value of meaningful length, or the whole text when it is one,
        written as its reference."""
        whole = self._by_value.get(text)
        if whole is not None:
            return reference(whole)
        for value, name in self._long:
            if value in text:
                text = text.replace(value, reference(name))
        return text

    def hidden(self, text: str) -> str:
        """:meth:`as_written`, and every start of a value of :data:`SLICE` characters or more
        and every stretch of :data:`STRETCH` characters of one replaced by its reference."""
        if len(text) < _REMEMBERED:
            return self._hidden(text)
        # A key or a name of a megabyte, repeated by aliases, is hidden once, not per diagnostic.
        done = self._remembered.get(text)
        if done is None:
            done = self._remembered[text] = self._hidden(text)
        return done

    def _hidden(self, text: str) -> str:
        text = self.as_written(text)
        if not self._heads or len(text) < SLICE:
            return text
        marked: list[str | None] = [None] * len(text)
        covered = 0  # every character from the start of the run holding i to here is marked
        for i in range(len(text) - SLICE + 1):
            # A value's start inside a run marked already is (nearly always) part of it.
            heads = self._heads.get(text[i : i + SLICE], ()) if i >= covered else ()
            for value, name in heads:
                covered = _mark(marked, max(i, covered), i + _common(value, text, i), name)
            if self._stretches and i + STRETCH > covered:
                stretch = self._stretches.get(text[i : i + STRETCH])
                if stretch is not None:
                    covered = _mark(marked, max(i, covered), i + STRETCH, stretch)
        if not covered:  # nothing marked: a mark ends past offset 0
            return text
        out, at = [], 0
        for plain, run in itertools.groupby(marked, key=lambda by: by is None):
            length = sum(1 for _ in run)
            out.append(text[at : at + length] if plain else reference(marked[at] or ""))
            at += length
        return "".join(out)

    def diagnostic(self, d: Diagnostic) -> Diagnostic:
        """``d`` holding no value: its message, hint, test case and path hidden; its fix
        dropped when it would write a value."""
        test_case = self.as_written(d.test_case) if d.test_case else d.test_case
        new: dict[str, Any] = {
            "message": self.hidden(d.message),
            "hint": self.hidden(d.hint) if d.hint else d.hint,
            "test_case": self.hidden(test_case) if test_case else test_case,
            "pointer_parts": tuple(
                self.hidden(p) if isinstance(p, str) else p for p in d.pointer_parts
            ),
            "path": self.hidden(d.path),
        }
        fix = d.fix if d.fix is None or not self._in_intent(d.fix) else None
        if fix is d.fix and all(getattr(d, key) == value for key, value in new.items()):
            return d
        return dataclasses.replace(d, fix=fix, **new)

    def _in_intent(self, intent: Intent) -> bool:
        """Whether a fix would write (or its hint show) a value."""
        fields = (getattr(intent, f.name) for f in dataclasses.fields(intent))
        return any(isinstance(field, str) and self.hidden(field) != field for field in fields)


def _mark(marked: list[str | None], start: int, end: int, name: str) -> int:
    """Mark ``[start, end)`` as ``name``'s; the end of the run marked."""
    marked[start:end] = [name] * (end - start)
    return max(start, end)


def _common(value: str, text: str, at: int) -> int:
    """How many characters of ``text`` from ``at`` are ``value``'s first ones, by halves."""
    low, high = SLICE, min(len(value), len(text) - at)
    while low < high:
        middle = (low + high + 1) // 2
        if text[at : at + middle] == value[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


_JUDGING: ContextVar[Values | None] = ContextVar("holodeck_mt_substituted", default=None)


@contextmanager
def judging(values: Values | None) -> Iterator[None]:
    """Make ``values`` the ones every fault made meanwhile names by their reference."""
    token = _JUDGING.set(values if values else None)
    try:
        yield
    finally:
        _JUDGING.reset(token)


def current() -> Values | None:
    """The values of the text being judged, if it has any."""
    return _JUDGING.get()


def name_of(value: Any) -> str | None:
    """The variable ``value`` of the text being judged is the value of, if any."""
    values = _JUDGING.get()
    return values.name_of(value) if values is not None else None


def as_written(text: str) -> str:
    """``text`` (a name, a key) as written in the text being judged: values as references."""
    values = _JUDGING.get()
    return values.as_written(text) if values is not None else text


def phrase(value: Any) -> str | None:
    """``the value of `${NAME}` ``, for a value that came whole from a reference."""
    name = name_of(value)
    return None if name is None else f"the value of `{reference(name)}`"
