"""Schema faults, settled by jsonschema-rs whenever it can; jsonschema words every fault, run
on the invalid test cases only (docs/architecture.md), and where the two disagree it decides."""

from __future__ import annotations

import importlib
import itertools
import os
from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from holodeck_mt import layout
from holodeck_mt.contract import registry as sch
from holodeck_mt.contract.walker import ANNOTATIONS, rebuild
from holodeck_mt.model import CAPPED, Fault, JsonPath
from holodeck_mt.wording.hints import plural

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

ENGINE_VARIABLE = "HOLODECK_MT_ENGINE"

TEST_CASE = sch.BASE_URI + "test-case.schema.json#/$defs/TestCase"
_TEST_CASES = sch.BASE_URI + "test-case.schema.json"
_DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: A compiled validator of each root schema, by its URI.
Compiled = Callable[[str], Any]


def _fast() -> Compiled | None:
    """The compiled validators, unless ``HOLODECK_MT_ENGINE`` says ``python`` or none import."""
    chosen = os.environ.get(ENGINE_VARIABLE, "auto").strip().lower()
    return None if chosen == "python" else _compile()


def schema_faults(
    root: str, data: Any, *, compiled: bool = True, max_cases: int = 0
) -> list[Fault]:
    """Every fault the schema ``root`` finds in ``data``, as a full jsonschema run finds them
    (``compiled=False``: that run); past ``max_cases`` (0: no limit) invalid test cases, HMT220."""
    fast = _fast() if compiled else None
    if fast is None:
        return _python(root, data, max_cases)
    located = layout.test_case_list(data)
    try:
        if _valid_whole(fast, root, data, located):
            return []
    except Exception:  # a value it cannot take: jsonschema judges the document
        located = None
    if located is None:
        return _python(root, data, max_cases)
    return _by_test_case(fast, root, data, located, max_cases)


def _valid_whole(
    fast: Compiled, root: str, data: Any, located: tuple[list[Any], JsonPath] | None
) -> bool:
    """The compiled validator's verdict on the whole document, a test case at a time: it
    copies what it judges, and a copy of the whole would double a large file's memory."""
    if located is None or not located[0]:
        return bool(fast(root).is_valid(data))
    cases, prefix = located
    length = _list_length()
    if not length.get("minItems", 0) <= len(cases) <= length.get("maxItems", len(cases)):
        return False
    one = cases[:1]
    if not fast(root).is_valid(one if not prefix else {**data, prefix[0]: one}):
        return False
    case_validator = fast(TEST_CASE)
    return all(case_validator.is_valid(case) for case in cases)


def _by_test_case(
    fast: Compiled, root: str, data: Any, located: tuple[list[Any], JsonPath], max_cases: int
) -> list[Fault]:
    """jsonschema on the document with only its invalid test cases in the list."""
    cases, prefix = located
    bad = _invalid_cases(fast(TEST_CASE), cases)
    skipped: list[Fault] = []
    if max_cases and len(bad) > max_cases:
        unexamined, bad = bad[max_cases:], bad[:max_cases]
        more = plural(len(unexamined), "more invalid test case", grouped=True)
        skipped.append(_cap(f"{more} not examined, from this one on", (*prefix, unexamined[0])))
    subset = [cases[i] for i in bad]
    shadow: Any = subset if not prefix else {**data, prefix[0]: subset}
    from holodeck_mt.contract import messages as schema_errors

    errors = _renumber(sch.validator(root).iter_errors(shadow), prefix, bad)
    # The shortened list says nothing of the real one's length: that is checked on it.
    kept = (e for e in errors if not (e.validator in _LENGTH and tuple(e.path) == prefix))
    length = _length_errors(_list_length(), cases, prefix)
    # Lazily: each error (with its graph of sub-errors) is freed once its faults are out.
    return schema_errors.faults_of(itertools.chain(kept, length)) + skipped


def _invalid_cases(case_validator: Any, cases: list[Any]) -> list[int]:
    """The indices of the test cases the compiled ``TestCase`` validator rejects."""
    bad: list[int] = []
    for i, case in enumerate(cases):
        try:
            valid = case_validator.is_valid(case)
        except Exception:  # a value it cannot take: jsonschema judges the test case
            valid = False
        if not valid:
            bad.append(i)
    return bad


def _python(root: str, data: Any, max_cases: int = 0) -> list[Fault]:
    """jsonschema on the whole document; with ``max_cases``, it stops past that many faults."""
    from holodeck_mt.contract import messages as schema_errors

    found: list[Fault] = []
    for error in sch.validator(root).iter_errors(data):
        found += schema_errors.faults_of([error])
        if max_cases and len(found) > max_cases:
            stopped = f"schema validation stopped after {len(found):,} faults; more may follow"
            found.append(_cap(stopped, found[-1].parts))
            break
    return found


def _cap(message: str, parts: JsonPath) -> Fault:
    return Fault(CAPPED, message, parts, hint="--max-diagnostics 0 examines them all")


def _renumber(
    errors: Iterator[ValidationError], to_list: JsonPath, indices: list[int]
) -> Iterator[ValidationError]:
    """Errors on the shortened list, with the test-case index a full run would give."""
    depth, prefix = len(to_list), list(to_list)
    for error in errors:
        path = error.relative_path
        if len(path) > depth and list(path)[:depth] == prefix:
            index = path[depth]
            if isinstance(index, int):
                path[depth] = indices[index]
        yield error


_LENGTH = ("minItems", "maxItems")


@cache
def _list_length() -> dict[str, Any]:
    """The test-case list's length keywords, checked on the real list."""
    definition = sch.schema_files()[_TEST_CASES]["$defs"]["TestCases"]
    return {k: v for k, v in definition.items() if k in _LENGTH}


def _length_errors(
    keywords: dict[str, Any], cases: list[Any], prefix: JsonPath
) -> list[ValidationError]:
    """The test-case list's length errors, as a full run reports them (at the list's path)."""
    if not keywords:
        return []
    # The registry's validator, quiet keywords and all: jsonschema's own maxItems would word
    # the whole list with repr.
    errors = list(sch.validator().evolve(schema=keywords).iter_errors(cases))
    for error in errors:
        error.path.extendleft(reversed(prefix))
    return errors


@cache
def _compile() -> Compiled | None:
    """The compiled validator of each root schema (built once), or None without jsonschema-rs."""
    try:
        # Any: its stubs want a RetrieverProtocol
        rs: Any = importlib.import_module("jsonschema_rs")
    except ImportError:
        return None
    registry = rs.Registry(
        [
            (uri, rebuild(contents, keep=lambda k: k not in ANNOTATIONS))
            for uri, contents in sch.schema_files().items()
        ],
        retriever=sch.refuse_retrieval,
    )

    @cache
    def root(uri: str) -> Any:
        schema = {"$schema": _DRAFT, "$ref": uri}
        return rs.validator_for(schema, registry=registry, retriever=sch.refuse_retrieval)

    return root


def warm() -> None:
    """Build the compiled validators of both roots now (before forking workers)."""
    fast = _fast()
    if fast is not None:
        for root in (sch.DOCUMENT, sch.TEST_CASES_FILE, TEST_CASE):
            fast(root)
