"""The SchemaStore kit: a valid catalog entry that claims only HoloDeck's own names, the
published bundle under SchemaStore's ``$id``, and test files that are up to date.

Ajv checks the kit as SchemaStore's CI does in tests/editor/test_schemastore_kit.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "schemastore" / "catalog-entry.json"
CATALOG_SCHEMA = ROOT / "tests" / "schemas" / "schema-catalog.json"
BUNDLE = ROOT / "schema" / "bundle" / "holodeck-mt.schema.json"
KIT_SCHEMA = ROOT / "schemastore" / "src" / "schemas" / "json" / "holodeck-mt.json"

#: Names an editor should bind to the schema, and names it should leave alone.
MATCHED = [
    "agent.holodeck.yaml",
    "agents/financial-assistant/agent.holodeck.yml",
    "data/convfinqa.holodeck.yaml",
]
#: agent.yaml is many frameworks' file name, and a test-cases file has any name its
#: agent.yaml gives it: neither is claimed for every repository (init-editor binds them).
NOT_MATCHED = [
    "agent.yaml",
    "agents/financial-assistant/agent.yml",
    "test_cases.yaml",
    "data/convfinqa.test-cases.yaml",
    "notes.yaml",
    "agent.holodeck.json",
    "holodeck.yaml",
]


def _entry() -> dict[str, Any]:
    entry: dict[str, Any] = json.loads(ENTRY.read_text(encoding="utf-8"))
    return entry


def _glob(pattern: str) -> re.Pattern[str]:
    """The subset of minimatch the entry uses: ``**/`` (any folders) and ``*``."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def _catalog_matches(path: str) -> bool:
    return any(_glob(p).match(path) for p in _entry()["fileMatch"])


def test_entry_is_valid_against_schemastores_catalog_schema() -> None:
    schema = json.loads(CATALOG_SCHEMA.read_text(encoding="utf-8"))
    Draft4Validator.check_schema(schema)
    catalog = {"$schema": schema["id"], "version": 1, "schemas": [_entry()]}
    validator = Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(catalog)]
    assert not errors, "\n".join(errors)


def test_entry_url_is_the_kit_schemas_id_and_its_version_is_the_bundles_id() -> None:
    bundle = json.loads(BUNDLE.read_text(encoding="utf-8"))
    hosted = json.loads(KIT_SCHEMA.read_text(encoding="utf-8"))
    assert _entry()["url"] == hosted["$id"] == "https://json.schemastore.org/holodeck-mt.json"
    assert _entry()["versions"] == {"1": bundle["$id"]}


def test_kit_schema_is_the_published_bundle_but_for_its_id() -> None:
    bundle = json.loads(BUNDLE.read_text(encoding="utf-8"))
    hosted = json.loads(KIT_SCHEMA.read_text(encoding="utf-8"))
    assert {**hosted, "$id": bundle["$id"]} == bundle


def test_kit_holds_positive_and_negative_files() -> None:
    # That the kit is up to date is `make schema-check`'s (schemastore_kit --check).
    for folder in ("test", "negative_test"):
        names = sorted((ROOT / "schemastore" / "src" / folder / "holodeck-mt").glob("*.yaml"))
        assert names, folder
    negative = ROOT / "schemastore" / "src" / "negative_test" / "holodeck-mt"
    assert (negative / "matcher-rejects-fuzzy-and-regex.yaml").is_file()


@pytest.mark.parametrize("path", MATCHED)
def test_entry_matches_test_case_files_by_name(path: str) -> None:
    assert _catalog_matches(path)


@pytest.mark.parametrize("path", NOT_MATCHED)
def test_entry_leaves_other_files_alone(path: str) -> None:
    assert not _catalog_matches(path)


def test_pre_commit_hook_takes_every_yaml_file_and_lets_the_content_decide() -> None:
    hook = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook[0]["types"] == ["yaml"]
    assert "files" not in hook[0]
    assert hook[0]["entry"] == "holodeck-mt validate --by-content"
