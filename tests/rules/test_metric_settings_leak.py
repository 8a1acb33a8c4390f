"""HMT300 metric-settings-leak, alone: run with ``--select HMT300``.

Its fixtures report what they expect of it; its near miss reports nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.rules.metric_settings_leak import RULE
from tests.conftest import FIXTURES, RunJson
from tests.rules.alone import assert_fires, assert_silent

FIXTURES_OF_RULE = [
    FIXTURES / "warnings/runtime/metric-settings-leak.yaml",
]


@pytest.mark.parametrize("fixture", FIXTURES_OF_RULE, ids=lambda p: p.stem)
def test_metric_settings_leak_reports_what_its_fixture_expects(
    fixture: Path, run_json: RunJson
) -> None:
    assert_fires(RULE, fixture, run_json)


def test_metric_settings_leak_reports_nothing_on_its_near_miss(run_json: RunJson) -> None:
    assert_silent(RULE, run_json)
