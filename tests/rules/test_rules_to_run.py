"""Which rules run under a selection: every error rule (an error keeps the run-time lints
from running, shown or not), the selected warnings, opt-in rules only when asked, the
run-time lints last and each rule once."""

from __future__ import annotations

from holodeck_mt.app.config import Settings
from holodeck_mt.rules import Options
from holodeck_mt.rules.registry import RULES, rules_to_run


def _codes(options: Options) -> list[str]:
    return [rule.code for rule in rules_to_run(options)]


def test_by_default_every_rule_runs_once_but_the_opt_in_ones_the_run_time_lints_last() -> None:
    codes = _codes(Options())
    assert codes == [r.code for r in RULES if r.runs != "opt-in"]
    assert codes.index("HMT204") < codes.index("HMT300")
    assert len(codes) == len(set(codes))


def test_a_selected_warning_runs_beside_every_error_rule_and_no_other_warning() -> None:
    options = Options(selection=Settings().selection(["HMT300"], []))
    assert _codes(options) == ["HMT104", "HMT109", "HMT113", "HMT115", "HMT116", "HMT300"]


def test_an_ignored_warning_does_not_run_and_the_error_rules_still_do() -> None:
    options = Options(selection=Settings().selection([], ["HMT2", "HMT3"]))
    assert _codes(options) == ["HMT104", "HMT109", "HMT113", "HMT115", "HMT116"]


def test_an_opt_in_rule_runs_when_its_option_is_on() -> None:
    assert "HMT111" in _codes(Options(import_graders=True))
    assert "HMT112" in _codes(Options(check_files=True))
    assert {"HMT111", "HMT112"}.isdisjoint(_codes(Options()))
