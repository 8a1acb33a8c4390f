"""The fix engine (``holodeck-mt fix``, the language server's quick fixes): each diagnostic's
fix intent placed at the node its position finds. Messages and hints are never read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from holodeck_mt.fix.nodes import NodePlace, Tree, tree
from holodeck_mt.model import (
    Count,
    Diagnostic,
    Edit,
    Fix,
    Intent,
    Quote,
    Remove,
    Rename,
    Rewrite,
    Unquote,
)
from holodeck_mt.text import quoting
from holodeck_mt.text.lines import CR_LF

__all__ = ["Edit", "Fix", "Outcome", "apply", "fix_all", "fixes"]

#: Numbers every YAML version reads as numbers, and never as octal or a string.
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?\Z")
#: A name a rename may write unquoted or in the quotes the old one had.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
_LINE_END = re.compile(rf"[ \t]*(?:#[^\r\n]*)?(?:{CR_LF}|\Z)")


def _fix(d: Diagnostic, title: str, edit: Edit, isolation: tuple[int, int] | None = None) -> Fix:
    """The diagnostic's fix, as safe as its intent."""
    assert d.fix is not None
    return Fix(d, title, (edit,), d.fix.applicability, isolation)


_Scalar = tuple[NodePlace, yaml.ScalarNode, tuple[int, int], str]


def _scalar(nodes: Tree, d: Diagnostic, key: bool | None = None) -> _Scalar | None:
    """The scalar the diagnostic is located at, its own characters' range and text."""
    place = nodes.scalar((d.line, d.column), key=key)
    if place is None or not isinstance(place.node, yaml.ScalarNode):
        return None
    span = nodes.value_range(place.node)
    if span is None:  # a tag decides the type
        return None
    return place, place.node, span, nodes.text[span[0] : span[1]]


def _quote(nodes: Tree, d: Diagnostic, _: Quote) -> Fix | None:
    """``25587`` -> ``"25587"`` (a key too: ``1: x`` -> ``"1": x``)."""
    found = _scalar(nodes, d)
    if found is None or found[1].style:  # plain is None (Python parser) or "" (libyaml)
        return None  # already quoted, or a block scalar (always a string)
    place, node, span, written = found
    if not written or "\n" in written or "\r" in written or written != node.value:
        return None  # a multi-line plain scalar folds: its value is not its characters
    if place.is_key and _has_key(place.parent, written, skip=place.slot):
        return None  # quoting would write a duplicate key
    quoted = quoting.quoted(written)
    if quoted is None:
        return None
    return _fix(d, f"Quote {written} as a string: {quoted}", Edit(*span, quoted))


def _has_key(mapping: yaml.Node | None, name: str, *, skip: int = -1) -> bool:
    """Whether ``mapping`` has a key written ``name`` (the pair at ``skip`` aside)."""
    return isinstance(mapping, yaml.MappingNode) and any(
        isinstance(k, yaml.ScalarNode) and k.value == name
        for i, (k, _) in enumerate(mapping.value)
        if i != skip
    )


def _unquote(nodes: Tree, d: Diagnostic, _: Unquote) -> Fix | None:
    """``"0.5"`` -> ``0.5`` where a number is required."""
    found = _scalar(nodes, d, key=False)
    if found is None:
        return None
    node, span, written = found[1:]
    if node.style not in ('"', "'") or not _NUMBER.match(node.value):
        return None
    if written != f"{node.style}{node.value}{node.style}":
        return None  # escapes or line breaks inside the quotes: not a plain number
    return _fix(d, f"Write {written} unquoted: {node.value}", Edit(*span, node.value))


def _rewrite(nodes: Tree, d: Diagnostic, intent: Rewrite) -> Fix | None:
    """``enabled: "yes"`` -> ``enabled: true``, when YAML reads that back as the same kind."""
    found = _scalar(nodes, d, key=False)
    canonical = intent.literal
    if found is None or "\n" in canonical or "\n" in found[3]:
        return None
    try:
        read_back = yaml.safe_load(canonical)
    except yaml.YAMLError:
        return None
    if not isinstance(read_back, (bool, int, float)):
        return None
    _, _, span, written = found
    return _fix(d, f"Write {written} as {canonical}", Edit(*span, canonical))


def _rename(nodes: Tree, d: Diagnostic, intent: Rename) -> Fix | None:
    """``ground_truht`` -> ``ground_truth``: the one close allowed name."""
    found = _scalar(nodes, d)
    candidate = intent.to
    if found is None or not _NAME.match(candidate) or "\n" in found[3]:
        return None
    place, node, span, _ = found
    if place.is_key and _has_key(place.parent, candidate):
        return None  # renaming would write a duplicate key
    quote = node.style if node.style in ('"', "'") else ""
    role = "key" if place.is_key else "value"
    title = f"Rename {role} '{node.value}' to '{candidate}'"
    return _fix(d, title, Edit(*span, f"{quote}{candidate}{quote}"))


def _remove(nodes: Tree, d: Diagnostic, _: Remove) -> Fix | None:
    """Remove ``key: value`` with its line, or its comma; isolated within its mapping."""
    place = nodes.scalar((d.line, d.column), key=True)
    if place is None or not isinstance(place.parent, yaml.MappingNode):
        return None
    mapping, i = place.parent, place.slot
    key, value = mapping.value[i]
    if len(mapping.value) < 2 or not isinstance(value, yaml.ScalarNode):
        return None
    if nodes.source(key)[:1] == "&" or nodes.source(value)[:1] == "&":
        return None  # an anchor another node may refer to
    cut = _pair_cut(nodes, mapping, i)
    if cut is None:
        return None
    flag = key.value if isinstance(key, yaml.ScalarNode) else "the key"
    title = f"Remove `{flag}` (it has no effect)"
    return _fix(d, title, Edit(*cut, ""), isolation=(nodes.start(mapping), nodes.end(mapping)))


def _pair_cut(nodes: Tree, mapping: yaml.MappingNode, i: int) -> tuple[int, int] | None:
    """What removing the pair ``i`` cuts: its lines, or the pair and a comma in a flow."""
    key, value = mapping.value[i]
    text = nodes.text
    start, end = nodes.start(key), nodes.end(value)
    if mapping.flow_style:
        if i > 0:  # from the end of the previous pair: ", key: value"
            return nodes.end(mapping.value[i - 1][1]), end
        return start, nodes.start(mapping.value[i + 1][0])  # up to the next key
    line_start, tail = _line_around(text, start, end)
    if tail is None:
        return None
    if text[line_start:start].strip() == "":  # the key opens its line: remove the lines
        return line_start, tail
    if i + 1 < len(mapping.value):  # "- flag: x" then "  metric: m": move the next up
        return start, nodes.start(mapping.value[i + 1][0])
    return None


def _line_around(text: str, start: int, end: int) -> tuple[int, int | None]:
    """Where ``start``'s line starts and ``end``'s ends, past blanks and a comment (None: more)."""
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    tail = _LINE_END.match(text, end)
    return line_start, tail.end() if tail is not None else None


def _count(nodes: Tree, d: Diagnostic, intent: Count) -> Fix | None:
    """``- t`` twice -> ``- {name: t, count: 2}``, the repeats removed."""
    place = nodes.scalar((d.line, d.column), key=False)
    if place is None or not isinstance(place.parent, yaml.SequenceNode):
        return None
    items = place.parent.value
    name = place.node.value
    same = [
        j
        for j, item in enumerate(items)
        if isinstance(item, yaml.ScalarNode) and item.value == name and item.tag.endswith(":str")
    ]
    if len(same) < 2 or place.slot not in same[1:] or name != intent.name:
        return None
    if any(nodes.source(items[j])[:1] in "&!*" for j in same):
        return None  # an anchor, tag or alias
    first = items[same[0]]
    flow = bool(place.parent.flow_style)
    pieces = [f"{{name: {nodes.source(first)}, count: {len(same)}}}"]
    cursor = nodes.end(first)
    for j in same[1:]:
        cut = _repeat_cut(nodes, items, j, flow)
        if cut is None or cut[0] < cursor:
            return None
        pieces.append(nodes.text[cursor : cut[0]])
        cursor = cut[1]
    title = f"Write '{name}' once with `count: {len(same)}`"
    return _fix(d, title, Edit(nodes.start(first), cursor, "".join(pieces)))


def _repeat_cut(nodes: Tree, items: list[yaml.Node], j: int, flow: bool) -> tuple[int, int] | None:
    """What removing ``items[j]`` cuts: ``, t`` in a flow list, else its line (None: more)."""
    item = items[j]
    if flow:  # ", t": from the end of the item before it
        return nodes.end(items[j - 1]), nodes.end(item)
    text = nodes.text  # the whole "- t" line
    dash = text.rfind("-", 0, nodes.start(item))
    line_start, tail = _line_around(text, dash, nodes.end(item))
    if dash < 0 or text[line_start:dash].strip() or tail is None:
        return None
    return line_start, tail


_PLACE: dict[type[Intent], Callable[[Tree, Diagnostic, Any], Fix | None]] = {
    Quote: _quote,
    Unquote: _unquote,
    Rewrite: _rewrite,
    Rename: _rename,
    Remove: _remove,
    Count: _count,
}


def fixes(text: str, diagnostics: Iterable[Diagnostic]) -> list[Fix]:
    """The fix of each diagnostic that has one, in the order of the diagnostics."""
    wanted = [(d, d.fix) for d in diagnostics if d.fix is not None]
    nodes = tree(text) if wanted else None
    if nodes is None:
        return []
    found = (_PLACE[type(intent)](nodes, d, intent) for d, intent in wanted)
    return [fix for fix in found if fix is not None]


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _conflicts(fix: Fix, edits: Sequence[Edit], isolated: Sequence[tuple[int, int]]) -> bool:
    """Whether ``fix`` changes what a chosen edit changes (the same edit aside), what an
    isolated fix keeps to itself, or (isolated itself) what a chosen edit changes."""
    for edit in fix.edits:
        span = (edit.start, edit.end)
        if any(edit != e and _overlap(span, (e.start, e.end)) for e in edits):
            return True
        if any(_overlap(span, stretch) for stretch in isolated):
            return True
    stretch = fix.isolation
    return stretch is not None and any(
        e not in fix.edits and _overlap(stretch, (e.start, e.end)) for e in edits
    )


def apply(text: str, chosen: Sequence[Fix]) -> tuple[str, list[Fix]]:
    """The text with the fixes applied, and those applied: isolated ones last; one overlapping
    a fix applied, or an isolated one's stretch, waits."""
    applied: list[Fix] = []
    edits: list[Edit] = []
    isolated: list[tuple[int, int]] = []
    for fix in sorted(chosen, key=lambda f: (f.isolation is not None, f.edits)):
        if _conflicts(fix, edits, isolated):
            continue
        applied.append(fix)  # the same edit for several diagnostics (a repeated tool) once
        edits += [e for e in fix.edits if e not in edits]
        if fix.isolation is not None:
            isolated.append(fix.isolation)
    for edit in sorted(edits, reverse=True):
        text = text[: edit.start] + edit.new_text + text[edit.end :]
    return text, applied


@dataclass
class Outcome:
    text: str
    applied: list[Fix]
    #: Unsafe fixes there were and were not applied.
    unsafe_left: list[Fix]


def fix_all(
    text: str, diagnose: Callable[[str], list[Diagnostic]], *, unsafe: bool = False, rounds: int = 5
) -> Outcome:
    """Apply fixes until none is left (``rounds`` at most: a fix that waits goes next round)."""
    applied: list[Fix] = []
    left: list[Fix] = []
    for _ in range(rounds):
        found = fixes(text, diagnose(text))
        left = [f for f in found if not f.safe and not unsafe]
        chosen = [f for f in found if f.safe or unsafe]
        fixed, done = apply(text, chosen)
        if fixed == text:
            break
        text = fixed
        applied += done
    return Outcome(text, applied, left)
