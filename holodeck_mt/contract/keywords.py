"""jsonschema's keywords whose error messages would quote the instance, made not to.

jsonschema builds each message eagerly with ``repr(instance)``, which we never show: a 1 MB
string aliased a thousand times would make each ``oneOf`` error carry a gigabyte. Each
keyword here decides exactly as jsonschema does and names only the keyword that failed.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any

from jsonschema._utils import equal, uniq
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

Errors = Iterator[ValidationError]
Keyword = Callable[[Any, Any, Any, Any], Errors]


def _failed(keyword: str, **extra: Any) -> ValidationError:
    return ValidationError(f"the instance fails `{keyword}`", **extra)


def type_(validator: Any, types: Any, instance: Any, schema: Any) -> Errors:
    wanted = types if isinstance(types, list) else [types]
    if not any(validator.is_type(instance, kind) for kind in wanted):
        yield _failed("type")


def enum(validator: Any, choices: Any, instance: Any, schema: Any) -> Errors:
    if all(not equal(choice, instance) for choice in choices):
        yield _failed("enum")


def pattern(validator: Any, regex: str, instance: Any, schema: Any) -> Errors:
    if validator.is_type(instance, "string") and not _ending_at_end(regex).search(instance):
        yield _failed("pattern")


@functools.cache
def _ending_at_end(regex: str) -> re.Pattern[str]:
    """``regex`` with each ``$`` anchor (outside a class, not escaped) as ``\\Z``: the end of
    the text, as editors and the platform's pydantic read it (Python's ``$`` also matches
    before a final newline)."""
    out: list[str] = []
    in_class = escaped = False
    for char in regex:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = "\\Z"
        out.append(char)
    return re.compile("".join(out))


def _size_bound(keyword: str, kind: str, too_far: Callable[[int, int], bool]) -> Keyword:

    def check(validator: Any, bound: int, instance: Any, schema: Any) -> Errors:
        if validator.is_type(instance, kind) and too_far(len(instance), bound):
            yield _failed(keyword)

    return check


#: The keywords that bound a size: the instance type they apply to, and the failing side.
_SIZE_BOUNDS = {
    "minLength": ("string", operator.lt),
    "maxLength": ("string", operator.gt),
    "minItems": ("array", operator.lt),
    "maxItems": ("array", operator.gt),
    "minProperties": ("object", operator.lt),
    "maxProperties": ("object", operator.gt),
}


def uniqueItems(validator: Any, unique: bool, instance: Any, schema: Any) -> Errors:
    if unique and validator.is_type(instance, "array") and not uniq(instance):
        yield _failed("uniqueItems")


def anyOf(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Errors:
    found: list[ValidationError] = []
    for index, branch in enumerate(branches):
        errors = list(validator.descend(instance, branch, schema_path=index))
        if not errors:
            return
        found.extend(errors)
    yield _failed("anyOf", context=found)


def oneOf(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Errors:
    found: list[ValidationError] = []
    for index, branch in enumerate(branches):
        errors = list(validator.descend(instance, branch, schema_path=index))
        if not errors:
            others = branches[index + 1 :]
            if any(validator.evolve(schema=other).is_valid(instance) for other in others):
                yield _failed("oneOf")
            return
        found.extend(errors)
    yield _failed("oneOf", context=found)


def not_(validator: Any, refused: Any, instance: Any, schema: Any) -> Errors:
    if validator.evolve(schema=refused).is_valid(instance):
        yield _failed("not")


def contains(validator: Any, wanted: Any, instance: Any, schema: Any) -> Errors:
    if not validator.is_type(instance, "array"):
        return
    least = schema.get("minContains", 1)
    most = schema.get("maxContains", len(instance))
    matcher = validator.evolve(schema=wanted)
    matches = 0
    for item in instance:
        if matcher.is_valid(item):
            matches += 1
            if matches > most:
                yield _failed("maxContains", validator="maxContains", validator_value=most)
                return
    if matches < least:
        if not matches:
            yield _failed("contains")
        else:
            yield _failed("minContains", validator="minContains", validator_value=least)


KEYWORDS: dict[str, Keyword] = {
    "type": type_,
    "enum": enum,
    "pattern": pattern,
    **{
        keyword: _size_bound(keyword, kind, too_far)
        for keyword, (kind, too_far) in _SIZE_BOUNDS.items()
    },
    "uniqueItems": uniqueItems,
    "anyOf": anyOf,
    "oneOf": oneOf,
    "not": not_,
    "contains": contains,
}


def extended(base: type[Validator]) -> type[Validator]:
    """``base`` with the keywords above in place of its own."""
    from jsonschema import validators

    return validators.extend(base, KEYWORDS)  # type: ignore[no-any-return,no-untyped-call]
