"""Faults become the file's diagnostics: located, worded as written (no variable's value),
then once per file clipped, sorted, deduplicated and capped."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from holodeck_mt.limits import Limits
from holodeck_mt.locate.provenance import Provenance, strip_marks
from holodeck_mt.model import MESSAGE, Diagnostic, Fault, JsonPath, clip, make, under
from holodeck_mt.read.document import Reading
from holodeck_mt.wording.hints import plural

if TYPE_CHECKING:
    from holodeck_mt.locate.locate import Locator

#: Which diagnostics a file reports (the codes selected, its suppressions); None: all.
Keep = Callable[[Diagnostic], bool] | None
#: The keys that say what a mapping is: the rest of it is read by what they say.
KIND_KEYS = frozenset({"metric", "type"})


def diagnose(
    reading: Reading,
    faults: list[Fault],
    limits: Limits,
    origin: Provenance | None = None,
    keep: Keep = None,
) -> tuple[list[Diagnostic], Provenance | None]:
    """The file's diagnostics: each fault of ``reading`` and what the reading found, located,
    resolved by where its substituted values lie (``origin``: the agent.yaml's, for its
    test-cases file), placed in the text as written, and finished; and those values' ranges."""
    sub = reading.sub
    resolving = bool(sub.used or origin) and not reading.too_large
    found, locator = _locate_faults(reading, faults, limits, resolving)
    provenance = Provenance(reading, locator, origin) if resolving else None
    found = [provenance.diagnostic(d) if provenance else strip_marks(d) for d in found]
    if sub.spans:
        found = [d for d in map(reading.place, found) if d is not None]
    return finish([*found, *reading.found], limits, keep), provenance


def _locate_faults(
    reading: Reading, faults: list[Fault], limits: Limits, resolving: bool
) -> tuple[list[Diagnostic], Locator | None]:
    """Every fault of the document (that of the test-cases file it names not followed
    included), with the reader's diagnostics and the dialect's warnings no fault covers,
    located; and the locator, when there was one to make (``resolving``: provenance needs it)."""
    doc, followed = reading.doc, reading.followed
    if not doc.loaded:
        found = doc.diagnostics if reading.too_large else _add_ranges(doc.text, doc.diagnostics)
        return found, None
    faults = _prune(faults)
    if followed is not None and followed.fault is not None:
        faults.append(followed.fault)
    faulted = doc.reported | {f.parts for f in faults}
    found = [*doc.diagnostics, *(d for d in reading.dialect if not under(d.pointer_parts, faulted))]
    if not faults and not found and not resolving:
        return [], None
    from holodeck_mt.locate.locate import Locator  # a clean file needs none (start-up)

    locator = Locator(doc, limits)
    worded = _add_ranges(doc.text, map(locator.word, found))
    return [*locator.diagnostics(faults), *map(locator.in_test_case, worded)], locator


def _prune(faults: list[Fault]) -> list[Fault]:
    """No warning under a mapping whose kind key (``metric``, ``type``) is an error: under a
    misspelt metric, a warning on its other keys follows from the typo."""
    misnamed: set[JsonPath] = {
        f.parts[:-1]
        for f in faults
        if f.parts and f.parts[-1] in KIND_KEYS and f.severity == "error"
    }
    if not misnamed:
        return faults
    return [f for f in faults if f.severity == "error" or not under(f.parts, misnamed)]


def _add_ranges(text: str, found: Iterable[Diagnostic]) -> list[Diagnostic]:
    """``found`` with the ranges of what each names (a clean file imports no ranges)."""
    from holodeck_mt.text import ranges

    return ranges.with_ranges(text, found)


def _clip_quoted(d: Diagnostic) -> Diagnostic:
    """The diagnostic with everything it quotes from the input clipped."""
    message, path = clip(d.message, MESSAGE), clip(d.path, MESSAGE)
    hint = clip(d.hint, MESSAGE) if d.hint is not None else None
    test_case = clip(d.test_case) if d.test_case is not None else None
    if message is d.message and path is d.path and hint is d.hint and test_case is d.test_case:
        return d
    return dataclasses.replace(d, message=message, hint=hint, test_case=test_case, path=path)


def finish(found: Iterable[Diagnostic], limits: Limits, keep: Keep = None) -> list[Diagnostic]:
    """Those ``keep`` keeps (the rest not counted, :func:`_drop_lints_of_broken`), clipped, sorted,
    deduplicated, at most ``limits.max_diagnostics``; past the cap an ``HMT220`` counts the
    rest by code."""
    kept = [d for d in found if keep is None or keep(d)]
    kept = _dedupe(map(_clip_quoted, _drop_lints_of_broken(kept)))
    cap = limits.max_diagnostics
    if not cap or len(kept) <= cap:
        return kept
    # A count of test cases not examined (contract/compiled) stays, after the capped list.
    counts = [d for d in kept if d.code == "HMT220"]
    kept = [d for d in kept if d.code != "HMT220"]
    if len(kept) <= cap:
        return [*kept, *counts]
    rest = kept[cap:]
    errors = sum(d.severity == "error" for d in rest)
    first = rest[0]
    warnings = len(rest) - errors
    more = make(
        "HMT220",
        f"{plural(len(rest), 'more diagnostic', grouped=True)} not shown, from this line on "
        f"({plural(errors, 'error', grouped=True)}, {plural(warnings, 'warning', grouped=True)})",
        first.line,
        first.column,
        hint="--max-diagnostics 0 shows them all",
    )
    more = dataclasses.replace(more, not_shown=dict(Counter(d.code for d in rest)))
    return [*kept[:cap], more, *counts]


def _drop_lints_of_broken(kept: list[Diagnostic]) -> list[Diagnostic]:
    """``kept`` less the run-time lints in a test case showing an error (its plan unknown
    until that is fixed): an error not shown (silenced, not selected) hides nothing."""
    broken = {d.test_case_index for d in kept if d.severity == "error"} - {None}
    if not broken:
        return kept
    from holodeck_mt.rules.registry import RULES

    lints = {rule.code for rule in RULES if rule.runs == "runtime"}
    return [d for d in kept if d.code not in lints or d.test_case_index not in broken]


def _dedupe(found: Iterable[Diagnostic]) -> list[Diagnostic]:
    first: dict[tuple[str, str, str], Diagnostic] = {}
    for d in sorted(found, key=Diagnostic.sort_key):
        first.setdefault((d.code, d.pointer, d.message), d)
    return list(first.values())
