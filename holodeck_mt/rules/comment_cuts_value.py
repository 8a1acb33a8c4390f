"""HMT209: `input: item #2 in 2009?` is read as `item` (the rest is a comment) by the
platform and editors alike. Told for a string that one space, `#` and text follow (`#2`):
a comment is mostly written `  # note`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from holodeck_mt.model import Fault, JsonPath, under
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule
from holodeck_mt.text.lines import SPLITLINES
from holodeck_mt.wording.hints import quote

#: Text, one space, then a ``#`` followed by text: a cut value (`` #`` first, searched fast).
_CUT = re.compile(r" #(?<=[^ \t\r\n] #)[^ \t\r\n#]")


def check(context: Context) -> Iterator[Fault]:
    text = context.text
    for parts, value, end in _cut_strings(text) if _CUT.search(text) else ():
        if under(parts, context.reported):
            continue
        brk = SPLITLINES.search(text, end)
        comment = text[end + 1 : brk.start() if brk else len(text)].rstrip()
        key = f"{parts[-1]}: " if isinstance(parts[-1], str) else ""
        message = f"the value is cut at ` #`: the rest of the line, {quote(comment, 40)}, is a "
        message += f"comment, so the platform reads {quote(value, 40)}"
        hint = f"quote it: {key}{quote(value + ' ' + comment, 80)}"
        yield Fault("HMT209", message, parts, hint=hint)


def _cut_strings(text: str) -> Iterator[tuple[JsonPath, str, int]]:
    """Path, value and end of each plain string value followed by ` #` and text (aliases once)."""
    import yaml

    try:
        stack: list[tuple[JsonPath, Any]] = [((), yaml.compose(text, Loader=yaml.CSafeLoader))]
    except yaml.YAMLError:
        return
    seen: set[int] = set()
    while stack:
        parts, node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack += [((*parts, k.value), v) for k, v in node.value if k.tag.endswith(":str")]
        elif isinstance(node, yaml.SequenceNode):
            stack += [((*parts, i), item) for i, item in enumerate(node.value)]
        elif node.tag.endswith(":str") and not node.style:
            end = node.end_mark.index
            if _CUT.match(text, end):
                yield parts, node.value, end


RULE = Rule(
    code="HMT209",
    name="comment-cuts-value",
    description="An unquoted value followed by ` #` and text (`input: item #2 in 2009?`): YAML "
    "reads the rest of the line as a comment, so the platform reads `item`.",
    check=check,
)
