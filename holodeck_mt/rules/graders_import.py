"""HMT111 (--import-graders): each code grader's module imports and its attribute is callable.

Importing runs the author's code, so this runs only when asked. The agent.yaml's
folder is put first on ``sys.path`` for the import, as the platform does. Each
import is isolated, as if in a process of its own: a module of the same name that
another folder's grader imported (two folders each with a ``graders.py``) is
hidden while it runs and every module loaded from the folder is forgotten after.
Whatever the module prints while importing is discarded: standard output carries
the report (``--format json`` must stay parseable).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from holodeck_mt import layout
from holodeck_mt.model import OWN, Fault, clip, derived, marked, under
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule


def check(context: Context) -> Iterator[Fault]:
    for parts, metric in context.walk(layout.metrics):
        grader = metric.get("grader")
        where = (*parts, "grader")
        if not isinstance(grader, str) or ":" not in grader or under(where, context.reported):
            continue
        module_name, _, attribute = grader.partition(":")
        problem = _problem(module_name, attribute, str(context.base_dir))
        if problem:
            why = derived(problem, "it cannot be imported")
            yield Fault("HMT111", f"grader '{marked(clip(grader), OWN)}': {why}", where)


def _problem(module_name: str, attribute: str, folder: str) -> str | None:
    shown, attribute_shown = clip(module_name), clip(attribute)
    try:
        with _isolate(module_name, folder), _silence():
            module = importlib.import_module(module_name)
            found = hasattr(module, attribute)
            usable = found and callable(getattr(module, attribute))
    except ModuleNotFoundError as e:
        return f"module '{clip(e.name or module_name)}' not found"
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # the author's module failed while importing
        first = str(e).splitlines()[0] if str(e) else ""
        return f"importing '{shown}' raised {type(e).__name__}" + (
            f": {clip(first, 120)}" if first else ""
        )
    if not found:
        return f"module '{shown}' has no attribute '{attribute_shown}'"
    if not usable:
        return f"'{shown}.{attribute_shown}' is not callable"
    return None


def _from_folder(module: ModuleType, folder: str) -> bool:
    file = getattr(module, "__file__", None)
    paths = list(getattr(module, "__path__", []) or [])
    return any(
        isinstance(p, str) and Path(p).resolve().is_relative_to(folder) for p in [file, *paths] if p
    )


@contextlib.contextmanager
def _isolate(module_name: str, folder: str) -> Iterator[None]:
    """Import from ``folder`` first, with no module of the same package cached, then forget."""
    top = module_name.partition(".")[0]
    resolved = str(Path(folder).resolve())
    hidden = {name: module for name, module in sys.modules.items() if name.partition(".")[0] == top}
    for name in hidden:
        del sys.modules[name]
    before = set(sys.modules)
    writes_bytecode = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # never leave __pycache__ in the user's tree
    sys.path.insert(0, folder)
    importlib.invalidate_caches()
    try:
        yield
    finally:
        if folder in sys.path:
            sys.path.remove(folder)
        sys.dont_write_bytecode = writes_bytecode
        for name in set(sys.modules) - before:
            module = sys.modules.get(name)
            if name.partition(".")[0] == top or (module and _from_folder(module, resolved)):
                del sys.modules[name]
        sys.modules.update(hidden)


@contextlib.contextmanager
def _silence() -> Iterator[None]:
    """Standard output (Python's and the descriptor's) discarded while the module imports."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no descriptor 1 (closed, or embedded)
        saved = None
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            yield
    finally:
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


RULE = Rule(
    code="HMT111",
    name="grader-import",
    description="A code grader's module, attribute or callable is missing (with --import-graders).",
    check=check,
    runs="opt-in",
    option="import_graders",
    flag="--import-graders",
)
