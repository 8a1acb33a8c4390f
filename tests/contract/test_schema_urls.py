"""One schema URL is advertised: the bundle's. The per-concept files are not offered as URLs.

Their ``$ref``s to one another are relative, so they resolve against each file's ``$id``
host: served from any other place, an editor cannot load them. Where users are told what
to bind (the README and docs/, the SchemaStore catalog entry, the example settings, modelines in the
examples) only the bundle's URL appears.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from holodeck_mt.urls import SCHEMA_BASE
from tests.conftest import ROOT
from tests.docs_pages import pages

BUNDLE = ROOT / "schema" / "bundle" / "holodeck-mt.schema.json"
_URL = re.compile(re.escape(SCHEMA_BASE) + r"[^\s\"'`)<>]*\.json")


def _bundle_id() -> str:
    bundle_id: str = json.loads(BUNDLE.read_text(encoding="utf-8"))["$id"]
    return bundle_id


def _advertised() -> dict[str, set[str]]:
    places = [ROOT / "README.md", ROOT / "schemastore" / "catalog-entry.json"]
    places += [ROOT / name for name in pages() if name != "README.md"]
    places += sorted((ROOT / "examples").rglob("*.json"))
    places += sorted((ROOT / "examples").rglob("*.yaml"))
    return {
        str(path.relative_to(ROOT)): set(_URL.findall(path.read_text(encoding="utf-8")))
        for path in places
    }


def test_the_only_schema_url_users_are_given_is_the_bundles() -> None:
    found = {place: urls for place, urls in _advertised().items() if urls}
    assert found, "the docs name the bundle's URL"
    assert {url for urls in found.values() for url in urls} == {_bundle_id()}


def test_the_editor_page_says_the_per_concept_files_are_not_urls_to_bind() -> None:
    editors = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    assert "not URLs to bind" in editors


def test_the_bundle_needs_nothing_from_elsewhere() -> None:
    text = BUNDLE.read_text(encoding="utf-8")
    refs = set(re.findall(r'"\$ref": "([^"]*)"', text))
    assert refs and all(ref.startswith("#") for ref in refs), sorted(refs)[:5]


def test_the_per_concept_files_refer_to_each_other_by_relative_refs_only() -> None:
    for path in sorted((ROOT / "schema").glob("*.schema.json")):
        refs = re.findall(r'"\$ref": "([^"]*)"', path.read_text(encoding="utf-8"))
        assert not [r for r in refs if "://" in r], path.name


def test_init_editor_binds_the_bundle(tmp_path: Path) -> None:
    from holodeck_mt.app.editor_setup import init_editor

    (tmp_path / "cases.yaml").write_text("- input: hi\n", encoding="utf-8")
    init_editor(tmp_path)
    copy = json.loads((tmp_path / ".vscode" / "holodeck-mt.schema.json").read_text("utf-8"))
    assert copy["$id"] == _bundle_id()
