"""Which open documents the server validates, and as what.

- an ``agent.yaml``/``agent.yml``: as the CLI validates it (the test-cases file it names
  is followed, so a missing one is reported on the agent.yaml);
- a file an agent.yaml names in ``test_cases_file`` (the agent.yaml, as saved, sits in the
  file's folder or up to four above it): as that agent's test-cases file;
- any other YAML file that holds test cases by its content, as a folder search finds them
  (:mod:`holodeck_mt.project.discovery`), judged on the editor's buffer: as the CLI validates a
  file given on its command line.

Every other file gets no diagnostics: a workflow or a compose file is not ours to judge.
"""

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

    ``tree``: the folder (real path) no agent.yaml is looked for above (the workspace).
    """
    if discovery.is_agent_file(path):
        return Target("document", path.parent)
    agent = discovery.naming_agent(path, tree)
    if agent is not None:
        return Target("test-cases-file", agent.parent, agent)
    if discovery.is_yaml_file(path) and discovery.text_holds_test_cases(text):
        return Target("document", path.parent)
    return None
