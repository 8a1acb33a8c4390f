"""The run-time plan of the document being checked, built once and shared by the run-time lints;
a test-cases file named by an agent.yaml is planned under that agent's metrics."""

from __future__ import annotations

from holodeck_mt import layout
from holodeck_mt.model import Origin, format_path, test_case_phrase, under
from holodeck_mt.rules import Context
from holodeck_mt.semantics import precedence
from holodeck_mt.semantics.precedence import Definition, Plan, TurnPlan
from holodeck_mt.wording.hints import plural


def plan(context: Context) -> Plan:
    cached = context.cache.get("runtime_plan")
    if isinstance(cached, Plan):
        return cached
    found = layout.test_case_list(context.data)
    cases, base = found if found is not None else ([], ())
    if context.agent is not None:
        built = precedence.build(context.agent, cases, base, "test-cases")
    else:
        built = precedence.build(context.data, cases, base, "agent")
    context.cache["runtime_plan"] = built
    return built


def is_readable(context: Context, definition: Definition) -> bool:
    """Whether no error (of its document) lies in the definition or holds it."""
    theirs = context.agent is not None and definition.origin == "agent"
    reported, key = (context.agent_reported if theirs else context.reported), f"held:{theirs}"
    if key not in context.cache:  # each error's path and the paths above it
        context.cache[key] = {p[:i] for p in reported for i in range(len(p) + 1)}
    return definition.path not in context.cache[key] and not under(definition.path, reported)


def is_here(context: Context, definition: Definition) -> bool:
    """Whether the definition sits in the document being checked."""
    return context.agent is None or definition.level != "agent"


def origin(context: Context, definition: Definition, key: str | None = None) -> Origin:
    """Where the definition's ``key`` (by default, its name's) stands, for a message."""
    key = key if key is not None else precedence.name_key(definition.metric) or ""
    return not is_here(context, definition), (*definition.path, key)


def say_where(context: Context, definition: Definition) -> str:
    """``test case 'x' (#1) turns[0].evaluations[0]``; ``the agent's evaluations.metrics[0]``."""
    if definition.level == "agent":
        owner = "the agent.yaml's" if context.agent is not None else "the agent's"
        return f"{owner} {format_path(definition.path)}"
    return say_turn_where(context, definition.case_index, definition.path)


def say_turn_where(context: Context, case_index: int | None, parts: tuple[str | int, ...]) -> str:
    found = layout.test_case_list(context.data)
    if found is None or case_index is None:
        return format_path(parts)
    base = found[1]
    name = layout.test_case_name(context.data, case_index)
    named = test_case_phrase(name, case_index, at=(*base, case_index, "name"))
    relative = format_path(parts[len(base) + 1 :])
    return named + (f" {relative}" if relative else "")


def list_turns(context: Context, turns: list[TurnPlan], limit: int = 3) -> str:
    """``test case 'x' (#0) turns 0, 1, 2; test case 'y' (#3) and 4 more test cases``."""
    groups: dict[int, list[TurnPlan]] = {}
    for turn in turns:
        groups.setdefault(turn.case_index, []).append(turn)
    parts = []
    for case_index, group in list(groups.items())[:limit]:
        head = say_turn_where(
            context,
            case_index,
            group[0].path[:-2] if group[0].turn_index is not None else group[0].path,
        )
        indices = [str(t.turn_index) for t in group if t.turn_index is not None]
        if indices:
            rest = f" and {len(indices) - 5} more" if len(indices) > 5 else ""
            head += f" {'turn' if len(indices) == 1 else 'turns'} {', '.join(indices[:5])}{rest}"
        parts.append(head)
    more = len(groups) - limit
    return "; ".join(parts) + (f" and {plural(more, 'more test case')}" if more > 0 else "")
