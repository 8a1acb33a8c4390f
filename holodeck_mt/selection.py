"""Which codes a run reports: ``--select``, ``--ignore`` and per-file ignores, as ruff has
them (docs/usage.md): a code is reported when a selector of ``select`` matches it, unless
one of ``ignore`` matches it at least as closely; and the run's other :class:`Options`."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

#: What a selector looks like before it is checked against the registry.
SELECTOR = re.compile(r"HMT\d{0,3}")
#: Every code.
ALL = "HMT"


class SelectionError(ValueError):
    """A selector that names no code: the command's exit 2."""


def parse(values: Iterable[str], known: Iterable[str], *, where: str) -> tuple[str, ...]:
    """Selectors from ``values`` (comma-separated), checked against the ``known`` codes;
    :class:`SelectionError` naming ``where`` for one that matches no code."""
    codes = list(known)
    found: list[str] = []
    for value in values:
        for part in value.split(","):
            selector = part.strip().upper()
            if not selector:
                continue
            if selector == "ALL":
                selector = ALL
            if not SELECTOR.fullmatch(selector) or not any(c.startswith(selector) for c in codes):
                shown = part.strip()[:40]
                raise SelectionError(
                    f"{where}: unknown code '{shown}' (a code like HMT213, or a prefix like HMT2; "
                    "docs/diagnostics.md lists them)"
                )
            found.append(selector)
    return tuple(found)


def _closest(code: str, selectors: Iterable[str]) -> int:
    """How closely the best of ``selectors`` matches ``code``: its length, or -1."""
    return max((len(s) for s in selectors if code.startswith(s)), default=-1)


@dataclass(frozen=True)
class PerFileIgnore:
    #: A glob (``tests/**/*.yaml``, ``legacy/*``) of paths relative to ``root``.
    pattern: str
    codes: tuple[str, ...]


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...] = (ALL,)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[PerFileIgnore, ...] = ()
    #: The folder per-file globs are relative to: the configuration file's.
    root: Path | None = None
    _cache: dict[str, tuple[str, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def selects(self, code: str, path: str | None = None) -> bool:
        """Whether ``code`` is reported (in the file at ``path``, for per-file ignores)."""
        ignored = self.ignore + (self._ignored_in(path) if path is not None else ())
        return _closest(code, self.select) > _closest(code, ignored)

    @property
    def everything(self) -> bool:
        """Whether every code of every file is reported: nothing to filter."""
        return ALL in self.select and not self.ignore and not self.per_file_ignores

    def _ignored_in(self, path: str) -> tuple[str, ...]:
        if not self.per_file_ignores:
            return ()
        cached = self._cache.get(path)
        if cached is None:
            cached = tuple(
                code
                for rule in self.per_file_ignores
                if matches(path, self.root, rule.pattern)
                for code in rule.codes
            )
            self._cache[path] = cached
        return cached


def matches(path: str, root: Path | None, pattern: str) -> bool:
    """Whether the glob ``pattern``, relative to ``root`` (None: the working directory),
    matches ``path``; one without ``/`` matches the file name at any depth, as in ruff."""
    import fnmatch  # only when a configuration has globs

    absolute = os.path.abspath(path)
    base = os.path.abspath(root) if root is not None else os.getcwd()
    inside = os.path.commonpath([absolute, base]) == base
    relative = (os.path.relpath(absolute, base) if inside else absolute).replace(os.sep, "/")
    pattern = pattern.removeprefix("./")
    if "/" not in pattern:
        return fnmatch.fnmatchcase(relative.rsplit("/", 1)[-1], pattern)
    return any(fnmatch.fnmatchcase(relative, p) for p in (pattern, pattern.replace("**/", "")))


@dataclass(frozen=True)
class Options:
    """A run's options, every stage's to read: the selection and what the flags turn on."""

    #: Import each code grader and report what is missing (runs user code).
    import_graders: bool = False
    #: Check that each `files[*].path` exists relative to the agent.yaml.
    check_files: bool = False
    #: Let `test_cases_file` and `files[*].path` leave the repository tree.
    allow_outside_paths: bool = False
    #: The codes reported (``--select``, ``--ignore``, the configuration file).
    selection: Selection = field(default_factory=Selection)
    #: Report a suppression comment that silences nothing (HMT221).
    report_unused_ignores: bool = False
    #: Judge the agent.yaml's sections with the platform's models: ``auto``, ``off``, ``required``.
    platform: str = "auto"
    #: Warnings fail the file too (``--strict``, or the configuration's ``strict``).
    strict: bool = False
