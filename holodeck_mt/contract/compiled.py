"""Schema faults, settled by a compiled validator whenever it can.

Python jsonschema is the reference: every diagnostic comes from its errors. But
most documents are valid, and asking a compiled validator (jsonschema-rs) "is
this valid?" costs a hundredth of walking the document with jsonschema. So:

1. the compiled validator of the root schema says the document is valid: there
   are no schema faults, and jsonschema is never imported;
2. it says invalid: the compiled validator of ``TestCase`` finds which test
   cases are invalid, and jsonschema runs on the document with only those test
   cases in its list (a fault in 1% of the test cases costs 1% of a full run).
   The errors' paths are mapped back to the real indices, so the faults are
   the ones a full run finds, in the same order;
3. anything the compiled validator cannot take (a value JSON has no type for,
   a lone surrogate, a non-string key: it raises) or a document it has not been
   checked for, and ``HOLODECK_MT_ENGINE=python``: jsonschema on the whole
   document, as without jsonschema-rs.

Where the two validators disagree, the compiled one is the stricter (Python's
``$`` also matches before a final newline, its ``\\w`` takes non-ASCII letters,
and it accepts NaN wherever a number goes): a document it rejects goes to
jsonschema, whose verdict stands. ``tests/contract/test_engines_agree.py`` checks that
both paths give the same diagnostics on every fixture and generated corpora.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from holodeck_mt import walk
from holodeck_mt.contract import registry as sch
from holodeck_mt.contract.walker import ANNOTATIONS, without_annotations
from holodeck_mt.model import Fault, JsonPath

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

#: ``python``: always Python jsonschema; ``auto`` (the default): the compiled
#: validator when jsonschema-rs is installed, jsonschema for located messages.
ENGINE_VARIABLE = "HOLODECK_MT_ENGINE"

TEST_CASE = sch.BASE_URI + "test-case.schema.json#/$defs/TestCase"
_TEST_CASES = sch.BASE_URI + "test-case.schema.json"
_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def engine() -> str:
    """The engine ``HOLODECK_MT_ENGINE`` asks for (``auto`` unless it says ``python``)."""
    chosen = os.environ.get(ENGINE_VARIABLE, "auto").strip().lower()
    return "python" if chosen == "python" else "auto"


def schema_faults(
    root: str, data: Any, *, compiled: bool = True, max_cases: int = 0
) -> list[Fault]:
    """Every fault the schema ``root`` finds in ``data``, as a full jsonschema run finds them.

    ``compiled=False`` (data a compiled validator cannot judge) forces jsonschema.
    ``max_cases`` (0: no limit) examines only the first so many invalid test cases
    with jsonschema; one ``HMT220`` fault counts the others (a hostile file can hold
    a million faulty test cases: their diagnostics would not be shown anyway).
    """
    validators = _compiled() if compiled and engine() == "auto" else None
    if validators is None:
        return _python(root, data, max_cases)
    located = walk.test_case_list(data)
    try:
        if _valid_whole(validators, root, data, located):
            return []
    except Exception:  # a value it cannot take: jsonschema judges the document
        return _python(root, data, max_cases)
    if located is None or not validators.subset_safe:
        return _python(root, data, max_cases)
    return _by_test_case(validators, root, data, located, max_cases)


def _valid_whole(
    validators: _Validators, root: str, data: Any, located: tuple[list[Any], JsonPath] | None
) -> bool:
    """The compiled validator's verdict on the whole document.

    The compiled validator copies what it judges: given the whole document, a copy of
    every test case, which would double a large file's memory. Where the schema allows
    (``subset_safe``), it judges the document with one test case in its list, then
    each test case on its own, and the list's length apart: the same verdict, with a
    copy of one test case at a time. A list longer than the schema allows is invalid
    at once (each test case is judged on its own then, by :func:`_by_test_case`).
    """
    if located is None or not located[0] or not validators.subset_safe:
        return bool(validators.root(root).is_valid(data))
    cases, prefix = located
    length = validators.list_length
    if not length.get("minItems", 0) <= len(cases) <= length.get("maxItems", len(cases)):
        return False
    one = cases[:1]
    if not validators.root(root).is_valid(one if not prefix else {**data, prefix[0]: one}):
        return False
    case_validator = validators.root(TEST_CASE)
    return all(case_validator.is_valid(case) for case in cases)


def _by_test_case(
    validators: _Validators,
    root: str,
    data: Any,
    located: tuple[list[Any], JsonPath],
    max_cases: int,
) -> list[Fault]:
    """jsonschema on the document with only its invalid test cases in the list."""
    cases, prefix = located
    bad = _invalid_cases(validators, cases)
    skipped: list[Fault] = []
    if max_cases and len(bad) > max_cases:
        rest, bad = bad[max_cases:], bad[:max_cases]
        skipped.append(_not_examined(rest, prefix))
    subset = [cases[i] for i in bad]
    shadow: Any = subset if not prefix else {**data, prefix[0]: subset}
    from holodeck_mt.contract import messages as schema_errors

    errors = _renumbered(sch.validator(root).iter_errors(shadow), prefix, bad)
    # The shortened list says nothing of the real one's length: that is checked on it.
    kept = (e for e in errors if not (e.validator in _LENGTH and tuple(e.path) == prefix))
    length = _length_errors(validators.list_length, cases, prefix)
    # Lazily: each error (with its graph of sub-errors) is freed once its faults are out.
    return schema_errors.faults_of(itertools.chain(kept, length)) + skipped


def _invalid_cases(validators: _Validators, cases: list[Any]) -> list[int]:
    """The indices of the test cases the compiled ``TestCase`` validator rejects."""
    case_validator = validators.root(TEST_CASE)
    bad: list[int] = []
    for i, case in enumerate(cases):
        try:
            valid = case_validator.is_valid(case)
        except Exception:  # a value it cannot take: jsonschema judges the test case
            valid = False
        if not valid:
            bad.append(i)
    return bad


def _not_examined(rest: list[int], prefix: JsonPath) -> Fault:
    return Fault(
        "HMT220",
        f"{len(rest):,} more invalid test case{'' if len(rest) == 1 else 's'} not "
        "examined, from this one on",
        (*prefix, rest[0]),
        hint="--max-diagnostics 0 examines them all",
    )


def _python(root: str, data: Any, max_cases: int = 0) -> list[Fault]:
    """jsonschema on the whole document; with ``max_cases``, it stops past that many faults."""
    from holodeck_mt.contract import messages as schema_errors

    if not max_cases:
        return schema_errors.faults(sch.validator(root), data)
    found: list[Fault] = []
    for error in sch.validator(root).iter_errors(data):
        found += schema_errors.faults_of([error])
        if len(found) > max_cases:
            found.append(
                Fault(
                    "HMT220",
                    f"schema validation stopped after {len(found):,} faults; more may follow",
                    found[-1].parts,
                    hint="--max-diagnostics 0 examines them all",
                )
            )
            break
    return found


def _renumbered(
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


class _Validators:
    """Compiled validators of our schema files: each root's, and ``TestCase``'s."""

    def __init__(self, module: Any, files: dict[str, dict[str, Any]]) -> None:
        self._module = module
        self._registry = module.Registry(
            [(uri, without_annotations(contents)) for uri, contents in files.items()],
            retriever=sch.refuse_retrieval,
        )
        self._roots: dict[str, Any] = {}
        # Only a list that constrains nothing but its items can be shortened
        # without changing what the schema says about it.
        definition = files[_TEST_CASES]["$defs"]["TestCases"]
        # Its length keywords are checked on the real list, beside the shortened one.
        self.list_length = {k: v for k, v in definition.items() if k in _LENGTH}
        self.subset_safe = set(definition) - ANNOTATIONS <= {"type", "items", *_LENGTH}

    def root(self, uri: str) -> Any:
        """The validator of the schema at ``uri`` (a root, or ``TestCase``), built once."""
        if uri not in self._roots:
            self._roots[uri] = self._module.validator_for(
                {"$schema": _DRAFT, "$ref": uri},
                registry=self._registry,
                retriever=sch.refuse_retrieval,
            )
        return self._roots[uri]


_LENGTH = ("minItems", "maxItems")


def _length_errors(
    keywords: dict[str, Any], cases: list[Any], prefix: JsonPath
) -> list[ValidationError]:
    """The test-case list's length errors, as a full run reports them (at the list's path)."""
    if not keywords:
        return []
    from jsonschema import Draft202012Validator

    errors = list(Draft202012Validator(keywords).iter_errors(cases))
    for error in errors:
        error.path.extendleft(reversed(prefix))
    return errors


@cache
def _compiled() -> _Validators | None:
    """The compiled validators, or None without jsonschema-rs."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return _Validators(jsonschema_rs, sch.schema_files())


def available() -> bool:
    """True when the compiled path is installed and not switched off."""
    return engine() == "auto" and _compiled() is not None


def warm() -> None:
    """Build the compiled validators of both roots now (before forking workers)."""
    validators = _compiled() if engine() == "auto" else None
    if validators is not None:
        validators.root(sch.DOCUMENT)
        validators.root(sch.TEST_CASES_FILE)
        validators.root(TEST_CASE)
