"""Write the SchemaStore submission kit under schemastore/, in SchemaStore's own layout.

    schemastore/catalog-entry.json                     the entry for src/api/json/catalog.json
    schemastore/src/schemas/json/holodeck-mt.json      the published bundle, SchemaStore's $id
    schemastore/src/test/holodeck-mt/*.yaml            documents the schema accepts
    schemastore/src/negative_test/holodeck-mt/*.yaml   documents it rejects

The test documents are copies of our fixtures and examples (tests/fixtures/valid and
examples/contract; tests/fixtures/invalid/schema); one whose verdict the bundle alone does
not give (a fault only the validator's own rules find) is left out, since SchemaStore's
checks run the schema alone.

    python -m scripts.schemastore_kit           # rewrite the kit
    python -m scripts.schemastore_kit --check   # exit 1 when the committed kit is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from holodeck_mt import urls
from scripts.bundle_schema import BUNDLE_PATH
from scripts.repo import ROOT, write_atomically

KIT = ROOT / "schemastore"
NAME = "holodeck-mt"
#: Where SchemaStore serves a schema it hosts.
SCHEMASTORE_URL = f"https://json.schemastore.org/{NAME}.json"
POSITIVE_SOURCES = (ROOT / "tests" / "fixtures" / "valid", ROOT / "examples" / "contract")
NEGATIVE_SOURCES = (ROOT / "tests" / "fixtures" / "invalid" / "schema",)
#: Only names that are HoloDeck's by convention: agent.yaml is used by many frameworks, and
#: a test-cases file can have any name (an agent.yaml names it), so neither is claimed here.
FILE_MATCH = ["**/*.holodeck.yaml", "**/*.holodeck.yml"]


def catalog_entry() -> dict[str, Any]:
    """The catalog entry: served by SchemaStore, with our own copy of the major version."""
    return {
        "name": "HoloDeck test cases",
        "description": "HoloDeck agent.yaml and test-cases files: single-turn and multi-turn "
        "test cases, expected tool calls with argument matchers, and evaluation metrics",
        "fileMatch": FILE_MATCH,
        "url": SCHEMASTORE_URL,
        "versions": {str(urls.SCHEMA_MAJOR): urls.BUNDLE_URL},
    }


def hosted_schema() -> dict[str, Any]:
    """The published bundle with the ``$id`` SchemaStore requires of the schemas it hosts."""
    bundle: dict[str, Any] = json.loads(BUNDLE_PATH.read_text(encoding="utf-8"))
    return {key: (SCHEMASTORE_URL if key == "$id" else value) for key, value in bundle.items()}


def _verdict(validator: Draft202012Validator, path: Path) -> bool | None:
    """Whether the bundle accepts ``path``'s YAML (None: not a JSON document at all)."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        json.dumps(data, allow_nan=False)
    except (yaml.YAMLError, TypeError, ValueError):
        return None
    return bool(validator.is_valid(data))


def judged_fixtures(wanted: bool, sources: tuple[Path, ...]) -> dict[str, str]:
    """Name -> text of the fixtures the bundle judges ``wanted`` (valid or not)."""
    validator = Draft202012Validator(json.loads(BUNDLE_PATH.read_text(encoding="utf-8")))
    found: dict[str, str] = {}
    for source in sources:
        for path in sorted(source.glob("*.yaml")):
            if _verdict(validator, path) is wanted:
                found[path.name] = path.read_text(encoding="utf-8")
    return found


def kit() -> dict[Path, str]:
    """Every file of the kit, by path, with its text."""
    files = {
        KIT / "catalog-entry.json": json.dumps(catalog_entry(), indent=2) + "\n",
        KIT / "src" / "schemas" / "json" / f"{NAME}.json": json.dumps(
            hosted_schema(), indent=2, ensure_ascii=False
        )
        + "\n",
    }
    for folder, wanted, sources in (
        ("test", True, POSITIVE_SOURCES),
        ("negative_test", False, NEGATIVE_SOURCES),
    ):
        for name, text in judged_fixtures(wanted, sources).items():
            files[KIT / "src" / folder / NAME / name] = text
    return files


def stale(files: dict[Path, str]) -> list[Path]:
    """The kit's files that differ from ``files``, and the test files it should not hold."""
    wrong = [p for p, t in files.items() if not p.is_file() or p.read_text("utf-8") != t]
    for folder in ("test", "negative_test"):
        wrong += sorted(set((KIT / "src" / folder / NAME).glob("*")) - set(files))
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if the kit is stale")
    args = parser.parse_args(argv)
    files = kit()
    wrong = stale(files)
    if args.check:
        for path in wrong:
            print(f"{path.relative_to(ROOT).as_posix()} is stale", file=sys.stderr)
        if wrong:
            print("run `make schema` and commit the kit", file=sys.stderr)
        return 1 if wrong else 0
    for path in wrong:
        if path in files:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, files[path])
        else:
            path.unlink()
    print(f"{len(files)} kit files, {len(wrong)} rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
