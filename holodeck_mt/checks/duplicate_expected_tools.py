"""HMT203: the same tool name twice in one `expected_tools` list.

A name-only entry asserts "called at least once"; listing it twice asserts nothing
more. To require several calls, use `count`.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import walk
from holodeck_mt.checks import Context
from holodeck_mt.diagnostics import Fault
from holodeck_mt.safe_text import clip


def check(context: Context) -> Iterator[Fault]:
    for parts, tools in walk.expected_tool_lists(context.data):
        seen: set[str] = set()
        for i, tool in enumerate(tools):
            if not isinstance(tool, str):
                continue
            if tool in seen:
                yield Fault(
                    "HMT203",
                    f"tool '{clip(tool)}' is listed twice in `expected_tools`",
                    (*parts, i),
                    hint=f"to require several calls, write `- name: {clip(tool)}` with `count: 2`",
                )
            seen.add(tool)
