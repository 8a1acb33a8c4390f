"""HMT203: two identical entries in one `expected_tools` list.

Entries are judged independently, so one call satisfies both: listing an entry
twice asserts nothing more. A bare name and `{name: ...}` (count 1, no args) are
the same entry. To require several calls, use `count`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from holodeck_mt import layout
from holodeck_mt.model import Count, Fault, clip, marked, under
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule
from holodeck_mt.semantics.matchers import Entry, classify, entry_of


def _canonicalise(value: Any) -> Any:
    """A literal as compared at run time: 1 and 1.0 alike, matchers by kind."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [_canonicalise(v) for v in value]
    if isinstance(value, dict):
        return {k: _canonicalise(v) for k, v in value.items()}
    return repr(value)


def identity(entry: Entry) -> str:
    """Equal for two entries that assert the same thing."""
    args = {}
    for key, value in entry.args.items():
        matcher = classify(value)
        args[key] = [matcher.kind, _canonicalise(matcher.value)]
    return json.dumps([entry.name, entry.count, args], sort_keys=True, default=repr)


def _repeats_a_name(tools: list[Any]) -> bool:
    """Whether two elements name the same tool (ones naming different tools never assert alike)."""
    names = [tool.get("name") if isinstance(tool, dict) else tool for tool in tools]
    named = [name for name in names if isinstance(name, str)]
    return len(set(named)) < len(named)


def check(context: Context) -> Iterator[Fault]:
    for parts, tools in context.walk(layout.expected_tool_lists):
        if len(tools) < 2 or not _repeats_a_name(tools):
            continue  # nothing to repeat
        seen: dict[str, int] = {}
        # An alias repeats one object: its identity is computed once, however long it is.
        keys: dict[int, str] = {}
        for i, tool in enumerate(tools):
            entry = entry_of(tool)
            if entry is None or under((*parts, i), context.reported):
                continue
            key = keys.get(id(tool)) or keys.setdefault(id(tool), identity(entry))
            if key not in seen:
                seen[key] = i
                continue
            if isinstance(tool, str) and isinstance(tools[seen[key]], str):
                message = f"tool '{marked(clip(tool))}' is listed twice in `expected_tools`"
            else:
                message = (
                    f"this entry asserts the same as `expected_tools[{seen[key]}]`: entries are "
                    "judged independently, so one call satisfies both"
                )
            yield Fault(
                "HMT203",
                message,
                (*parts, i),
                fix=Count(str(entry.name), entry.count + 1),
            )


RULE = Rule(
    code="HMT203",
    name="duplicate-expected-tool",
    description=(
        "Two identical entries in one `expected_tools` list (a bare name and `{name: "
        "...}` alike): entries are judged independently, so one call satisfies both; "
        "use `count`."
    ),
    check=check,
)
