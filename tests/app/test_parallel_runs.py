"""A run over many files on several processes reads as the same run on one: the report,
the exit code and what is said on stderr are those of ``--jobs 1``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from holodeck_mt.app import cli
from holodeck_mt.render import FORMATS
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every fixture (errors, warnings, syntax errors, the platform's models' faults,
    agent.yaml files naming test-cases files), with one folder's configuration turning
    the platform's models off."""
    root = tmp_path_factory.mktemp("parallel") / "fixtures"
    shutil.copytree(FIXTURES, root)
    (root / "invalid" / "platform-models" / ".holodeck-mt.toml").write_text('platform = "off"\n')
    return root


def _validate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["validate", *args, "--no-cache"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_folder_validated_on_several_processes_reports_as_on_one(
    fmt: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _validate(capsys, str(folder), "--format", fmt, "--jobs", "1")
    assert one[0] == 1 and one[1]
    assert _validate(capsys, str(folder), "--format", fmt) == one  # every core
    assert _validate(capsys, str(folder), "--format", fmt, "--jobs", "3") == one
