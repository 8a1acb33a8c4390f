"""The README's setup snippets are consistent with what the repository ships."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from holodeck_mt.render import renderers
from holodeck_mt.urls import SCHEMA_BASE

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BUNDLE_ID = json.loads(
    (ROOT / "schema" / "bundle" / "holodeck-mt.schema.json").read_text(encoding="utf-8")
)["$id"]


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def _yaml(text: str) -> Any:
    return YAML(typ="safe").load(text)


def test_vscode_settings_snippet_is_the_example_file_and_covers_the_catalog_globs() -> None:
    (settings,) = [json.loads(b) for b in _blocks("json") if "yaml.schemas" in b]
    example = json.loads((ROOT / "examples" / "vscode" / "settings.json").read_text("utf-8"))
    assert settings == example
    (globs,) = settings["yaml.schemas"].values()
    catalog = json.loads((ROOT / "schemastore" / "catalog-entry.json").read_text("utf-8"))
    assert set(catalog["fileMatch"]) <= set(globs)


def test_every_schema_url_in_the_readme_is_the_bundles_id() -> None:
    urls = set(re.findall(re.escape(SCHEMA_BASE) + r"\S+?\.schema\.json", README))
    assert urls == {BUNDLE_ID}
    assert f"# yaml-language-server: $schema={BUNDLE_ID}" in README


def test_pre_commit_snippet_uses_the_hook_this_repository_ships() -> None:
    hooks = _yaml((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (config,) = [_yaml(b) for b in _blocks("yaml") if "repos:" in b]
    used = {hook["id"] for repo in config["repos"] for hook in repo["hooks"]}
    assert used <= {hook["id"] for hook in hooks}


def test_workflow_snippets_run_the_validator_in_a_registered_format() -> None:
    workflows = [_yaml(b) for b in _blocks("yaml") if "jobs:" in b]
    formats = set()
    for workflow in workflows:
        for job in workflow["jobs"].values():
            for step in job["steps"]:
                found = re.search(r"holodeck_mt validate --format (\w+)", step.get("run", ""))
                if found:
                    formats.add(found.group(1))
    assert formats == {"github", "sarif"}
    assert formats <= set(renderers())
