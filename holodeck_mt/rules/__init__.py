"""The rules a schema cannot express, one module per rule.

Each module has ``check(context) -> Iterator[Fault]``. Opt-in rules (they import
user code or touch the file system) run only when their option asks for it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from holodeck_mt import walk
from holodeck_mt.model import Fault, JsonPath, under
from holodeck_mt.semantics.matchers import MatcherKind, classify

_Found = TypeVar("_Found")

#: The most nodes one walk keeps for the checks to share.
MOST_KEPT = 50_000


@dataclass(frozen=True)
class Options:
    #: Import each code grader and report what is missing (runs user code).
    import_graders: bool = False
    #: Check that each `files[*].path` exists relative to the agent.yaml.
    check_files: bool = False
    #: Let `test_cases_file` and `files[*].path` leave the repository tree.
    allow_outside_paths: bool = False


@dataclass
class Context:
    data: Any
    #: The folder `files[*].path` and graders are resolved against.
    base_dir: Path
    options: Options = field(default_factory=Options)
    #: Paths the schema or the loader already reported: a check skips them.
    reported: set[JsonPath] = field(default_factory=set)
    #: The tree paths named by the document must stay in (None: anywhere but /proc,
    #: /sys, /dev); see :mod:`holodeck_mt.read.confine`.
    tree: Path | None = None
    #: The agent.yaml naming this test-cases file (its metrics apply to these test cases).
    agent: Any = None
    #: Whether the run-time lints run: the validator sets it for a document (and agent.yaml)
    #: without errors, since a file with errors does not run at all.
    runtime: bool = False
    #: Results the checks share, computed once per document (e.g. the run-time plan).
    cache: dict[str, Any] = field(default_factory=dict)

    def already_reported(self, parts: JsonPath) -> bool:
        return under(parts, self.reported)

    def walked(self, walker: Callable[[Any], Iterable[_Found]]) -> Iterable[_Found]:
        """What ``walker`` (of :mod:`holodeck_mt.walk`) finds in the document: walked
        once, then shared by every check that asks (a large file has thousands of turns).
        Past :data:`MOST_KEPT` nodes it is walked again for each check instead: a hostile
        file's millions of nodes are never held in a list."""
        key = f"walked:{walker.__name__}"
        found = self.cache.get(key)
        if found is None:
            found = list(itertools.islice(walker(self.data), MOST_KEPT + 1))
            if len(found) > MOST_KEPT:
                return walker(self.data)
            self.cache[key] = found
        return found


Check = Callable[[Context], Iterator[Fault]]


def matchers(context: Context, kind: MatcherKind) -> Iterator[tuple[JsonPath, Any]]:
    """The ``kind`` matchers (``fuzzy``, ``regex``) of the expected tools' ``args`` not
    reported yet: the path of each one's pattern, and the pattern."""
    for parts, value in context.walked(walk.arg_values):
        matcher = classify(value)
        where = (*parts, kind)
        if matcher.kind == kind and not context.already_reported(where):
            yield where, matcher.value


def _when_runnable(check: Check) -> Check:
    def guarded(context: Context) -> Iterator[Fault]:
        if context.runtime:
            yield from check(context)

    guarded.__name__ = guarded.__qualname__ = getattr(check, "__module__", "check")
    return guarded


def all_checks(options: Options) -> list[Check]:
    from holodeck_mt.rules import (
        count_is_integer,
        duplicate_expected_tools,
        duplicate_names,
        empty_evaluations,
        enabled_false_ignored,
        files_exist,
        fuzzy_unnormalised,
        graders_import,
        ineffective_flags,
        literal_like_matcher,
        metric_settings_leak,
        non_finite_numbers,
        regex_compiles,
        regex_float_form,
        skipped_without_ground_truth,
        tolerance_dwarfs_ground_truth,
    )

    runtime: list[Check] = [
        metric_settings_leak.check,
        tolerance_dwarfs_ground_truth.check,
        enabled_false_ignored.check,
        empty_evaluations.check,
        skipped_without_ground_truth.check,
        regex_float_form.check,
        fuzzy_unnormalised.check,
    ]
    checks: list[Check] = [
        regex_compiles.check,
        non_finite_numbers.check,
        count_is_integer.check,
        ineffective_flags.check,
        duplicate_names.check,
        duplicate_expected_tools.check,
        literal_like_matcher.check,
        # Run-time lints: what the platform will really run (only on files without errors).
        *(_when_runnable(check) for check in runtime),
    ]
    if options.import_graders:
        checks.append(graders_import.check)
    if options.check_files:
        checks.append(files_exist.check)
    return checks
