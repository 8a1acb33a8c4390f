"""HMT116 literal-reference, alone: run with ``--select HMT113``.

Its fixtures report what they expect of it; its near miss reports nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.rules.literal_reference import RULE
from tests.conftest import FIXTURES, RunJson
from tests.rules.alone import assert_fires, assert_silent

FIXTURES_OF_RULE = [
    FIXTURES / "invalid/platform/literal-reference-in-model-number.yaml",
]


@pytest.mark.parametrize("fixture", FIXTURES_OF_RULE, ids=lambda p: p.stem)
def test_literal_reference_reports_what_its_fixture_expects(
    fixture: Path, run_json: RunJson
) -> None:
    assert_fires(RULE, fixture, run_json)


def test_literal_reference_reports_nothing_on_its_near_miss(run_json: RunJson) -> None:
    assert_silent(RULE, run_json)
