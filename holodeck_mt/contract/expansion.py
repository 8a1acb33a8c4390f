"""The schema files expanded: what editors need written out in each place, derived from
source files that say each fact once. The annotations asking for it are consumed:

- ``allOf: [{"$ref": <fields>}]`` beside ``unevaluatedProperties: false`` becomes the union
  of the fields with ``additionalProperties: false``, which editors score best;
- ``x-holodeck-refuses``: its fields, each described as refused, hidden from completion
  and refused by ``propertyNames``;
- ``x-holodeck-yaml``: the YAML example the ``markdownDescription`` shows.
"""

from __future__ import annotations

import copy
import re
from typing import Any
from urllib.parse import urldefrag, urljoin

from holodeck_mt.contract.walker import ANNOTATIONS, NULLABLE, REFUSES, YAML, subschemas

Files = dict[str, dict[str, Any]]

#: The sentence of a description pointing at the contract ("More: ..., section 2 (...).").
_MORE = re.compile(r"(?:^| )(More: [^.(]*(?:\([^)]*\))?\.)")
#: The keywords a definition of shared fields may hold besides annotations.
_FIELDS_KEYWORDS = frozenset({"type", "properties", "required"})
#: Keywords of a shared field a refused copy does not keep: its words are the refusal's.
_FIELD_WORDS = frozenset({"description", "markdownDescription", "examples", YAML})


class ExpansionError(ValueError):
    """A schema file asks for an expansion that cannot be made."""


def markdown(description: str, yaml: str) -> str:
    """The ``markdownDescription`` of a node described by ``description``, showing ``yaml``."""
    found = _MORE.search(description)
    body, more = description, ""
    if found:
        body = (description[: found.start()] + description[found.end() :]).strip()
        body = re.sub(r"  +", " ", body)
        more = "\n\n" + found.group(1)
    return f"{body}\n\n```yaml\n{yaml}\n```{more}"


def expand(files: Files) -> Files:
    """The expanded form of the schema ``files`` (by ``$id``); ``files`` is left as it is."""
    out = copy.deepcopy(files)
    for uri, schema in out.items():
        for name, definition in (schema.get("$defs") or {}).items():
            where = f"{uri}#/$defs/{name}"
            if definition.get("unevaluatedProperties") is False and "allOf" in definition:
                _include(files, uri, where, definition)
            if REFUSES in definition:
                _refuse(files, uri, where, definition)
    for schema in out.values():
        for _, node in subschemas(schema):
            if YAML in node and "markdownDescription" not in node:
                written = markdown(str(node.get("description", "")), str(node[YAML]))
                _replace(node, YAML, "markdownDescription", written)
    return out


def _fields(files: Files, base: str, ref: Any, where: str) -> dict[str, Any]:
    """The definition of shared fields ``ref`` (relative to ``base``) points at."""
    if not isinstance(ref, str):
        raise ExpansionError(f"{where}: the shared fields are not named by a $ref")
    target, fragment = urldefrag(urljoin(base, ref))
    parts = fragment.split("/")
    if target not in files or len(parts) != 3 or parts[:2] != ["", "$defs"]:
        raise ExpansionError(f"{where}: {ref!r} is not a definition of the schema files")
    found = (files[target].get("$defs") or {}).get(parts[2])
    if not isinstance(found, dict) or not isinstance(found.get("properties"), dict):
        raise ExpansionError(f"{where}: {ref!r} is not a definition of fields")
    extra = set(found) - _FIELDS_KEYWORDS - ANNOTATIONS
    if extra or found.get("type", "object") != "object":
        raise ExpansionError(f"{where}: {ref!r} holds more than fields: {sorted(extra)}")
    return found


def _include(files: Files, uri: str, where: str, definition: dict[str, Any]) -> None:
    included = definition.pop("allOf")
    if not isinstance(included, list) or not all(set(i) == {"$ref"} for i in included):
        raise ExpansionError(f"{where}: allOf beside unevaluatedProperties holds more than $refs")
    own: dict[str, Any] = definition.get("properties", {})
    shared: dict[str, Any] = {}
    for item in included:
        fields = _fields(files, uri, item["$ref"], where)
        clash = (set(own) | set(shared)) & set(fields["properties"])
        if clash:
            raise ExpansionError(f"{where}: {sorted(clash)} defined twice")
        shared.update(copy.deepcopy(fields["properties"]))
        _join(definition, "required", fields.get("required", []))
        _join(definition, NULLABLE, fields.get(NULLABLE, []))
    lead = {k: v for k, v in own.items() if k == "name"}
    properties = lead | shared | {k: v for k, v in own.items() if k not in lead}
    _replace(definition, "unevaluatedProperties", "additionalProperties", False)
    definition["properties"] = properties


def _refuse(files: Files, uri: str, where: str, definition: dict[str, Any]) -> None:
    spec = definition.pop(REFUSES)
    fields = _fields(files, uri, spec.get("fields"), where)
    properties: dict[str, Any] = definition.setdefault("properties", {})
    names = list(fields["properties"])
    clash = set(properties) & set(names)
    if clash:
        raise ExpansionError(f"{where}: {sorted(clash)} both taken and refused")
    for field in names:
        kept = {k: v for k, v in fields["properties"][field].items() if k not in _FIELD_WORDS}
        refused = {
            **kept,
            "description": spec["description"].format(field=field),
            "markdownDescription": spec["markdownDescription"].format(field=field),
            "doNotSuggest": True,
        }
        properties[field] = copy.deepcopy(refused)
    _join(definition, NULLABLE, fields.get(NULLABLE, []))
    listed = ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]
    refusal = {
        "pattern": "^(?!(?:" + "|".join(re.escape(n) for n in names) + ")$)",
        "patternErrorMessage": spec["patternErrorMessage"].format(fields=listed),
    }
    definition["propertyNames"] = refusal | definition.get("propertyNames", {})


def _join(definition: dict[str, Any], keyword: str, added: list[str]) -> None:
    if added:
        mine = definition.get(keyword, [])
        joined = [*mine, *(a for a in added if a not in mine)]
        if keyword in definition:
            definition[keyword] = joined
        else:  # beside the properties it names, where a reader looks for it
            entries = list(definition.items())
            found = (i + 1 for i, (k, _) in enumerate(entries) if k == "properties")
            at = next(found, len(entries))
            definition.clear()
            definition.update([*entries[:at], (keyword, joined), *entries[at:]])


def _replace(definition: dict[str, Any], old: str, new: str, value: Any) -> None:
    entries = [(new if k == old else k, value if k == old else v) for k, v in definition.items()]
    definition.clear()
    definition.update(entries)
