"""HMT209: a plain value cut short by ``#``, which YAML reads as a comment.

In an unquoted value ` #` starts a comment: `input: item #2 in 2009?` is read as `item`,
by the platform (PyYAML) and editors alike. Told for a string value where one space and
a `#` followed by text come after it (`#2`): a comment is mostly written `  # note`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from holodeck_mt.model import Fault, JsonPath, under
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule
from holodeck_mt.text.lines import SPLITLINES
from holodeck_mt.wording.hints import quote

#: Text, one space, then a ``#`` followed by text: what a cut value looks like.
_CUT = re.compile(r"[^ \t\r\n] #[^ \t\r\n#]")


def check(context: Context) -> Iterator[Fault]:
    text = context.text
    if not _CUT.search(text):  # nearly every file: nothing to compose
        return
    for parts, value, end in _cut_strings(text):
        if under(parts, context.reported):
            continue
        brk = SPLITLINES.search(text, end)
        comment = text[end + 1 : brk.start() if brk else len(text)].rstrip()
        key = f"{parts[-1]}: " if parts and isinstance(parts[-1], str) else ""
        yield Fault(
            "HMT209",
            f"the value is cut at ` #`: the rest of the line, {quote(comment, 40)}, is a "
            f"comment, so the platform reads {quote(value, 40)}",
            parts,
            hint=f"quote it: {key}{quote(value + ' ' + comment, 80)}",
        )


def _cut_strings(text: str) -> Iterator[tuple[JsonPath, str, int]]:
    """The path, value and end of each plain string value that ` #` and text follow (each
    node once: an alias is not walked again)."""
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
        elif node.tag.endswith(":str") and not node.style and parts:
            end = node.end_mark.index
            if _CUT.match(text, end - 1):
                yield parts, node.value, end


RULE = Rule(
    code="HMT209",
    name="comment-cuts-value",
    description=(
        "An unquoted value followed by ` #` and more text (`input: item #2 in 2009?`): "
        "YAML reads the rest of the line as a comment, so the platform reads `item`."
    ),
    check=check,
)
