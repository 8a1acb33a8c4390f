"""``holodeck-mt explain``: what the platform will run for each test case and turn
(docs/explain.md); a file with errors is refused with the validator's diagnostics."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from holodeck_mt import model
from holodeck_mt.explain import document, text
from holodeck_mt.limits import Limits
from holodeck_mt.model import EXIT_INVALID, EXIT_OK, EXIT_USAGE, clip, reason_of, usage_error
from holodeck_mt.pipeline import check_file
from holodeck_mt.project import discovery
from holodeck_mt.project.config import ConfigError
from holodeck_mt.project.settings import JobSettings
from holodeck_mt.render import renderer
from holodeck_mt.selection import SelectionError
from holodeck_mt.text.safe_text import escape, escape_as_json
from holodeck_mt.wording import hints


def explain(
    path: str,
    *,
    test_case: str | None = None,
    limits: Limits | None = None,
    jobs: JobSettings | None = None,
) -> Any:
    """The explain document of ``path`` (:class:`OSError`: not read), from the documents the
    validator judged with ``jobs``' options, showing no substituted value."""
    limits, jobs = limits or Limits(), jobs or JobSettings()
    checked = check_file(path, limits=limits, options=jobs.of(path), options_of=jobs.of)
    results = [c.result for c in checked]
    files = [r.to_json() for r in results]
    if not all(r.valid for r in results):
        return document.refuse(files), results
    built = document.build(document.sources_of(checked, path, limits), files, test_case)
    return built, results


def _resolve_target(path: str, jobs: JobSettings) -> str:
    """The agent.yaml naming ``path`` as its test-cases file (its metrics apply), else
    ``path``, with a note for a list of test cases no agent.yaml names."""
    agent = jobs.for_path(Path(path)).agent
    if agent is not None:
        return str(agent)
    if not discovery.is_agent_file(Path(path)) and discovery.top_level_is_list(Path(path)):
        print(
            f"holodeck-mt: note: no agent.yaml names '{escape(clip(path, 200))}' as its "
            f"test_cases_file (looked in its folder and {discovery.LEVELS_UP} above): "
            "explained without an agent's metrics",
            file=sys.stderr,
        )
    return path


def run(path: str, test_case: str | None, fmt: str, limits: Limits, out: TextIO) -> int:
    """Explain one file to ``out``; the exit code (0 explained, 1 refused, 2 usage)."""
    if not Path(path).is_file():
        return _usage(f"cannot read '{escape(clip(path, 400))}': not a file")
    try:
        jobs = JobSettings()
        path = _resolve_target(path, jobs)
        doc, results = explain(path, test_case=test_case, limits=limits, jobs=jobs)
    except (ConfigError, SelectionError) as e:
        return _usage(escape(clip(str(e), 800)))
    except OSError as e:
        return _usage(f"cannot read '{escape(clip(path, 400))}': {reason_of(e)}")
    if doc["explained"] and test_case is not None and not doc["test_cases"]:
        return _usage(f"no test case named {model.unmarked(hints.quote(test_case))}")
    if fmt == "json":
        dumped = json.dumps(doc, indent=2, ensure_ascii=False, default=str)
        out.write(escape_as_json(dumped, keep="\n") + "\n")
    elif not doc["explained"]:
        renderer("text")(results, out)
    else:
        out.write(text.render(doc))
        if any(r.warnings for r in results):
            buffer = io.StringIO()
            renderer("text")(results, buffer)
            out.write("\n" + buffer.getvalue())
    return EXIT_OK if doc["explained"] else EXIT_INVALID


def _usage(message: str) -> int:
    print(usage_error(message), file=sys.stderr)
    return EXIT_USAGE
