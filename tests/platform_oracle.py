"""HoloDeck itself as a test-only oracle: does the platform load this document?

The released platform package (``holodeck-ai``, the version in ``PLATFORM_VERSION``)
is installed into the development environment by the Makefile with
``pip install --no-deps`` beside pydantic and PyYAML; nothing of it is copied
into the project. Its own functions do each step of ``ConfigLoader.load_agent_yaml``
in order: read the text and substitute ``${NAME}`` (``_read_yaml_with_env_substitution``,
which parses with ``yaml.safe_load``), resolve ``test_cases_file``
(``_resolve_test_cases_file``), then validate with the ``Agent`` model. Two things
of the real load are left out, as the validator leaves them out:

- the sections of an agent.yaml the validator leaves to the platform (``name``,
  ``model``, ``instructions``, ``tools``, ``execution``, ... : ``PLATFORM_OWNED``)
  are not judged: the three the platform requires are replaced by ``FILLERS``, the
  others removed, in every non-empty mapping; a list of test cases is judged as
  the ``test_cases_file`` of such an agent;
- a code metric's grader module is not imported: every module a ``grader`` names
  is a stub whose attributes are callables (the validator imports graders only
  with ``--import-graders``). The user's global config is not merged.

``response_path`` is validated by ``holodeck.lib.evaluators.response_path``; the
package ``holodeck.lib.evaluators`` imports deepeval in its ``__init__``, which is
not installed: the package is registered as a bare namespace over its folder, so
that its ``response_path`` module loads without running that ``__init__``.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
import types
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PLATFORM_VERSION = "0.7.1"

#: Keys every agent.yaml needs that the validator leaves to the platform.
FILLERS: dict[str, Any] = {
    "name": "oracle-agent",
    "model": {"provider": "openai", "name": "gpt-4o"},
    "instructions": {"inline": "Answer the question."},
}


#: Top-level keys whose values only the platform judges (the validator accepts them as written).
PLATFORM_OWNED = frozenset(
    {
        "name",
        "description",
        "author",
        "model",
        "instructions",
        "response_format",
        "tools",
        "execution",
        "observability",
        "deployment",
        "embedding_provider",
        "claude",
        "openai",
    }
)


@dataclass(frozen=True)
class Verdict:
    loads: bool
    #: The platform's reason when it does not load (first line, bounded).
    reason: str = ""
    #: Where its model's first error stands (pydantic's ``loc``), when a model refused.
    loc: tuple[Any, ...] = ()


def available() -> str | None:
    """None when the platform package imports; else why it does not."""
    try:
        _platform()
    except Exception as e:  # an absent or broken install: the caller decides
        return f"{type(e).__name__}: {e}"
    return None


_LOADED: dict[str, Any] = {}


def _platform() -> dict[str, Any]:
    if _LOADED:
        return _LOADED
    os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from importlib.metadata import version

        import yaml

        installed = version("holodeck-ai")
        if installed != PLATFORM_VERSION:
            raise RuntimeError(f"holodeck-ai {installed} installed, {PLATFORM_VERSION} expected")
        _evaluators_without_init()
        from holodeck.config import loader
        from holodeck.models.agent import Agent

    _LOADED.update(
        read=loader._read_yaml_with_env_substitution,
        resolve=loader._resolve_test_cases_file,
        Agent=Agent,
        yaml=yaml,
    )
    return _LOADED


def _evaluators_without_init() -> None:
    """``holodeck.lib.evaluators`` as a bare package: its modules load, its __init__ never runs."""
    name = "holodeck.lib.evaluators"
    if name in sys.modules:
        return
    lib = importlib.util.find_spec("holodeck.lib")
    assert lib is not None and lib.submodule_search_locations is not None
    folder = Path(next(iter(lib.submodule_search_locations))) / "evaluators"
    package = types.ModuleType(name)
    package.__path__ = [str(folder)]
    package.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
    package.__spec__.submodule_search_locations = [str(folder)]
    sys.modules[name] = package


class _StubGraders(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Every module named here imports as a stub whose public attributes are callables."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname in self.names:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = types.ModuleType(spec.name)

        def attribute(name: str) -> Any:
            if name.startswith("__"):
                raise AttributeError(name)
            return lambda *args, **kwargs: None

        module.__getattr__ = attribute  # type: ignore[method-assign]
        module.__path__ = []
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        return None


def _graders(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        grader = node.get("grader")
        if isinstance(grader, str) and ":" in grader:
            yield grader.partition(":")[0]
        for value in node.values():
            yield from _graders(value)
    elif isinstance(node, list):
        for value in node:
            yield from _graders(value)


@contextmanager
def _stubbed(modules: set[str]) -> Iterator[None]:
    names = {".".join(m.split(".")[: i + 1]) for m in modules for i in range(m.count(".") + 1)}
    names -= set(sys.modules)  # a real, already imported module stays what it is
    finder = _StubGraders(names)
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in names:
            sys.modules.pop(name, None)


def judge(
    text: str,
    *,
    referenced: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
    whole: bool = False,
) -> Verdict:
    """The platform's verdict on ``text`` (an agent.yaml, or a list of test cases).

    ``referenced`` holds other files beside it by name (a ``test_cases_file``).
    ``environ`` replaces the environment for ``${NAME}`` substitution. ``whole``: the
    document is loaded as ``ConfigLoader.load_agent_yaml`` loads it, its own sections
    judged too (no ``PLATFORM_OWNED`` removed, no ``FILLERS``).
    """
    base = _scratch()
    written = []
    try:
        for name, content in (referenced or {}).items():
            (base / name).write_text(content, encoding="utf-8", newline="")
            written.append(base / name)
        path = base / "agent.yaml"
        path.write_text(text, encoding="utf-8", newline="")
        written.append(path)
        return _judge_file(path, environ, whole)
    finally:
        for path in written:
            path.unlink(missing_ok=True)


_SCRATCH: list[tempfile.TemporaryDirectory[str]] = []


def _scratch() -> Path:
    """One folder for every document judged (removed when the process ends)."""
    if not _SCRATCH:
        _SCRATCH.append(tempfile.TemporaryDirectory(prefix="oracle-"))
    return Path(_SCRATCH[0].name)


def judge_file(
    path: Path, environ: Mapping[str, str] | None = None, *, whole: bool = False
) -> Verdict:
    """The platform's verdict on a file as it stands (its test_cases_file beside it)."""
    return _judge_file(path, environ, whole)


def _judge_file(path: Path, environ: Mapping[str, str] | None, whole: bool = False) -> Verdict:
    platform = _platform()
    saved = dict(os.environ)
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _load(platform, path, whole)
    except Exception as e:  # whatever the platform raises is its refusal to load
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        errors = getattr(e, "errors", None)
        loc = tuple(errors()[0]["loc"]) if callable(errors) and errors() else ()
        return Verdict(False, f"{type(e).__name__}: {first[:300]}", loc)
    finally:
        if environ is not None:
            os.environ.clear()
            os.environ.update(saved)


def _parsed(platform: dict[str, Any], path: Path) -> Any:
    try:
        return platform["yaml"].safe_load(path.read_text(encoding="utf-8"))
    except Exception:  # the platform's own read already succeeded; this is only a peek
        return None


def _load(platform: dict[str, Any], path: Path, whole: bool = False) -> Verdict:
    config = platform["read"](path, substitute_env=True)
    if config is None and isinstance(_parsed(platform, path), list):
        config = []  # an empty list of test cases reads as None: still a test-cases file
    if isinstance(config, list):
        # A test-cases file: judged as the test_cases_file of an agent.
        config = {"test_cases_file": path.name}
    if isinstance(config, dict) and config and not whole:
        for key in PLATFORM_OWNED & {k for k in config if isinstance(k, str)}:
            del config[key]
        config.update(FILLERS)
    if not config:
        config = {}
    platform["resolve"](config, path.parent, substitute_env=True)
    with _stubbed(set(_graders(config))):
        platform["Agent"](**config)
    return Verdict(True)
