"""Which open documents the server validates, and as what (docs/editors.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from holodeck_mt.model import Role
from holodeck_mt.project import discovery


@dataclass(frozen=True)
class Target:
    """How a document is validated: its role and the folder its paths are relative to."""

    role: Role
    base_dir: Path
    #: The agent.yaml that names it, for a test-cases file validated through it.
    agent: Path | None = None


def target_of(path: Path, text: str, tree: Path | None = None) -> Target | None:
    """How to validate the document at ``path`` holding ``text``; None: not a HoloDeck file.
    No agent.yaml is looked for above ``tree`` (the workspace)."""
    if discovery.is_agent_file(path):
        return Target("document", path.parent)
    agent = discovery.naming_agent(path, tree)
    if agent is not None:
        return Target("test-cases-file", agent.parent, agent)
    if discovery.is_yaml_file(path) and discovery.text_holds_test_cases(text):
        return Target("document", path.parent)
    return None
