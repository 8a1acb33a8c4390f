"""HMT204 literal-looks-like-matcher, alone: run with ``--select HMT204``.

Its fixtures report what they expect of it; its near miss reports nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.rules.literal_like_matcher import RULE
from tests.conftest import FIXTURES, RunJson
from tests.rules.alone import assert_fires, assert_silent

FIXTURES_OF_RULE = [
    FIXTURES / "warnings/literal-looks-like-matcher.yaml",
    FIXTURES / "invalid/hints/misspelt-matcher-key.yaml",
]


@pytest.mark.parametrize("fixture", FIXTURES_OF_RULE, ids=lambda p: p.stem)
def test_literal_looks_like_matcher_reports_what_its_fixture_expects(
    fixture: Path, run_json: RunJson
) -> None:
    assert_fires(RULE, fixture, run_json)


def test_literal_looks_like_matcher_reports_nothing_on_its_near_miss(run_json: RunJson) -> None:
    assert_silent(RULE, run_json)
