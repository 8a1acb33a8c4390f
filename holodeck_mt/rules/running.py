"""Run every rule over a document the contract judged: the semantic faults, in order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from holodeck_mt.model import Fault, severity
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
    agent_clean: bool = True,
) -> list[Fault]:
    """The rules' faults of ``as_read`` (``doc`` as the platform reads it), beyond the
    ``contract``'s faults; ``agent``: the data of the agent.yaml naming this document."""
    context = Context(
        data=as_read,
        base_dir=base_dir,
        options=options,
        reported=doc.reported | {f.parts for f in contract if _is_error(f)},
        tree=tree,
        agent=agent,
        runtime=agent_clean
        and not any(map(_is_error, contract))
        and all(d.severity != "error" for d in doc.diagnostics),
    )
    found: list[Fault] = []
    for rule in rules_to_run(options):
        # Rule.run reads `runtime` before its check starts: an error stops the next rules.
        for fault in rule.run(context):
            found.append(fault)
            context.runtime = context.runtime and not _is_error(fault)
    return found


def _is_error(fault: Fault) -> bool:
    return severity(fault.code) == "error"
