"""The canonical schema files (``schema/``, or the installed copy ``holodeck_mt/schema``),
expanded, in an offline ``referencing.Registry``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from holodeck_mt.urls import SCHEMA_BASE

# Imported only when a Python validator is built: a run the compiled one settles never does.
if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

BASE_URI = SCHEMA_BASE

#: The root schemas a document can be validated against, by role.
DOCUMENT = BASE_URI + "document.schema.json"
TEST_CASES_FILE = BASE_URI + "test-cases-file.schema.json"
METRIC = BASE_URI + "metric.schema.json"
LLM_MODEL = BASE_URI + "llm-model.schema.json"


def schema_dir() -> Path:
    """Return the folder holding the schema files (installed copy first)."""
    packaged = Path(__file__).resolve().parent.parent / "schema"
    checkout = packaged.parent.parent / "schema"
    found = next((folder for folder in (packaged, checkout) if folder.is_dir()), None)
    if found is None:
        raise FileNotFoundError(f"schema files not found in {packaged} nor {checkout}")
    return found


def refuse_retrieval(uri: str) -> Resource[Any]:
    """Never fetch a schema: every ``$ref`` must resolve to a file we ship."""
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]


@cache
def source_files() -> dict[str, dict[str, Any]]:
    """Every schema file as written, by its ``$id``."""
    paths = sorted(schema_dir().glob("*.schema.json"))
    schemas = [json.loads(path.read_text(encoding="utf-8")) for path in paths]
    return {schema["$id"]: schema for schema in schemas}


@cache
def schema_files() -> dict[str, dict[str, Any]]:
    """Every schema file, by its ``$id``, expanded (see :mod:`.expansion`)."""
    from holodeck_mt.contract.expansion import expand

    return expand(source_files())


def definition(uri: str, name: str) -> dict[str, Any]:
    """The ``$defs`` entry ``name`` of the schema file ``uri``."""
    found: dict[str, Any] = schema_files()[uri]["$defs"][name]
    return found


def registry_for(files: dict[str, dict[str, Any]]) -> Registry[Any]:
    """An offline registry of the schema ``files`` (by ``$id``), crawled."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resources = [
        (uri, Resource.from_contents(contents, default_specification=DRAFT202012))
        for uri, contents in files.items()
    ]
    return Registry(retrieve=refuse_retrieval).with_resources(resources).crawl()  # type: ignore[call-arg]


@cache
def registry() -> Registry[Any]:
    """An offline registry of our schema files, crawled once."""
    return registry_for(schema_files())


@cache
def validator(root: str = DOCUMENT) -> Draft202012Validator:
    """A validator of a root schema, built once, never quoting the instance (:mod:`.keywords`)."""
    from jsonschema import Draft202012Validator

    from holodeck_mt.contract.keywords import extend

    return extend(Draft202012Validator)(schema_files()[root], registry=registry())  # type: ignore[return-value]


def bundle_path() -> Path:
    """The single-file schema (every ``$ref`` inlined), for editors and plain URLs."""
    return schema_dir() / "bundle" / "holodeck-mt.schema.json"
