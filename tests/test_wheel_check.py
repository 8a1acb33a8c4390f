"""`make wheel-check`: the Linux wheel built, repaired by auditwheel and run where it is installed.

scripts/wheel_check.py on a copy of the project (``tests/build_copy.py``): the wheel
carries the compiled builder, auditwheel bundles libyaml into it under a name of its own,
and in a new virtual environment the module loads that copy, not the system's, and the
installed validator validates examples/convfinqa (scripts/wheel_smoke.py, what
cibuildwheel's test-command runs).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from scripts import wheel_check, wheel_smoke
from tests.build_copy import project_copy
from tests.conftest import ROOT, unavailable

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="auditwheel is Linux's")


def _libyaml_headers() -> bool:
    prefix = os.environ.get("HOLODECK_MT_LIBYAML_DIR")
    return any(Path(d, "yaml.h").is_file() for d in ["/usr/include", f"{prefix}/include"])


@pytest.mark.slow
@linux
def test_the_repaired_wheel_loads_its_own_libyaml_and_validates_an_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not _libyaml_headers():
        unavailable("WHEEL CHECK NOT RUN: no yaml.h (Debian: apt-get install libyaml-dev).")
    project = project_copy(tmp_path / "project")
    code = wheel_check.main(["--project", str(project), "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    lines = out.splitlines()
    assert any(line.startswith("repaired: ") and "manylinux" in line for line in lines), out
    bundled = tmp_path / "out" / "venv" / "lib"
    loaded = next(line for line in lines if line.startswith("libyaml loaded: "))
    assert "/holodeck_mt.libs/libyaml" in loaded and str(bundled) in loaded
    assert "All 2 files valid (1 warning)." in lines
    assert out.strip().endswith("wheel_check: passed")


def test_the_smoke_check_refuses_the_checkouts_package(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = wheel_smoke.main([str(ROOT / "examples" / "convfinqa")])
    assert code == 1
    assert "holodeck_mt was imported from the checkout" in capsys.readouterr().err
