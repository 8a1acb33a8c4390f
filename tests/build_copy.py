"""A copy of what the build reads (the sdist's files), the C builder's source among them.

The build's tests change the copy (remove the source, break the compiler), never the
checkout.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT

SOURCE = Path("holodeck_mt", "read", "_fastbuild.c")
MODULE = "holodeck_mt.read._fastbuild"
#: The files and folders the sdist carries ([tool.hatch.build.targets.sdist]).
BUILD_INPUTS = [
    "holodeck_mt",
    "schema",
    "docs/diagnostics.md",
    "README.md",
    "CHANGELOG.md",
    "pyproject.toml",
    "hatch_build.py",
]


def project_copy(destination: Path) -> Path:
    """The build's inputs copied into ``destination``, without a module built in place."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    for name in BUILD_INPUTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=skip)
        else:
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    return destination


@dataclass(frozen=True)
class Build:
    """What ``python -m build`` made of a project, and what it said."""

    returncode: int
    output: str
    artifacts: list[Path]

    @property
    def wheel(self) -> Path:
        (wheel,) = (p for p in self.artifacts if p.suffix == ".whl")
        return wheel


def build(project: Path, out: Path, *options: str, env: dict[str, str]) -> Build:
    """``python -m build --no-isolation`` (offline: the backend is this environment's)."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", *options, "--outdir", str(out), "."],
        capture_output=True,
        text=True,
        cwd=project,
        env=env,
        check=False,
    )
    artifacts = sorted(out.iterdir()) if out.is_dir() else []
    return Build(done.returncode, done.stdout + done.stderr, artifacts)


def compiled_members(wheel: Path) -> list[str]:
    """The compiled builder's files in ``wheel`` (none in a pure-Python wheel)."""
    prefix = MODULE.replace(".", "/") + "."
    names = zipfile.ZipFile(wheel).namelist()
    return [n for n in names if n.startswith(prefix) and n.endswith((".so", ".pyd"))]


def wheel_tag(wheel: Path) -> str:
    """The ``Tag:`` of the wheel's WHEEL file."""
    with zipfile.ZipFile(wheel) as archive:
        (info,) = (n for n in archive.namelist() if n.endswith(".dist-info/WHEEL"))
        lines = archive.read(info).decode().splitlines()
    (tag,) = (line.split(": ", 1)[1] for line in lines if line.startswith("Tag: "))
    return tag
