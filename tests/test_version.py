"""One version number, in one place, and a changelog that states the schema's promise."""

from __future__ import annotations

import re

from holodeck_mt import __version__
from tests.conftest import ROOT

PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def _table(name: str) -> str:
    found = re.search(rf"^\[{re.escape(name)}\]\n(.*?)(?=^\[)", PYPROJECT, re.M | re.S)
    assert found is not None, name
    return found.group(1)


def test_the_version_is_written_once_in_the_package_and_read_by_the_build() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?", __version__)
    assert 'dynamic = ["version"]' in _table("project")
    assert not re.search(r"^version\s*=", _table("project"), re.M)
    assert _table("tool.hatch.version").strip() == 'path = "holodeck_mt/__init__.py"'
    init = (ROOT / "holodeck_mt" / "__init__.py").read_text(encoding="utf-8")
    assert init.count(f'__version__ = "{__version__}"') == 1


def test_the_changelog_promises_only_compatible_changes_within_a_major_version() -> None:
    promise = " ".join(CHANGELOG.split())
    assert "Within v1 it changes only compatibly" in promise
    assert "may add an optional key" in promise
    assert "never removes a key" in promise
    assert "narrows what a key accepts" in promise
    assert "`schemas/v2/`" in promise


def test_the_changelog_has_an_entry_for_the_version_in_the_package() -> None:
    assert re.search(rf"^## {re.escape(__version__)}$", CHANGELOG, re.M)
    assert "## Unreleased" in CHANGELOG
