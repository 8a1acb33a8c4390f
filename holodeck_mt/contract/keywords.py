"""jsonschema's keywords whose messages would quote the instance, made not to: it builds
each eagerly with ``repr(instance)``, and a 1 MB string aliased a thousand times would make
each ``oneOf`` error carry a gigabyte. Each decides as jsonschema does.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any

from jsonschema._utils import equal, find_additional_properties
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

Errors = Iterator[ValidationError]
Keyword = Callable[[Any, Any, Any, Any], Errors]


def _fail(keyword: str, **extra: Any) -> ValidationError:
    return ValidationError(f"the instance fails `{keyword}`", **extra)


@functools.cache
def _ending_at_end(regex: str) -> re.Pattern[str]:
    """``regex`` with each unescaped ``$`` outside a class as ``\\Z``, the end of the text as
    editors and pydantic read it (Python's ``$`` also matches before a final newline)."""
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


def _make_check(keyword: str, fails: Callable[[Any, Any, Any], bool]) -> Keyword:
    """The keyword that fails where ``fails(validator, its value, instance)``."""

    def check(validator: Any, value: Any, instance: Any, schema: Any) -> Errors:
        if fails(validator, value, instance):
            yield _fail(keyword)

    return check


def _size(kind: str, too_far: Callable[[int, int], bool]) -> Callable[[Any, Any, Any], bool]:
    return lambda v, bound, i: v.is_type(i, kind) and too_far(len(i), bound)


#: The keywords that only say whether they fail.
_FAILS: dict[str, Callable[[Any, Any, Any], bool]] = {
    "type": lambda v, types, i: (
        not any(v.is_type(i, kind) for kind in (types if isinstance(types, list) else [types]))
    ),
    "enum": lambda v, choices, i: all(not equal(choice, i) for choice in choices),
    "pattern": lambda v, regex, i: v.is_type(i, "string") and not _ending_at_end(regex).search(i),
    "minLength": _size("string", operator.lt),
    "minItems": _size("array", operator.lt),
    "maxItems": _size("array", operator.gt),
    "minProperties": _size("object", operator.lt),
    "not": lambda v, refused, i: v.evolve(schema=refused).is_valid(i),
}


def _check_branches(keyword: str) -> Keyword:
    """``anyOf`` or ``oneOf``: the branches' errors when none holds."""

    def check(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Errors:
        found: list[ValidationError] = []
        for index, branch in enumerate(branches):
            errors = list(validator.descend(instance, branch, schema_path=index))
            if not errors:
                others = branches[index + 1 :] if keyword == "oneOf" else []
                if any(validator.evolve(schema=other).is_valid(instance) for other in others):
                    yield _fail(keyword)
                return
            found.extend(errors)
        yield _fail(keyword, context=found)

    return check


def _check_additional(validator: Any, allowed: Any, instance: Any, schema: Any) -> Errors:
    """``additionalProperties``: jsonschema words every extra key with ``repr``."""
    if not validator.is_type(instance, "object"):
        return
    extras = list(find_additional_properties(instance, schema))
    if validator.is_type(allowed, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], allowed, path=extra)
    elif not allowed and extras:
        yield _fail("additionalProperties")


KEYWORDS: dict[str, Keyword] = {
    **{keyword: _make_check(keyword, fails) for keyword, fails in _FAILS.items()},
    "anyOf": _check_branches("anyOf"),
    "oneOf": _check_branches("oneOf"),
    "additionalProperties": _check_additional,
}


def extend(base: type[Validator]) -> type[Validator]:
    """``base`` with the keywords above in place of its own."""
    from jsonschema import validators

    return validators.extend(base, KEYWORDS)  # type: ignore[no-any-return,no-untyped-call]
