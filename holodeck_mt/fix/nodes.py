"""The document's composed nodes, found by the 1-based line and column they start at."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import yaml

try:  # the C parser (libyaml); PyYAML without it composes the same, only slower
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - exercised only without libyaml
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


@dataclass(frozen=True)
class NodePlace:
    node: yaml.Node
    parent: yaml.Node | None
    slot: int  # index of the pair (mapping) or item (sequence) in the parent
    is_key: bool


class Tree:
    def __init__(self, text: str) -> None:
        self.text = text
        #: libyaml counts offsets after a byte order mark.
        self.shift = 1 if text.startswith("\ufeff") else 0
        self.at: dict[tuple[int, int], list[NodePlace]] = {}
        root = yaml.compose(text, Loader=_Loader)
        if root is not None:
            self._index(root)

    def _index(self, root: yaml.Node) -> None:
        seen: set[int] = set()
        stack: list[NodePlace] = [NodePlace(root, None, 0, False)]
        while stack:
            place = stack.pop()
            node = place.node
            mark = node.start_mark
            self.at.setdefault((mark.line + 1, mark.column + 1), []).append(place)
            if id(node) in seen:  # an alias: the anchored node is indexed once
                continue
            seen.add(id(node))
            if isinstance(node, yaml.MappingNode):
                for i, (key, value) in enumerate(node.value):
                    stack.append(NodePlace(key, node, i, True))
                    stack.append(NodePlace(value, node, i, False))
            elif isinstance(node, yaml.SequenceNode):
                for i, item in enumerate(node.value):
                    stack.append(NodePlace(item, node, i, False))

    def start(self, node: yaml.Node) -> int:
        return int(node.start_mark.index) + self.shift

    def end(self, node: yaml.Node) -> int:
        return int(node.end_mark.index) + self.shift

    def source(self, node: yaml.Node) -> str:
        return self.text[self.start(node) : self.end(node)]

    def scalar(self, at: tuple[int, int], *, key: bool | None = None) -> NodePlace | None:
        """The scalar node that starts at ``at`` (line, column; a key, when ``key``)."""
        for place in self.at.get(at, []):
            if isinstance(place.node, yaml.ScalarNode) and key in (None, place.is_key):
                return place
        return None

    def value_range(self, node: yaml.ScalarNode) -> tuple[int, int] | None:
        """The scalar's own characters, after any anchor or tag written before it."""
        start, end = self.start(node), self.end(node)
        written = self.text[start:end]
        if written[:1] == "!":
            return None  # an explicit tag decides the type: quoting would not change it
        if written[:1] == "&":  # the anchor stays; the value after it is fixed
            parts = written.split(None, 1)
            if len(parts) != 2 or "!" in parts[0] or parts[1][:1] == "!":
                return None  # no value, or a tag
            start = end - len(parts[1])
        return start, end


@functools.lru_cache(maxsize=1)  # a composed 11 MB document is large: keep the last one only
def tree(text: str) -> Tree | None:
    """The text's nodes; None when it does not compose (a syntax error: nothing to fix)."""
    try:
        return Tree(text)
    except (yaml.YAMLError, RecursionError, UnicodeError):
        return None
