"""Every keyword the schema uses whose jsonschema message would quote the instance is one
``keywords`` replaces: a schema using another must add it there first."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from jsonschema.exceptions import ValidationError

from holodeck_mt.contract import registry
from holodeck_mt.contract.keywords import KEYWORDS
from holodeck_mt.contract.walker import subschemas

#: jsonschema's keywords whose error message renders the instance with ``repr``.
QUOTING = frozenset(
    {
        "type",
        "additionalProperties",
        "enum",
        "pattern",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "uniqueItems",
        "not",
        "anyOf",
        "oneOf",
        "contains",
    }
)


def test_every_quoting_keyword_the_schema_uses_is_replaced() -> None:
    used = {
        keyword
        for schema in registry.schema_files().values()
        for _, node in subschemas(schema)
        for keyword in node
    }
    assert used & QUOTING <= set(KEYWORDS), sorted(used & QUOTING - set(KEYWORDS))


def _every(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    for error in errors:
        yield error
        yield from _every(error.context or [])


def test_a_huge_aliased_value_gives_errors_that_do_not_quote_it() -> None:
    huge = "x" * 1_000_000
    validator = registry.validator(registry.DOCUMENT)
    cases = [{"input": 1, "name": huge}] * 3 + [{"input": "hi", huge: 1}] * 3
    errors = list(_every(validator.iter_errors({"test_cases": cases})))
    assert {error.validator for error in errors} >= {"type", "additionalProperties"}
    assert all(len(error.message) < 200 for error in errors)
