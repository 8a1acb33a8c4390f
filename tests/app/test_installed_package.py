"""A non-editable install, used from outside the checkout, still finds the schema.

Builds the wheel from this checkout into a fresh virtual environment (the
runtime dependencies come from the package registry, as for any user) and runs
the validator from a folder that is not the checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import ROOT

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow

INVALID = "test_cases:\n  - name: a\n    turns: []\n"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("installed")
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(home / "venv")
    python = home / "venv" / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"pip install of the checkout failed:\n{done.stdout}\n{done.stderr}")
    return python


def _run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(
        [str(python), *args], capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


def test_installed_validator_finds_its_schema_outside_the_checkout(
    installed: Path, tmp_path: Path
) -> None:
    where = _run(
        installed,
        "-c",
        "import holodeck_mt.contract.registry as s; print(s.schema_dir())",
        cwd=tmp_path,
    )
    assert where.returncode == 0, where.stderr
    schema_dir = Path(where.stdout.strip())
    assert ROOT not in schema_dir.parents, "the installed package read the checkout's schema"
    assert (schema_dir / "test-case.schema.json").is_file()

    (tmp_path / "agent.yaml").write_text(INVALID, encoding="utf-8")
    done = _run(installed, "-m", "holodeck_mt", "validate", "agent.yaml", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "error[HMT105] test case 'a' (#0) turns" in done.stdout


def test_installed_console_script_runs(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text("test_cases:\n  - input: hi\n", encoding="utf-8")
    script = installed.parent / "holodeck-mt"
    done = _run(installed, str(script), "validate", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sys.executable  # the test's own interpreter is untouched
