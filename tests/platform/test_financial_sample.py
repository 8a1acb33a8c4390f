"""Acceptance: the real financial assistant passes ``--strict`` once its unset variables
(HMT213: ``${QDRANT_REMOTE_URL}`` is set only where the platform runs) are ignored.

Skipped when the samples are not beside the checkout, unless HOLODECK_MT_REQUIRE_SAMPLES=1.
"""

from __future__ import annotations

import os

import pytest

from holodeck_mt.app.cli import main
from tests.conftest import SAMPLES

FINANCIAL = SAMPLES / "financial-assistant" / "claude" / "agent.yaml"


@pytest.fixture
def financial() -> str:
    if not FINANCIAL.is_file():
        if os.environ.get("HOLODECK_MT_REQUIRE_SAMPLES") == "1":
            pytest.fail(f"the real samples are required but missing ({FINANCIAL})")
        pytest.skip(f"the real samples are not beside the checkout ({SAMPLES})")
    return str(FINANCIAL)


def test_strict_fails_the_financial_sample_on_its_unset_variables(
    financial: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("QDRANT_REMOTE_URL", raising=False)
    assert main(["validate", "-j", "1", "--strict", financial]) == 1
    assert "warning[HMT213]" in capsys.readouterr().out


def test_strict_passes_the_financial_sample_with_hmt213_ignored(
    financial: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("QDRANT_REMOTE_URL", raising=False)
    assert main(["validate", "-j", "1", "--strict", "--ignore", "HMT213", financial]) == 0
    assert capsys.readouterr().out.startswith("All ")
