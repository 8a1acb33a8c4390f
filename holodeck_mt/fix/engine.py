"""The fix engine: one text edit per diagnostic that has an evident fix.

Shared by ``holodeck-mt fix`` and the language server's quick fixes. A fix is
chosen by the diagnostic's code or hint and placed by its position, never by
re-reading the message, so a new diagnostic that says ``quote it: ...`` or
``did you mean '...'?`` gets its fix without a change here:

========================  ==========================================  ======
diagnostic                fix                                         safe?
========================  ==========================================  ======
hint ``quote it: ...``    quote the scalar as written: ``"25587"``    yes
hint ``write it unq...``  write the quoted number unquoted: ``0.5``   yes
hint ``write key: v``     write the value as the platform reads it    yes
HMT200, HMT215            remove the key the platform ignores         yes
hint ``did you mean``     rename the key (or value) to the candidate  no
HMT203                    ``- {name: tool, count: 2}`` for the pair   no
========================  ==========================================  ======

A safe fix keeps what the file means (the value as written, the value as the
platform reads it, a key that does nothing); an unsafe one changes what the test
asserts or which key is read, so it is applied only when asked for
(``--unsafe-fixes``) and offered as such.

Every edit replaces one range of the text and leaves every other character as it
was: comments, key order, quoting style, blank lines, line endings. Positions
come from one parse of the text with PyYAML (composed nodes, nothing constructed).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import yaml

from holodeck_mt.model import Diagnostic
from holodeck_mt.text import quoting

try:  # the C parser (libyaml); PyYAML without it composes the same, only slower
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - exercised only without libyaml
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``text[start:end]`` (offsets into the text) with ``new_text``."""

    start: int
    end: int
    new_text: str


@dataclass(frozen=True)
class Fix:
    """The fix of one diagnostic: what it does, the one edit, and whether it is safe."""

    diagnostic: Diagnostic
    title: str
    edit: Edit
    safe: bool


# --- the document's nodes, by where they start --------------------------------------------


@dataclass(frozen=True)
class _Located:
    node: yaml.Node
    #: The collection holding the node, and the node's key (in a mapping) or index.
    parent: yaml.Node | None
    slot: int  # index of the pair (mapping) or item (sequence) in the parent
    is_key: bool


class _Tree:
    """The composed document, each node findable by its 1-based start line and column."""

    def __init__(self, text: str) -> None:
        self.text = text
        #: libyaml counts offsets after a byte order mark.
        self.shift = 1 if text.startswith("\ufeff") else 0
        self.at: dict[tuple[int, int], list[_Located]] = {}
        root = yaml.compose(text, Loader=_Loader)
        if root is not None:
            self._index(root)

    def _index(self, root: yaml.Node) -> None:
        seen: set[int] = set()
        stack: list[_Located] = [_Located(root, None, 0, False)]
        while stack:
            located = stack.pop()
            node = located.node
            mark = node.start_mark
            self.at.setdefault((mark.line + 1, mark.column + 1), []).append(located)
            if id(node) in seen:  # an alias: the anchored node is indexed once
                continue
            seen.add(id(node))
            if isinstance(node, yaml.MappingNode):
                for i, (key, value) in enumerate(node.value):
                    stack.append(_Located(key, node, i, True))
                    stack.append(_Located(value, node, i, False))
            elif isinstance(node, yaml.SequenceNode):
                for i, item in enumerate(node.value):
                    stack.append(_Located(item, node, i, False))

    def start(self, node: yaml.Node) -> int:
        return int(node.start_mark.index) + self.shift

    def end(self, node: yaml.Node) -> int:
        return int(node.end_mark.index) + self.shift

    def source(self, node: yaml.Node) -> str:
        return self.text[self.start(node) : self.end(node)]

    def scalar(self, d: Diagnostic, *, key: bool | None = None) -> _Located | None:
        """The scalar node the diagnostic is located at (a key, when ``key``)."""
        for located in self.at.get((d.line, d.column), []):
            if isinstance(located.node, yaml.ScalarNode) and key in (None, located.is_key):
                return located
        return None

    def value_scalar(self, d: Diagnostic) -> tuple[yaml.ScalarNode, tuple[int, int]] | None:
        """The value scalar the diagnostic is located at, and its own characters."""
        located = self.scalar(d, key=False)
        if located is None or not isinstance(located.node, yaml.ScalarNode):
            return None
        span = self.value_range(located.node)
        return (located.node, span) if span is not None else None

    def value_range(self, node: yaml.ScalarNode) -> tuple[int, int] | None:
        """The scalar's own characters, after any anchor or tag written before it."""
        start, end = self.start(node), self.end(node)
        written = self.text[start:end]
        if written[:1] == "!" or (written[:1] == "&" and "!" in written.split(None, 1)[0]):
            return None  # an explicit tag decides the type: quoting would not change it
        if written[:1] == "&":  # the anchor stays; the value after it is fixed
            parts = written.split(None, 1)
            if len(parts) != 2:
                return None
            start = end - len(parts[1])
            if parts[1][:1] == "!":
                return None
        return start, end


@functools.lru_cache(maxsize=1)  # a composed 11 MB document is large: keep the last one only
def _tree(text: str) -> _Tree | None:
    try:
        return _Tree(text)
    except (yaml.YAMLError, RecursionError, UnicodeError):
        return None


# --- the fixes -------------------------------------------------------------------------------

_QUOTE = re.compile(r"quote it\b")
_UNQUOTE = re.compile(r"write it unquoted\b")
#: "write threshold: 0.5": the value as the platform reads it, in the form the contract writes.
_WRITE = re.compile(r"write (?:[A-Za-z_][A-Za-z0-9_]*: )?(?P<value>[^\s:#,\[\]{}]+)\Z")
_DID_YOU_MEAN = re.compile(r"did you mean '([^'\\\"\n]+)'\?")
#: Numbers every YAML version reads as numbers, and never as octal or a string.
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?\Z")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
_LINE_END = re.compile(r"[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n|\Z)")

Fixer = Callable[[_Tree, Diagnostic], "Fix | None"]


def _quote(tree: _Tree, d: Diagnostic) -> Fix | None:
    """``25587`` -> ``"25587"``: the characters as written, now a string."""
    found = tree.value_scalar(d)
    if found is None:
        return None
    node, span = found
    if node.style:  # plain is None (Python parser) or "" (libyaml)
        return None  # already quoted, or a block scalar (always a string)
    written = tree.text[span[0] : span[1]]
    if not written or "\n" in written or "\r" in written or written != node.value:
        return None  # a multi-line plain scalar folds: its value is not its characters
    quoted = quoting.quoted(written)
    if quoted is None:
        return None
    return Fix(d, f"Quote {written} as a string: {quoted}", Edit(*span, quoted), safe=True)


def _unquote(tree: _Tree, d: Diagnostic) -> Fix | None:
    """``"0.5"`` -> ``0.5`` where a number is required."""
    found = tree.value_scalar(d)
    if found is None:
        return None
    node, span = found
    if node.style not in ('"', "'") or not _NUMBER.match(node.value):
        return None
    written = tree.text[span[0] : span[1]]
    if written != f"{node.style}{node.value}{node.style}":
        return None  # escapes or line breaks inside the quotes: not a plain number
    title = f"Write {written} unquoted: {node.value}"
    return Fix(d, title, Edit(*span, node.value), safe=True)


def _rename(tree: _Tree, d: Diagnostic) -> Fix | None:
    """``ground_truht`` -> ``ground_truth``: the single did-you-mean candidate."""
    found = _DID_YOU_MEAN.search(d.hint or "")
    located = tree.scalar(d)
    if found is None or located is None or not isinstance(located.node, yaml.ScalarNode):
        return None
    candidate = found.group(1)
    node, parent = located.node, located.parent
    span = tree.value_range(node)
    if span is None or not _NAME.match(candidate) or "\n" in tree.text[span[0] : span[1]]:
        return None
    if located.is_key and isinstance(parent, yaml.MappingNode):
        siblings = {k.value for k, _ in parent.value if isinstance(k, yaml.ScalarNode)}
        if candidate in siblings:
            return None  # renaming would write a duplicate key
    quote = node.style if node.style in ('"', "'") else ""
    replacement = f"{quote}{candidate}{quote}"
    what = "key" if located.is_key else "value"
    title = f"Rename {what} '{node.value}' to '{candidate}'"
    return Fix(d, title, Edit(*span, replacement), safe=False)


def _remove_pair(tree: _Tree, d: Diagnostic) -> Fix | None:
    """Remove ``key: value`` (the flag that has no effect) with its line, or its comma."""
    located = tree.scalar(d, key=True)
    if located is None or not isinstance(located.parent, yaml.MappingNode):
        return None
    mapping, i = located.parent, located.slot
    key, value = mapping.value[i]
    if len(mapping.value) < 2 or not isinstance(value, yaml.ScalarNode):
        return None
    if tree.source(key)[:1] == "&" or tree.source(value)[:1] == "&":
        return None  # an anchor another node may refer to
    text = tree.text
    start, end = tree.start(key), tree.end(value)
    if mapping.flow_style:
        if i > 0:  # from the end of the previous pair: ", key: value"
            start = tree.end(mapping.value[i - 1][1])
        else:  # up to the next key: "key: value, "
            end = tree.start(mapping.value[i + 1][0])
    else:
        line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
        tail = _LINE_END.match(text, end)
        if tail is None:
            return None
        if text[line_start:start].strip() == "":  # the key opens its line: remove the lines
            start, end = line_start, tail.end()
        elif i + 1 < len(mapping.value):  # "- flag: x" then "  metric: m": move the next up
            end = tree.start(mapping.value[i + 1][0])
        else:
            return None
    flag = key.value if isinstance(key, yaml.ScalarNode) else "the flag"
    return Fix(d, f"Remove `{flag}` (it has no effect)", Edit(start, end, ""), safe=True)


def _count(tree: _Tree, d: Diagnostic) -> Fix | None:
    """``- t`` twice -> ``- {name: t, count: 2}``, the repeats removed."""
    located = tree.scalar(d, key=False)
    if located is None or not isinstance(located.parent, yaml.SequenceNode):
        return None
    items = located.parent.value
    name = located.node.value
    same = [
        j
        for j, item in enumerate(items)
        if isinstance(item, yaml.ScalarNode) and item.value == name and item.tag.endswith(":str")
    ]
    if len(same) < 2 or located.slot not in same[1:]:
        return None
    first = items[same[0]]
    written = tree.source(first)
    if written[:1] in "&!*":
        return None
    flow = bool(located.parent.flow_style)
    pieces = [f"{{name: {written}, count: {len(same)}}}"]
    cursor = tree.end(first)
    for j in same[1:]:
        cut = _repeat_cut(tree, items, j, flow)
        if cut is None or cut[0] < cursor:
            return None
        pieces.append(tree.text[cursor : cut[0]])
        cursor = cut[1]
    title = f"Write '{name}' once with `count: {len(same)}`"
    return Fix(d, title, Edit(tree.start(first), cursor, "".join(pieces)), safe=False)


def _repeat_cut(tree: _Tree, items: list[yaml.Node], j: int, flow: bool) -> tuple[int, int] | None:
    """What removing the repeat ``items[j]`` cuts: ``, t`` in a flow list, else its line.

    None when it cannot go: an anchor, tag or alias, or a line that holds more than it.
    """
    item = items[j]
    if tree.source(item)[:1] in "&!*":
        return None
    if flow:  # ", t": from the end of the item before it
        return tree.end(items[j - 1]), tree.end(item)
    text = tree.text  # the whole "- t" line
    dash = text.rfind("-", 0, tree.start(item))
    line_start = max(text.rfind("\n", 0, dash), text.rfind("\r", 0, dash)) + 1
    tail = _LINE_END.match(text, tree.end(item))
    if dash < 0 or text[line_start:dash].strip() or tail is None:
        return None
    return line_start, tail.end()


def _rewrite(tree: _Tree, d: Diagnostic) -> Fix | None:
    """``enabled: "yes"`` -> ``enabled: true``: the value as the platform reads it, written
    as the hint says (``write enabled: true``), when YAML reads that back as the same kind."""
    found = _WRITE.match(d.hint or "")
    located = tree.scalar(d, key=False)
    if found is None or located is None or not isinstance(located.node, yaml.ScalarNode):
        return None
    canonical = found.group("value")
    try:
        read_back = yaml.safe_load(canonical)
    except yaml.YAMLError:
        return None
    if not isinstance(read_back, (bool, int, float)) or "\n" in canonical:
        return None
    span = tree.value_range(located.node)
    if span is None or "\n" in tree.text[span[0] : span[1]]:
        return None
    written = tree.text[span[0] : span[1]]
    title = f"Write {written} as {canonical}"
    return Fix(d, title, Edit(*span, canonical), safe=True)


def _fixer(d: Diagnostic) -> Fixer | None:
    """The fix that applies to a diagnostic, by its code first and its hint second."""
    if d.code in ("HMT200", "HMT215"):  # no effect / ignored by the platform: remove it
        return _remove_pair
    if d.code == "HMT203":
        return _count
    hint = d.hint or ""
    if _QUOTE.match(hint):
        return _quote
    if _UNQUOTE.match(hint):
        return _unquote
    if _WRITE.match(hint):
        return _rewrite
    if _DID_YOU_MEAN.search(hint):
        return _rename
    return None


def fixable(d: Diagnostic) -> bool:
    """Whether the diagnostic's code or hint has a fix (its position may still rule it out)."""
    return _fixer(d) is not None


def fixes(text: str, diagnostics: Iterable[Diagnostic]) -> list[Fix]:
    """The fix of each diagnostic that has one, in the order of the diagnostics."""
    wanted = [(d, f) for d in diagnostics if (f := _fixer(d)) is not None]
    if not wanted:
        return []
    tree = _tree(text)
    if tree is None:
        return []
    out = []
    for d, fixer in wanted:
        fix = fixer(tree, d)
        if fix is not None:
            out.append(fix)
    return out


def apply(text: str, chosen: Sequence[Fix]) -> tuple[str, list[Fix]]:
    """The text with the fixes applied, and those applied (an overlapping one waits)."""
    applied: list[Fix] = []
    edits: list[Edit] = []
    for fix in sorted(chosen, key=lambda f: f.edit):
        if edits and fix.edit == edits[-1]:
            applied.append(fix)  # the same edit for several diagnostics (a repeated tool)
        elif not edits or fix.edit.start >= edits[-1].end:
            edits.append(fix.edit)
            applied.append(fix)
    for edit in reversed(edits):
        text = text[: edit.start] + edit.new_text + text[edit.end :]
    return text, applied


@dataclass
class Outcome:
    text: str
    applied: list[Fix]
    #: Unsafe fixes there were and were not applied.
    unsafe_left: list[Fix]


def fix_all(
    text: str,
    diagnose: Callable[[str], list[Diagnostic]],
    *,
    unsafe: bool = False,
    rounds: int = 5,
) -> Outcome:
    """Apply fixes until none is left (``rounds`` at most: overlapping fixes wait a round)."""
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
