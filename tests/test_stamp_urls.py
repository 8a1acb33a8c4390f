"""One constant holds the public URLs (holodeck_mt/urls.py); `make schema` stamps them.

A copy of the repository gets another owner in urls.py; the stamping scripts `make schema`
runs rewrite every file that named the old URLs, so that the old host is left nowhere but
in the changelog, and the validator of the copy reports the new URLs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_mt import urls
from scripts import stamp_urls
from tests.conftest import ROOT, copy_checkout

#: What `make schema` runs, in order (the Makefile's `schema` target).
SCHEMA_TARGET = ["stamp_urls", "bundle_schema", "schemastore_kit", "gen_docs"]
OLD_HOST = f"{urls.OWNER}.github.io"
NEW_OWNER = "acme-labs"


def _python(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    return subprocess.run(
        [sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def restamped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = copy_checkout(tmp_path_factory.mktemp("restamped"))
    constants = copy / "holodeck_mt" / "urls.py"
    text = constants.read_text(encoding="utf-8")
    assert text.count(f'OWNER = "{urls.OWNER}"') == 1
    constants.write_text(text.replace(f'OWNER = "{urls.OWNER}"', f'OWNER = "{NEW_OWNER}"'))
    for script in SCHEMA_TARGET:
        done = _python(copy, "-m", f"scripts.{script}")
        assert done.returncode == 0, f"{script}:\n{done.stdout}\n{done.stderr}"
    return copy


def test_the_makefiles_schema_target_runs_these_scripts_in_this_order() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^schema: .*\n((?:\t.*\n)+)", makefile, re.M)
    assert target is not None
    assert re.findall(r"-m scripts\.(\w+)", target.group(1)) == SCHEMA_TARGET


def test_the_owner_placeholder_is_written_once_in_the_source() -> None:
    found = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "holodeck_mt").rglob("*.py"))
        if urls.OWNER in path.read_text(encoding="utf-8")
    ]
    assert found == ["holodeck_mt/urls.py"]


@pytest.mark.slow
def test_a_new_owner_leaves_the_old_host_nowhere_but_in_the_changelog(restamped: Path) -> None:
    left = [
        path.relative_to(restamped).as_posix()
        for path in sorted(restamped.rglob("*"))
        if path.is_file()
        and path.name != "urls.py"
        and urls.OWNER.encode() in path.read_bytes()
        and path.relative_to(restamped).as_posix() != "CHANGELOG.md"
    ]
    assert left == []
    assert OLD_HOST not in (restamped / "README.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_new_owner_reaches_every_id_the_kit_the_readme_and_sarif(restamped: Path) -> None:
    base = f"https://{NEW_OWNER}.github.io/holodeck-mt/schemas/v1/"
    for path in sorted((restamped / "schema").glob("*.schema.json")):
        assert json.loads(path.read_text("utf-8"))["$id"].startswith(base), path.name
    bundle = json.loads((restamped / "schema/bundle/holodeck-mt.schema.json").read_text("utf-8"))
    assert bundle["$id"] == base + "holodeck-mt.schema.json"
    entry = json.loads((restamped / "schemastore/catalog-entry.json").read_text("utf-8"))
    assert entry["versions"] == {"1": bundle["$id"]}
    readme = (restamped / "README.md").read_text(encoding="utf-8")
    assert f"$schema={bundle['$id']}" in (restamped / "docs" / "editors.md").read_text("utf-8")
    assert f'pip install "holodeck-mt @ git+https://github.com/{NEW_OWNER}/holodeck-mt@' in readme
    assert f"uses: {NEW_OWNER}/holodeck-mt@" in (restamped / "docs" / "ci.md").read_text("utf-8")
    done = _python(
        restamped, "-m", "holodeck_mt", "validate", "examples/convfinqa", "--format", "sarif"
    )
    assert done.returncode == 0, done.stderr
    driver = json.loads(done.stdout)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == f"https://github.com/{NEW_OWNER}/holodeck-mt"
    checked = _python(restamped, "-m", "scripts.stamp_urls", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_committed_files_name_the_urls_of_the_constant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = stamp_urls.main(["--check"])
    out, err = capsys.readouterr()
    assert (code, out) == (0, ""), out + err


def _pages(root: Path, readme: str, ci: str, init_version: str) -> None:
    (root / "docs").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\n", encoding="utf-8")
    (root / "holodeck_mt").mkdir()
    (root / "holodeck_mt" / "__init__.py").write_text(
        f'__version__ = "{init_version}"\n', encoding="utf-8"
    )
    (root / "README.md").write_text(readme, encoding="utf-8")
    (root / "docs" / "ci.md").write_text(ci, encoding="utf-8")
    (root / "tests").mkdir()
    (root / "tests" / "test_x.py").write_text('PIN = "rev: v0.0.1"\n', encoding="utf-8")


def test_a_new_version_is_stamped_into_every_pin_of_the_pages(tmp_path: Path) -> None:
    readme = 'pip install "holodeck-mt @ git+https://x/holodeck-mt@v0.1.0"\n'
    ci = "    rev: v0.1.0\n      - uses: o/holodeck-mt@v0.1.0   # the tag\nv0.1.0 is the first\n"
    _pages(tmp_path, readme, ci, "0.2.0")
    assert stamp_urls.stamp(tmp_path, check=True) == [
        tmp_path / "README.md",
        tmp_path / "docs" / "ci.md",
    ]
    stamp_urls.stamp(tmp_path)
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == readme.replace(
        "v0.1.0", "v0.2.0"
    )
    stamped = (tmp_path / "docs" / "ci.md").read_text(encoding="utf-8")
    assert (
        stamped
        == "    rev: v0.2.0\n      - uses: o/holodeck-mt@v0.2.0   # the tag\nv0.1.0 is the first\n"
    )
    assert (tmp_path / "tests" / "test_x.py").read_text(encoding="utf-8") == 'PIN = "rev: v0.0.1"\n'
    assert stamp_urls.stamp(tmp_path, check=True) == []


def test_the_release_checks_the_pins_name_its_version() -> None:
    """A release tag must be the package's version, and make schema-check (which the release
    runs) fails on a pin of another version: a released page pins what it installs."""
    release = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert 'if [ "v$version" != "$TAG" ]' in release and "run: make schema-check" in release
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = makefile[makefile.index("\nschema-check:") :].split("\n\n", 1)[0]
    assert "-m scripts.stamp_urls --check" in target


def test_a_new_platform_release_is_stamped_where_it_is_installed_or_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = urls.PLATFORM_VERSION
    _pages(
        tmp_path, f"checked against holodeck-ai {old}\n", f"installs holodeck-ai {old}\n", "0.1.0"
    )
    (tmp_path / "Makefile").write_text(f"PLATFORM_VERSION := {old}\nX := {old}\n")
    action = f"  true) platform={old} ;;\n  pip install holodeck-ai=={old}\n"
    (tmp_path / "action.yml").write_text(action)
    (tmp_path / "tests" / "test_y.py").write_text(f'"""holodeck-ai {old}"""\n')
    monkeypatch.setattr(urls, "PLATFORM_VERSION", "9.8.7")
    stamp_urls.stamp(tmp_path)
    assert (tmp_path / "Makefile").read_text() == f"PLATFORM_VERSION := 9.8.7\nX := {old}\n"
    assert (tmp_path / "action.yml").read_text() == action.replace(old, "9.8.7")
    assert (tmp_path / "docs" / "ci.md").read_text() == "installs holodeck-ai 9.8.7\n"
    assert (tmp_path / "README.md").read_text() == "checked against holodeck-ai 9.8.7\n"
    assert (tmp_path / "tests" / "test_y.py").read_text() == f'"""holodeck-ai {old}"""\n'
    assert stamp_urls.stamp(tmp_path, check=True) == []
