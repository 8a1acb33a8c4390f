"""Every registered rule, alone, on the fixtures found by its code.

Parametrised over the registry (``holodeck_mt.rules.registry.RULES``): a new rule adds
its fixtures and edits no test. Each rule has at least one fixture that fires it and one
near miss (a test per code says which one lacks them); each fixture that expects one of
its codes reports, with only that rule selected, exactly what it expects of it; each near
miss reports nothing. See :mod:`tests.rules.alone` for where fixtures are found.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.rules.registry import RULES
from holodeck_mt.rules.rule import Rule
from tests.conftest import FIXTURES, RunJson
from tests.rules.alone import (
    NEAR_MISSES,
    assert_fires,
    assert_silent,
    fixtures_that_fire,
    near_miss_code,
    near_misses,
)

BY_CODE = {rule.code: rule for rule in RULES}


def _pairs(find: object) -> list[tuple[Rule, Path]]:
    assert callable(find)
    return [(rule, path) for rule in RULES for path in find(rule)]


def _id(value: object) -> str:
    if isinstance(value, Rule):
        return value.code
    assert isinstance(value, Path)
    return str(value.relative_to(FIXTURES).with_suffix(""))


@pytest.mark.parametrize("code", sorted(BY_CODE))
def test_each_rule_has_a_fixture_that_fires_it_and_a_near_miss(code: str) -> None:
    rule = BY_CODE[code]
    assert fixtures_that_fire(rule), (
        f"{code} ({rule.name}) has no fixture that fires it: add one under tests/fixtures/"
        f"{'invalid' if rule.severity == 'error' else 'warnings'}/ with an "
        f'`# expect: {{"code": "{code}", ...}}` line'
    )
    assert near_misses(rule), (
        f"{code} ({rule.name}) has no near miss: add tests/fixtures/near-misses/"
        f"{rule.name}.yaml whose first line is `# near miss of {code}: ...`"
    )


@pytest.mark.parametrize(("rule", "fixture"), _pairs(fixtures_that_fire), ids=_id)
def test_a_rule_alone_reports_what_its_fixture_expects(
    rule: Rule, fixture: Path, run_json: RunJson
) -> None:
    assert_fires(rule, fixture, run_json)


@pytest.mark.parametrize(("rule", "near_miss"), _pairs(near_misses), ids=_id)
def test_a_rule_alone_reports_nothing_on_its_near_miss(
    rule: Rule, near_miss: Path, run_json: RunJson
) -> None:
    assert_silent(rule, near_miss, run_json)


def test_every_near_miss_names_a_registered_rule_and_is_named_after_it() -> None:
    found = {p.name: near_miss_code(p) for p in sorted(NEAR_MISSES.glob("*.yaml"))}
    assert {name: code for name, code in found.items() if code not in BY_CODE} == {}
    assert {
        name: code
        for name, code in found.items()
        if code in BY_CODE and not name.startswith(BY_CODE[code].name)
    } == {}
