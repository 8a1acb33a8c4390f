"""The keywords our schema uses, by what their values are (each added here once), and the
one walk over its subschemas."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from holodeck_mt.model import pointer_segment

#: Keywords whose value is one subschema.
ONE_SUBSCHEMA = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
)
#: Keywords whose value maps names to subschemas: their keys are names, not keywords.
NAMED_SUBSCHEMAS = ("properties", "$defs", "patternProperties", "dependentSchemas")
#: Keywords whose value is a list of subschemas.
LISTED_SUBSCHEMAS = ("oneOf", "anyOf", "allOf", "prefixItems")

#: On a ``oneOf``: ``[{"if": <schema>, "then": <branch $ref>}]``, the branch the author meant.
CHOOSE = "x-holodeck-choose"
#: ``{keyword: code}``: the code a keyword of this node reports, where it states a rule.
CODES = "x-holodeck-codes"
#: What the node is called in messages ("turn", "file input").
NAME = "x-holodeck-name"
#: What a ``pattern`` asks for, in words.
SHAPE = "x-holodeck-shape"
#: How a value of the node is called as the subject of a message ("a test case").
NOUN = "x-holodeck-noun"
#: On a metric flag: the one `metric` it has an effect on (checks/ineffective_flags).
APPLIES_TO = "x-holodeck-applies-to"
#: On a definition: the fields the platform declares optional (null there is no value).
NULLABLE = "x-holodeck-nullable"
#: On a field the platform reads by a rule of its own, not by its ``type`` ("count").
READS = "x-holodeck-reads"
#: On a node: the YAML example its ``markdownDescription`` shows (expansion.py writes it).
YAML = "x-holodeck-yaml"
#: On a definition: a definition of fields it refuses, with the words saying so (expansion.py).
REFUSES = "x-holodeck-refuses"
HOLODECK_KEYWORDS = frozenset(
    {CHOOSE, CODES, NAME, SHAPE, NOUN, APPLIES_TO, NULLABLE, READS, YAML, REFUSES}
)

#: Keywords editors read (VS Code's JSON service, the YAML language server) and JSON
#: Schema does not define.
EDITOR_KEYWORDS = frozenset(
    {
        "markdownDescription",
        "defaultSnippets",
        "enumDescriptions",
        "markdownEnumDescriptions",
        "deprecationMessage",
        "errorMessage",
        "patternErrorMessage",
        "doNotSuggest",
    }
)
#: Keywords that only document or guide: no validator reads them.
ANNOTATIONS = (
    frozenset({"title", "description", "examples", "default", "$comment"})
    | EDITOR_KEYWORDS
    | HOLODECK_KEYWORDS
)
#: Keywords whose value is data (compared, shown or inserted), never a subschema.
DATA = frozenset({"const", "enum", "default", "examples"}) | EDITOR_KEYWORDS | HOLODECK_KEYWORDS


def subschemas(schema: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every subschema of ``schema`` with its JSON pointer; data keywords are not entered."""
    if not isinstance(schema, dict):
        return
    yield pointer, schema
    for keyword in ONE_SUBSCHEMA:
        if keyword in schema:
            yield from subschemas(schema[keyword], f"{pointer}/{keyword}")
    for keyword in NAMED_SUBSCHEMAS:
        for name, sub in (schema.get(keyword) or {}).items():
            yield from subschemas(sub, f"{pointer}/{keyword}/{pointer_segment(name)}")
    for keyword in LISTED_SUBSCHEMAS:
        for i, sub in enumerate(schema.get(keyword) or []):
            yield from subschemas(sub, f"{pointer}/{keyword}/{i}")


def rebuild(
    node: Any,
    keep: Callable[[str], bool] = lambda keyword: True,
    ref: Callable[[str], str] = lambda target: target,
) -> Any:
    """A copy of the schema ``node``: the keywords ``keep`` keeps, ``$ref`` mapped by ``ref``."""
    if isinstance(node, list):
        return [rebuild(item, keep, ref) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if not keep(key):
            continue
        if key == "$ref" and isinstance(value, str):
            out[key] = ref(value)
        elif key in DATA:
            out[key] = value
        elif key in NAMED_SUBSCHEMAS and isinstance(value, dict):
            out[key] = {name: rebuild(sub, keep, ref) for name, sub in value.items()}
        else:
            out[key] = rebuild(value, keep, ref)
    return out
