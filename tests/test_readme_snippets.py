"""The README's setup snippets are consistent with what the repository ships."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from holodeck_mt.render import renderers
from holodeck_mt.urls import BUNDLE_URL, RELEASE_BUNDLE_URL, REPOSITORY, SCHEMA_BASE, SLUG

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


def _workflow_steps() -> list[dict[str, Any]]:
    workflows = [_yaml(b) for b in _blocks("yaml") if "jobs:" in b]
    return [step for w in workflows for job in w["jobs"].values() for step in job["steps"]]


def test_workflow_snippets_use_the_action_with_its_inputs_or_a_registered_format() -> None:
    action = _yaml((ROOT / "action.yml").read_text(encoding="utf-8"))
    ours = [s for s in _workflow_steps() if str(s.get("uses", "")).startswith(SLUG + "@")]
    assert len(ours) == 2
    for step in ours:
        assert set(step.get("with", {})) <= set(action["inputs"]), step
    assert any("sarif-file" in step.get("with", {}) for step in ours)
    formats = set()
    for step in _workflow_steps():
        found = re.search(r"holodeck_mt validate --format (\w+)", step.get("run", ""))
        if found:
            formats.add(found.group(1))
    assert formats == {"github"}
    assert formats <= set(renderers())


def _pins() -> set[str]:
    """Every commit the README pins: pre-commit's rev, the action's ref, pip's git ref."""
    (config,) = [_yaml(b) for b in _blocks("yaml") if "repos:" in b]
    pins = {str(repo["rev"]) for repo in config["repos"]}
    pins |= {
        str(s["uses"]).split("@", 1)[1]
        for s in _workflow_steps()
        if "@" in s.get("uses", "") and str(s["uses"]).startswith(SLUG + "@")
    }
    pins |= set(re.findall(re.escape(f"git+{REPOSITORY}@") + r"([0-9a-f]+)", README))
    return pins


def test_the_install_section_names_the_release_urls_and_says_none_exists_yet() -> None:
    section = README[README.index("## Install\n") : README.index("## Usage\n")]
    assert "**Nothing is published yet.**" in section
    for url in (
        REPOSITORY,
        BUNDLE_URL,
        RELEASE_BUNDLE_URL,
        "https://pypi.org/project/holodeck-mt/",
    ):
        assert url in section, url
    assert f'pip install "holodeck-mt @ git+{REPOSITORY}@' in section
    assert "`holodeck_mt/urls.py`" in section


def test_the_pre_commit_snippet_names_this_repository() -> None:
    (config,) = [_yaml(b) for b in _blocks("yaml") if "repos:" in b]
    assert [repo["repo"] for repo in config["repos"]] == [REPOSITORY]
    assert "rev: v0.1.0" in README  # how to pin a tag once released


def test_every_pin_is_one_commit_of_this_repository_with_the_action_and_the_hook() -> None:
    (pin,) = _pins()
    assert re.fullmatch(r"[0-9a-f]{40}", pin), pin

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)

    if git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("not a git checkout: the pinned commit cannot be looked up")
    if git("cat-file", "-e", f"{pin}^{{commit}}").returncode != 0:
        if git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
            pytest.skip(f"a shallow clone does not hold the pinned commit {pin}")
        pytest.fail(f"the README pins {pin}, which is not a commit of this repository")
    assert git("merge-base", "--is-ancestor", pin, "HEAD").returncode == 0
    for name in ("action.yml", ".pre-commit-hooks.yaml", "pyproject.toml"):
        assert git("cat-file", "-e", f"{pin}:{name}").returncode == 0, name
