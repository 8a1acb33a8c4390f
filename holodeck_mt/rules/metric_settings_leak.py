"""HMT300: a metric defined at several levels with different settings.

The platform builds one evaluator per metric name for the whole file, from the last
definition met walking the agent, then each test case and its turns: that one's
settings apply on every turn running the metric. Only `threshold` and
`response_path` stay per level (and code metrics, which are not shared). A definition
holding an error is compared with none: its settings are unknown.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from holodeck_mt.model import Fault, clip, marked, unmarked
from holodeck_mt.rules import Context, runtime_plan
from holodeck_mt.rules.rule import Rule
from holodeck_mt.semantics import precedence
from holodeck_mt.semantics.precedence import Definition, Plan
from holodeck_mt.wording.hints import literal as show


def check(context: Context) -> Iterator[Fault]:
    plan = runtime_plan.plan(context)
    for key, winner in plan.evaluators.items():
        if not runtime_plan.is_readable(context, winner):
            continue
        chosen = precedence.settings(winner.metric)
        for definition in plan.definitions_of(key):
            if definition is winner or not runtime_plan.is_readable(context, definition):
                continue
            own = precedence.settings(definition.metric)
            lost = {k: v for k, v in own.items() if chosen.get(k, object()) != v}
            if not lost:
                continue
            if runtime_plan.is_here(context, definition) or runtime_plan.is_here(context, winner):
                yield _fault(context, plan, key, definition, winner, lost)


def _settings(context: Context, definition: Definition, values: dict[str, Any]) -> str:
    """``k value, ...``: each value marked with where it stands (a default: nowhere)."""

    def show_one(key: str, value: Any) -> str:
        text = unmarked(show(value, 20))
        if key not in definition.metric:
            return text  # a default, no value of the file
        return marked(text, at=[runtime_plan.origin(context, definition, key)])

    return ", ".join(f"{k} {show_one(k, v)}" for k, v in values.items())


def _fault(
    context: Context,
    plan: Plan,
    key: str,
    definition: Definition,
    winner: Definition,
    lost: dict[str, Any],
) -> Fault:
    """At the definition whose settings are lost when it is in this document, else at the
    last definition (the lost one is in the agent.yaml naming this file)."""
    key = marked(clip(key), at=[runtime_plan.origin(context, winner)])
    turns = plan.turns_running(definition)
    runs_on = "no turn runs that list"
    if turns:
        runs_on = f"that list runs on {runtime_plan.list_turns(context, turns)}"
    if runtime_plan.is_here(context, definition):
        at = definition.path
        message = (
            f"`{key}` is defined with other settings at {runtime_plan.say_where(context, winner)}, "
            f"the last definition, whose evaluator serves every turn running `{key}`: this "
            f"one's {_settings(context, definition, lost)} apply nowhere ({runs_on})"
        )
    else:
        at = winner.path
        message = (
            f"this is the last definition of `{key}` in the file, so its evaluator serves every "
            f"turn running `{key}`: the settings of {runtime_plan.say_where(context, definition)} "
            f"({_settings(context, definition, lost)}) apply nowhere ({runs_on})"
        )
    return Fault(
        "HMT300",
        message,
        at,
        hint=f"give every definition of `{key}` the same settings; "
        "only threshold and response_path may differ per level",
    )


RULE = Rule(
    code="HMT300",
    name="metric-settings-leak",
    description=(
        "A metric is defined at several levels with different settings: one evaluator "
        "per metric name serves the whole file, built from the last definition, so the "
        "others' settings apply nowhere (only `threshold` and `response_path` stay per "
        "level)."
    ),
    check=check,
    runs="runtime",
)
