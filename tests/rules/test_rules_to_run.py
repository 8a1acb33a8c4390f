"""Which rules run under a selection: the selected ones (an error that is not shown hides
no run-time lint, so a deselected error rule does not run), opt-in rules only when asked,
in the registry's order and each once.

The expected lists are read from the registry, so that a new rule edits no test here."""

from __future__ import annotations

from typing import Any

import pytest

from holodeck_mt.project.config import Settings
from holodeck_mt.rules.registry import RULES, rules_to_run
from holodeck_mt.rules.rule import Rule
from holodeck_mt.selection import Options

#: The rules that run by default, in the order they run: the registry's, but the opt-in ones.
BY_DEFAULT = [r for r in RULES if r.runs != "opt-in"]
ERROR_RULES = [r.code for r in BY_DEFAULT if r.severity == "error"]
WARNING_RULES = [r.code for r in BY_DEFAULT if r.severity == "warning"]
RUNTIME = [r.code for r in BY_DEFAULT if r.runs == "runtime"]
OPT_IN = [r for r in RULES if r.runs == "opt-in"]


def _codes(options: Options) -> list[str]:
    return [rule.code for rule in rules_to_run(options)]


def test_the_registry_has_error_rules_run_time_lints_and_opt_in_rules() -> None:
    """What the tests below rely on; none of them passes by being empty."""
    assert ERROR_RULES and WARNING_RULES and RUNTIME and OPT_IN


def test_by_default_every_rule_runs_once_but_the_opt_in_ones() -> None:
    codes = _codes(Options())
    assert codes == [r.code for r in BY_DEFAULT]
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize("code", [*ERROR_RULES, *WARNING_RULES])
def test_a_selected_code_runs_its_rule_alone(code: str) -> None:
    options = Options(selection=Settings().selection({"--select": [code]}))
    assert _codes(options) == [code]


def test_ignored_warnings_do_not_run_and_the_error_rules_still_do() -> None:
    options = Options(selection=Settings().selection({"--ignore": ["HMT2", "HMT3"]}))
    assert _codes(options) == ERROR_RULES


@pytest.mark.parametrize("rule", OPT_IN, ids=lambda r: r.code)
def test_an_opt_in_rule_runs_when_its_option_is_on(rule: Rule) -> None:
    on: dict[str, Any] = {rule.option: True}
    assert rule.code in _codes(Options(**on))
    assert rule.code not in _codes(Options())
