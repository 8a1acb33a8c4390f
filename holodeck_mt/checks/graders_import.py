"""HMT111 (--import-graders): each code grader's module imports and its attribute is callable.

Importing runs the author's code, so this runs only when asked. The agent.yaml's
folder is put first on ``sys.path`` for the import, as the platform does.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator

from holodeck_mt import walk
from holodeck_mt.checks import Context
from holodeck_mt.diagnostics import Fault


def check(context: Context) -> Iterator[Fault]:
    for parts, metric in walk.metrics(context.data):
        grader = metric.get("grader")
        where = (*parts, "grader")
        if not isinstance(grader, str) or ":" not in grader or context.already_reported(where):
            continue
        module_name, _, attribute = grader.partition(":")
        problem = _problem(module_name, attribute, str(context.base_dir))
        if problem:
            yield Fault("HMT111", f"grader '{grader}': {problem}", where)


def _problem(module_name: str, attribute: str, folder: str) -> str | None:
    sys.path.insert(0, folder)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        return f"module '{e.name or module_name}' not found"
    except BaseException as e:  # the author's module failed while importing
        first = str(e).splitlines()[0] if str(e) else ""
        return f"importing '{module_name}' raised {type(e).__name__}" + (
            f": {first}" if first else ""
        )
    finally:
        if sys.path and sys.path[0] == folder:
            sys.path.pop(0)
    if not hasattr(module, attribute):
        return f"module '{module_name}' has no attribute '{attribute}'"
    if not callable(getattr(module, attribute)):
        return f"'{module_name}.{attribute}' is not callable"
    return None
