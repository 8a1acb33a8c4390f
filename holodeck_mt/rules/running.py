"""Run every rule over a document the contract judged: the semantic faults, in order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_mt.model import Fault, JsonPath
from holodeck_mt.read import loader
from holodeck_mt.rules import Context
from holodeck_mt.rules.registry import rules_to_run
from holodeck_mt.selection import Options


def faults(
    doc: loader.Document,
    contract: list[Fault],
    as_read: Any,
    *,
    base_dir: Path,
    options: Options,
    tree: Path | None,
    agent: Any = None,
    agent_reported: frozenset[JsonPath] = frozenset(),
) -> list[Fault]:
    """The rules' faults of ``as_read`` (``doc`` as the platform reads it), beyond the
    ``contract``'s faults; ``agent``: the data of the agent.yaml naming this document, and
    ``agent_reported`` the paths of its errors. The run-time lints run whatever else is
    wrong: the report drops theirs in a test case showing an error (``report.finish``)."""
    context = Context(
        data=as_read,
        text=doc.text,
        base_dir=base_dir,
        options=options,
        reported=doc.reported | {f.parts for f in contract if f.severity == "error"},
        tree=tree,
        agent=agent,
        agent_reported=set(agent_reported),
    )
    return [fault for rule in rules_to_run(options) for fault in rule.check(context)]
