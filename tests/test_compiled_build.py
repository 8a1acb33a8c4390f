"""The optional C builder: compiled into the wheel when it can be, left out cleanly when not.

hatch_build.py compiles ``holodeck_mt/read/_fastbuild.c``, here in a copy of the project
(``tests/build_copy.py``); a wheel without it is pure Python, and a missing
compiler, header or library is a warning, unless ``HOLODECK_MT_REQUIRE_COMPILED=1`` makes
it an error. An editable install builds the module in place.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.build_copy import (
    MODULE,
    SOURCE,
    Build,
    build,
    compiled_members,
    project_copy,
    wheel_tag,
)
from tests.conftest import ROOT

REQUIRE = "HOLODECK_MT_REQUIRE_COMPILED"
SKIPPED = "is not built"
FALLBACK = "the pure-Python builder is used"
EXTENSION = sysconfig.get_config_var("EXT_SUFFIX")
unix_compiler = pytest.mark.skipif(os.name == "nt", reason="CC and LDSHARED are Unix's")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", REQUIRE)}
    return env | extra


def _wheel(tmp_path: Path, **extra: str) -> Build:
    project = project_copy(tmp_path / "project")
    return build(project, tmp_path / "dist", "--wheel", env=_env(**extra))


def _required() -> bool:
    return os.environ.get(REQUIRE, "") not in ("", "0")


@pytest.mark.slow
def test_the_wheels_tag_says_whether_it_carries_the_compiled_builder(tmp_path: Path) -> None:
    done = _wheel(tmp_path)
    assert done.returncode == 0, done.output
    members = compiled_members(done.wheel)
    if not members:
        assert not _required(), f"{REQUIRE} is set but the wheel is pure:\n{done.output}"
        assert wheel_tag(done.wheel) == "py3-none-any"
        pytest.skip(f"no compiler or no libyaml here: the wheel is pure Python\n{done.output}")
    assert members == [f"{MODULE.replace('.', '/')}{EXTENSION}"]
    interpreter = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert wheel_tag(done.wheel).startswith(f"{interpreter}-{interpreter}-")
    assert not done.wheel.name.endswith("-py3-none-any.whl")
    assert SOURCE.as_posix() not in zipfile.ZipFile(done.wheel).namelist()


@pytest.mark.slow
@unix_compiler
def test_without_a_compiler_the_wheel_is_pure_python_and_the_build_says_why(
    tmp_path: Path,
) -> None:
    done = _wheel(tmp_path, CC=str(tmp_path / "no-such-compiler"))
    assert done.returncode == 0, done.output
    assert compiled_members(done.wheel) == []
    assert wheel_tag(done.wheel) == "py3-none-any"
    assert f"the compiled builder ({MODULE}) {SKIPPED}" in done.output
    assert FALLBACK in done.output


@pytest.mark.slow
@unix_compiler
def test_a_module_that_does_not_link_is_left_out(tmp_path: Path) -> None:
    done = _wheel(tmp_path, LDSHARED=str(tmp_path / "no-such-linker"))
    assert done.returncode == 0, done.output
    assert compiled_members(done.wheel) == []
    assert FALLBACK in done.output


@pytest.mark.slow
def test_without_its_source_the_wheel_is_pure_python(tmp_path: Path) -> None:
    project = project_copy(tmp_path / "project")
    (project / SOURCE).unlink()
    done = build(project, tmp_path / "dist", "--wheel", env=_env())
    assert done.returncode == 0, done.output
    assert wheel_tag(done.wheel) == "py3-none-any"
    assert f"{SKIPPED}: {SOURCE.as_posix()} is not there" in done.output


@pytest.mark.slow
@unix_compiler
def test_a_required_module_that_cannot_be_built_fails_the_build(tmp_path: Path) -> None:
    done = _wheel(tmp_path, CC=str(tmp_path / "no-such-compiler"), **{REQUIRE: "1"})
    assert done.returncode != 0
    assert "no-such-compiler" in done.output
    assert not list((tmp_path / "dist").glob("*.whl"))


@pytest.mark.slow
def test_hatchs_switch_builds_a_pure_python_wheel_on_purpose(tmp_path: Path) -> None:
    done = _wheel(tmp_path, HATCH_BUILD_NO_HOOKS="true")
    assert done.returncode == 0, done.output
    assert wheel_tag(done.wheel) == "py3-none-any"
    assert compiled_members(done.wheel) == []


@pytest.mark.slow
def test_the_sdist_carries_the_c_source_and_the_build_hook(tmp_path: Path) -> None:
    project = project_copy(tmp_path / "project")
    (project / SOURCE.parent / f"_fastbuild{EXTENSION}").write_bytes(b"built in place")
    done = build(project, tmp_path / "dist", "--sdist", env=_env())
    assert done.returncode == 0, done.output
    (sdist,) = done.artifacts
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert SOURCE.as_posix() in names
    assert "hatch_build.py" in names
    assert not [name for name in names if name.endswith((".so", ".pyd"))]


def _editable(project: Path, scratch: Path) -> dict[str, object]:
    """Run the build hook as ``pip install -e`` does (hatchling's editable wheel)."""
    spec = importlib.util.spec_from_file_location("hatch_build", project / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook_module)
    hook = hook_module.CompiledBuilderHook(str(project), {}, None, None, str(scratch), "wheel")
    build_data: dict[str, object] = {"force_include": {}, "pure_python": True}
    hook.initialize("editable", build_data)
    hook.finalize("editable", build_data, str(scratch / "unused.whl"))
    return build_data


@pytest.mark.slow
def test_an_editable_install_builds_the_module_beside_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REQUIRE, raising=False)
    project = project_copy(tmp_path / "project")
    stale = project / SOURCE.parent / "_fastbuild.cpython-300-stale.so"
    stale.write_bytes(b"an earlier build")
    build_data = _editable(project, tmp_path)
    assert not stale.exists(), "a module of an earlier build is left to shadow this one"
    modules = (project / SOURCE.parent).glob("_fastbuild.*")
    built = sorted(p.name for p in modules if p.suffix in (".so", ".pyd"))
    if build_data["pure_python"]:
        assert built == []
        pytest.skip("no compiler or no libyaml here: nothing was built in place")
    assert built == [f"_fastbuild{EXTENSION}"]
    assert build_data["force_include"] == {}, "an editable wheel carries no copy of it"


def test_the_checkout_imports_the_compiled_builder_when_it_is_required() -> None:
    if not _required():
        pytest.skip(f"{REQUIRE} is not set: the pure-Python builder may be all there is")
    module = importlib.import_module(MODULE)
    assert Path(module.__file__ or "").resolve().parent == (ROOT / SOURCE.parent).resolve()
