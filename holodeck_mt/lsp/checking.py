"""Which open documents the server validates, as what (docs/editors.md), and with what.

The workspace, not the folder the server started in, bounds what is read (a document's
``test_cases_file: ../.aws/credentials`` is not) and gives the ``.env`` read for ``${NAME}``;
a document outside every workspace folder has its own folder as its tree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic, Role
from holodeck_mt.pipeline import read_saved, validate_document_text, validate_text
from holodeck_mt.project import discovery
from holodeck_mt.project.config import ConfigError, find, load
from holodeck_mt.read import confine
from holodeck_mt.selection import Options, SelectionError


@dataclass(frozen=True)
class Target:
    """How a document is validated: its role and the folder its paths are relative to."""

    role: Role
    base_dir: Path
    #: The agent.yaml that names it, for a test-cases file validated through it.
    agent: Path | None = None


def target_of(path: Path, text: str, tree: Path | None = None) -> Target | None:
    """How to validate ``text`` at ``path`` (no agent.yaml looked for above ``tree``);
    None: not a HoloDeck file."""
    if discovery.is_agent_file(path):
        return Target("document", path.parent)
    agent = discovery.naming_agent(path, tree)
    if agent is not None:
        return Target("test-cases-file", agent.parent, agent)
    if discovery.is_yaml_file(path) and discovery.text_holds_test_cases(text):
        return Target("document", path.parent)
    return None


def options_for(path: Path, tree: Path) -> tuple[Options, str | None]:
    """The workspace configuration's options, read afresh from ``path`` up to ``tree``;
    and why it was not used (every code is then)."""
    try:
        found = find(path.parent, top=tree)
        if found is None:
            return Options(), None
        settings = load(found)
        return Options(selection=settings.selection(), platform=settings.platform), None
    except (ConfigError, SelectionError, OSError, ValueError) as e:
        return Options(), f"configuration not used: {e}"


#: A document's last reading: its text, the agent.yaml's it was validated through, and
#: its diagnostics.
Reading = tuple[str, str | None, list[Diagnostic]]


def diagnose(
    path: Path,
    text: str,
    roots: Sequence[Path],
    limits: Limits | None = None,
    readings: dict[str, Reading] | None = None,
    log: Callable[[str], None] = lambda problem: None,
) -> list[Diagnostic] | None:
    """Every diagnostic the CLI reports for this text; None for a file that is not ours.
    ``readings`` (by path) are reused while both are the same; ``log`` hears why the
    workspace configuration is not used."""
    limits = limits or Limits()
    tree = confine.tree_of(path, roots)  # the innermost workspace folder holding it
    target = target_of(path, text, tree)
    if target is None:
        return None
    options, problem = options_for(path, tree)
    if problem is not None:
        log(problem)
    context = saved = None
    if target.agent is not None:  # validated through it: its saved text counts too
        saved = read_saved(target.agent, tree, limits)
        context = f"{target.agent}\0{tree}\0{saved}"
    # Reused only under the default selection (a configuration may change), and never
    # for a document naming a test_cases_file (it reads that file from disk).
    kept = readings if readings is not None and options.selection.everything else {}
    last = kept.get(str(path))
    if last is not None and last[:2] == (text, context):
        return last[2]
    found = diagnose_as(path, text, tree, target, saved, limits, options)
    if context is None and "test_cases_file" in text:
        kept.pop(str(path), None)
    else:
        kept[str(path)] = (text, context, found)
    return found


def diagnose_as(
    path: Path,
    text: str,
    tree: Path,
    target: Target,
    agent_text: str | None,
    limits: Limits | None = None,
    options: Options | None = None,
) -> list[Diagnostic]:
    """:func:`diagnose` of a document whose ``tree`` and ``target`` are known;
    ``agent_text``: the saved text of the agent.yaml naming it (if one does)."""
    common: dict[str, Any] = {
        "base_dir": target.base_dir,
        "limits": limits or Limits(),
        "tree": tree,
        "workdir": tree,
        "options": options or Options(),
    }
    if target.agent is None:
        return validate_document_text(text, path=str(path), **common)[0].diagnostics
    # Through the agent.yaml naming it, as saved (run-time checks read its settings).
    results = validate_document_text(
        agent_text or "", path=str(target.agent), followed_text=text, **common
    )
    if len(results) < 2:
        return validate_text(text, path=str(path), role=target.role, **common).diagnostics
    return results[1].diagnostics


#: Validated at start (:func:`warm`) so the first document is as fast as the next: the
#: schema's, the reader's and the rules' faults, no file read and no platform section
#: (their models are slow to import).
SAMPLE = """\
evaluations:
  metrics: []
test_cases:
  - name: sample
    turns:
      - input: "q"
        ground_truth: 206588.10
        ground_truht: "x"
        expected_tools:
          - subtract
          - subtract
          - name: lookup
            args:
              b: {regex: "(2009"}
"""


def warm() -> list[Diagnostic]:
    """Validate the sample as an open document is validated; its diagnostics."""
    here = Path(__file__).parent
    return diagnose(here / "agent.yaml", SAMPLE, [here]) or []
