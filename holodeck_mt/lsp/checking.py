"""Which open documents the server validates, as what (docs/editors.md), and with what: the
workspace holding one bounds what it reads and gives its ``.env`` (docs/limits.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic, FileResult
from holodeck_mt.pipeline import read_saved, validate_document_text, validate_text
from holodeck_mt.project import discovery
from holodeck_mt.project.settings import FileSettings, JobSettings
from holodeck_mt.read import confine
from holodeck_mt.selection import Options


def decide(path: Path, tree: Path) -> tuple[FileSettings, JobSettings, str | None]:
    """The document's settings (``project.settings``), the workspace's configuration read
    afresh; and why it was not used (every code is then)."""
    try:
        jobs = JobSettings(top=tree)
        found = jobs.for_path(path)
        if found.agent is not None:
            jobs.of(str(found.agent))  # read now: a fault is said here
        return found, jobs, None
    except (OSError, ValueError) as e:  # a configuration or a selection that cannot be used
        jobs = JobSettings(top=tree, isolated=True)
        return jobs.for_path(path), jobs, f"configuration not used: {e}"


#: A document's last reading: its text, the agent.yaml's it was validated through, its
#: options; and its diagnostics.
Reading = tuple[tuple[str, str | None, Options], list[Diagnostic]]


def diagnose(
    path: Path,
    text: str,
    roots: Sequence[Path],
    limits: Limits | None = None,
    readings: dict[str, Reading] | None = None,
    log: Callable[[str], None] = lambda problem: None,
) -> list[Diagnostic] | None:
    """Every diagnostic the CLI reports for this text (None: not our file); ``readings`` (by
    path) are reused while the same; ``log`` hears why the configuration is not used."""
    limits = limits or Limits()
    tree = confine.tree_of(path, roots)  # the innermost workspace folder holding it
    target, jobs, problem = decide(path, tree)
    holds = discovery.is_yaml_file(path) and discovery.text_holds_test_cases(text)
    if target.agent is None and not discovery.is_agent_file(path) and not holds:
        return None
    if problem is not None:
        log(problem)
    context = saved = None
    if target.agent is not None:  # validated through it: its saved text counts too
        saved = read_saved(target.agent, tree, limits)
        context = f"{target.agent}\0{tree}\0{saved}"
    # Never reused for a document naming a test_cases_file (it reads that file from disk).
    kept = readings if readings is not None else {}
    key = (text, context, target.options)
    last = kept.get(str(path))
    if last is not None and last[0] == key:
        return last[1]
    result = _result(path, text, tree, target, jobs, saved, limits)
    # What the editor shows: under ``strict`` every diagnostic is an error, as in a report.
    found = [replace(d, severity=result.level_of(d.code)) for d in result.diagnostics]
    if context is None and "test_cases_file" in text:
        kept.pop(str(path), None)
    else:
        kept[str(path)] = (key, found)
    return found


def _result(
    path: Path,
    text: str,
    tree: Path,
    target: FileSettings,
    jobs: JobSettings,
    agent_text: str | None,
    limits: Limits,
) -> FileResult:
    """The document's result: through the agent.yaml naming it, as saved (run-time checks
    read its settings), each file with its own options, as on the command line."""
    common: dict[str, Any] = {
        "base_dir": target.base,
        "limits": limits,
        "tree": tree,
        "workdir": target.env,
    }
    if target.agent is None:  # in each of its roles: an agent.yaml may name itself
        found = validate_document_text(text, path=str(path), options=target.options, **common)
        own = [r for r in found[1:] if r.source == discovery.same_file_key(path)]
        return replace(found[0], diagnostics=[d for r in found[:1] + own for d in r.diagnostics])
    agent = str(target.agent)
    results = validate_document_text(
        agent_text or "",
        path=agent,
        followed_text=text,
        options=jobs.of(agent),
        options_of=jobs.of,
        **common,
    )
    if len(results) > 1:
        return results[1]
    return validate_text(text, path=str(path), role=target.role, options=target.options, **common)


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
