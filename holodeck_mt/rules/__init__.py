"""The rules a schema cannot express: one module per rule, its ``RULE`` beside its ``check``."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from holodeck_mt import layout
from holodeck_mt.model import JsonPath, under
from holodeck_mt.selection import Options
from holodeck_mt.semantics.matchers import classify

_Found = TypeVar("_Found")

#: The most nodes one walk keeps for the checks to share.
MOST_KEPT = 50_000


@dataclass
class Context:
    data: Any
    #: The folder `files[*].path` and graders are resolved against.
    base_dir: Path
    options: Options = field(default_factory=Options)
    #: Paths the schema or the loader already reported: a check skips them.
    reported: set[JsonPath] = field(default_factory=set)
    #: The tree paths named by the document must stay in (None: anywhere but /proc,
    #: /sys, /dev); see :mod:`holodeck_mt.read.confine`.
    tree: Path | None = None
    #: The agent.yaml naming this test-cases file (its metrics apply to these test cases).
    agent: Any = None
    #: The paths of that agent.yaml's errors.
    agent_reported: set[JsonPath] = field(default_factory=set)
    #: The document's text, as parsed (its references substituted).
    text: str = ""
    #: Results the checks share, computed once per document (e.g. the run-time plan).
    cache: dict[str, Any] = field(default_factory=dict)

    def walk(self, walker: Callable[[Any], Iterable[_Found]]) -> Iterable[_Found]:
        """What ``walker`` finds in the document, walked once for every check; past
        :data:`MOST_KEPT` nodes walked again each time, so that millions are never held."""
        key = f"walked:{walker.__name__}"
        found = self.cache.get(key)
        if found is None:
            found = list(itertools.islice(walker(self.data), MOST_KEPT + 1))
            if len(found) > MOST_KEPT:
                return walker(self.data)
            self.cache[key] = found
        return found


def matchers(
    context: Context, kind: Literal["fuzzy", "regex"], judge: Callable[[str], _Found]
) -> Iterator[tuple[JsonPath, str, _Found]]:
    """The ``kind`` matchers of the expected tools' ``args`` not reported yet: each pattern's
    path, the pattern, and ``judge``'s verdict on it (once per pattern)."""
    verdicts: dict[str, _Found] = {}
    for parts, value in context.walk(layout.arg_values):
        matcher = classify(value)
        where = (*parts, kind)
        if matcher.kind == kind and not under(where, context.reported):
            if matcher.value not in verdicts:
                verdicts[matcher.value] = judge(matcher.value)
            yield where, matcher.value, verdicts[matcher.value]
