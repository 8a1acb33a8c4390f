"""The packages a release publishes: built, checked, installed, and run outside the checkout.

`make dist` builds the sdist and the wheel (offline, the build backend from '.[dev]') and
runs `twine check --strict`; here the same builds go to a scratch folder, the wheel is
installed into a fresh virtual environment with no package index (its dependencies are this
environment's, seen through a .pth file), and the installed command runs from a folder that
is not the checkout. The wheel built from the sdist holds the same files as the one built
from the checkout, byte for byte: the sdist leaves nothing out (the compiled builder's
source included), and the compiled module, when there is one, builds the same from both.
The build's choices (compiled or pure Python) are tests/test_compiled_build.py's.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from holodeck_mt import __version__
from tests.build_copy import SOURCE, compiled_members, wheel_tag
from tests.conftest import ROOT

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow

INVALID = "test_cases:\n  - name: a\n    turns: []\n"


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path
    wheel_from_sdist: Path
    python: Path


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_NO_INDEX"] = "1"
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


def _ok(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, f"{done.args}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    home = tmp_path_factory.mktemp("packages")
    build = [sys.executable, "-m", "build", "--no-isolation"]
    # Default: the sdist, then the wheel built from the unpacked sdist.
    _ok(_run(*build, "--outdir", home / "from-sdist", ROOT, cwd=home))
    _ok(_run(*build, "--wheel", "--outdir", home / "from-checkout", ROOT, cwd=home))
    (sdist,) = (home / "from-sdist").glob("*.tar.gz")
    (wheel_from_sdist,) = (home / "from-sdist").glob("*.whl")
    (wheel,) = (home / "from-checkout").glob("*.whl")

    venv.EnvBuilder(with_pip=True).create(home / "venv")
    bindir = "Scripts" if os.name == "nt" else "bin"
    python = home / "venv" / bindir / ("python.exe" if os.name == "nt" else "python")
    site = _ok(
        _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=home)
    ).stdout.strip()
    (Path(site) / "checkout-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    _ok(_run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", wheel, cwd=home))
    return Built(sdist, wheel, wheel_from_sdist, python)


def _contents(wheel: Path) -> dict[str, str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: hashlib.sha256(archive.read(name)).hexdigest() for name in archive.namelist()}


def test_sdist_and_wheel_are_named_by_the_one_version(built: Built) -> None:
    assert built.sdist.name == f"holodeck_mt-{__version__}.tar.gz"
    assert built.wheel.name == f"holodeck_mt-{__version__}-{wheel_tag(built.wheel)}.whl"


def test_the_wheel_is_pure_python_unless_it_carries_the_compiled_builder(built: Built) -> None:
    compiled = compiled_members(built.wheel)
    assert (wheel_tag(built.wheel) == "py3-none-any") == (not compiled)
    if os.environ.get("HOLODECK_MT_REQUIRE_COMPILED", "") not in ("", "0"):
        assert compiled, "HOLODECK_MT_REQUIRE_COMPILED is set but the wheel is pure Python"


def test_the_sdist_carries_the_build_hook_and_the_c_builders_source(built: Built) -> None:
    with tarfile.open(built.sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert "hatch_build.py" in names
    assert SOURCE.as_posix() in names


def test_twine_check_passes_on_both(built: Built, tmp_path: Path) -> None:
    done = _run(
        sys.executable, "-m", "twine", "check", "--strict", built.sdist, built.wheel, cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_the_sdist_builds_the_same_wheel_as_the_checkout(built: Built) -> None:
    from_checkout, from_sdist = _contents(built.wheel), _contents(built.wheel_from_sdist)
    assert sorted(set(from_checkout) ^ set(from_sdist)) == []
    assert from_checkout == from_sdist
    assert "holodeck_mt/schema/bundle/holodeck-mt.schema.json" in from_checkout
    assert "holodeck_mt/urls.py" in from_checkout


def test_installed_validator_finds_its_schema_outside_the_checkout(
    built: Built, tmp_path: Path
) -> None:
    where = _ok(_run(built.python, "-m", "holodeck_mt", "schema", "--path", cwd=tmp_path))
    bundle = Path(where.stdout.strip())
    assert ROOT not in bundle.parents, "the installed package read the checkout's schema"
    assert bundle.is_relative_to(built.python.parent.parent)
    assert bundle.name == "holodeck-mt.schema.json"

    (tmp_path / "agent.yaml").write_text(INVALID, encoding="utf-8")
    done = _run(built.python, "-m", "holodeck_mt", "validate", "agent.yaml", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "error[HMT105] test case 'a' (#0) turns" in done.stdout


def test_installed_rule_command_reads_the_packages_own_copy_of_the_docs(
    built: Built, tmp_path: Path
) -> None:
    done = _ok(_run(built.python, "-m", "holodeck_mt", "rule", "HMT102", cwd=tmp_path))
    assert done.stdout.startswith("## HMT102\n")
    assert '  hint: quote it: ground_truth: "25587"' in done.stdout.splitlines()
    where = _run(
        built.python,
        "-c",
        "from holodeck_mt.app import rule_docs; print(rule_docs.page_path())",
        cwd=tmp_path,
    )
    page = Path(_ok(where).stdout.strip())
    assert ROOT not in page.parents, "the installed package read the checkout's docs"


def test_installed_console_script_validates_an_example(built: Built, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples" / "convfinqa", tmp_path / "convfinqa")
    script = built.python.parent / ("holodeck-mt.exe" if os.name == "nt" else "holodeck-mt")
    done = _run(script, "validate", "convfinqa", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "All 2 files valid (1 warning)."


def test_installed_language_server_imports(built: Built, tmp_path: Path) -> None:
    done = _run(
        built.python, "-c", "import holodeck_mt.lsp.server as s; print(s.__file__)", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_relative_to(built.python.parent.parent)
