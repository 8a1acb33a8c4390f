"""CONTRIBUTING.md's recipes stay true: the files they name exist, the facts they rely on hold."""

from __future__ import annotations

import re
from pathlib import Path

from holodeck_mt.render import MODULES

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def test_every_file_and_folder_the_guide_names_exists() -> None:
    named = re.findall(r"`((?:holodeck_mt|tests|schema|scripts|docs)/[^`<>*\s]*)`", GUIDE)
    assert named
    assert [name for name in named if not (ROOT / name).exists()] == []


def test_every_stage_folder_of_the_package_is_in_the_guide() -> None:
    package = ROOT / "holodeck_mt"
    folders = sorted(p.name for p in package.iterdir() if (p / "__init__.py").is_file())
    assert [f for f in folders if f"`holodeck_mt/{f}/`" not in GUIDE] == []


def test_each_output_format_is_one_module_of_the_render_folder() -> None:
    render = ROOT / "holodeck_mt" / "render"
    assert [m for m in MODULES.values() if not (render / f"{m}.py").is_file()] == []


def test_the_platform_version_is_the_same_in_the_makefile_the_oracle_and_the_readme() -> None:
    makefile = re.search(r"^PLATFORM_VERSION := (\S+)$", (ROOT / "Makefile").read_text(), re.M)
    oracle = re.search(
        r'^PLATFORM_VERSION = "([^"]+)"$', (ROOT / "tests" / "platform_oracle.py").read_text(), re.M
    )
    readme = re.search(r"\*\*holodeck-ai ([0-9.]+)\*\*", (ROOT / "README.md").read_text())
    assert makefile and oracle and readme
    assert makefile.group(1) == oracle.group(1) == readme.group(1)
