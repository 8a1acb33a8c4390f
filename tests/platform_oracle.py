"""HoloDeck itself as a test-only oracle: does the platform load this document?

The released platform package (``holodeck-ai``, the version in ``PLATFORM_VERSION``, which
holodeck_mt/urls.py writes)
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

:func:`judge_run` loads a whole agent.yaml as `holodeck test` does, nothing left out
but the grader import: the working folder's ``.env`` read first, the platform's own
``ConfigLoader.load_agent_yaml`` then, in a staged folder (:func:`staged`) and an
environment restored afterwards (:func:`run_environment`).

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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from holodeck_mt.urls import PLATFORM_VERSION as PLATFORM_VERSION  # re-exported

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
    #: Where each of the errors it lists stands (the first is ``loc``).
    locs: tuple[tuple[Any, ...], ...] = ()
    #: The document its model refused, as the model received it (``${NAME}`` substituted,
    #: the test-cases file read in), when it got that far.
    data: Any = field(default=None, compare=False)


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
        ConfigLoader=loader.ConfigLoader,
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
        return _refusal(e)
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


def _refusal(error: BaseException, folder: Path | None = None) -> Verdict:
    """The verdict of a load that raised ``error``: its first line (the scratch folder's
    path left out), and where each error of a refusing model stands."""
    model = error if callable(getattr(error, "errors", None)) else error.__cause__
    errors = getattr(model, "errors", None)
    locs = tuple(tuple(e["loc"]) for e in errors()) if callable(errors) else ()
    text = str(error).strip()
    if locs and callable(errors):  # the wrapper's first line names only the file
        text = f"{'.'.join(map(str, locs[0]))}: {errors()[0]['msg']}"
    if folder is not None:
        text = text.replace(str(folder), "<run>")
    first = text.splitlines()[0] if text else ""
    return Verdict(False, f"{type(error).__name__}: {first[:300]}", locs[0] if locs else (), locs)


# --- a whole run, as `holodeck test` loads it -------------------------------------

#: The staged run's layout: the working folder, the agent's folder inside it, an empty home.
WORKING, AGENT, HOME = "work", "work/agent", "home"


@contextmanager
def staged(
    text: str,
    *,
    referenced: Mapping[str, str] | None = None,
    working: Mapping[str, str] | None = None,
) -> Iterator[Path]:
    """``text`` written as ``work/agent/agent.yaml`` of a new folder, ``referenced`` beside
    it, ``working`` in ``work/`` (where the run starts), and an empty ``home/``; yields the
    agent.yaml's path, and removes everything afterwards."""
    with tempfile.TemporaryDirectory(prefix="oracle-run-") as folder:
        root = Path(folder)
        for part in (AGENT, HOME):
            (root / part).mkdir(parents=True)
        for base, files in ((root / AGENT, referenced), (root / WORKING, working)):
            for name, content in (files or {}).items():
                (base / name).write_text(content, encoding="utf-8", newline="")
        agent = root / AGENT / "agent.yaml"
        agent.write_text(text, encoding="utf-8", newline="")
        yield agent


def working_folder(agent: Path) -> Path:
    """The folder a run staged by :func:`staged` starts in."""
    return agent.parents[len(Path(AGENT).parts) - 1]


@contextmanager
def run_environment(agent: Path, variables: Mapping[str, str]) -> Iterator[None]:
    """The process as `holodeck test agent/agent.yaml` starts for a staged ``agent``: the
    environment is ``variables``, the home an empty folder (no user ``.env`` nor
    configuration), the working directory the staged working folder. The environment, the
    working directory and ``sys.path`` (the loader adds the agent's folder) are restored
    afterwards, so nothing of a run reaches the process's own state."""
    working = working_folder(agent)
    home = str(working.parent / HOME)
    saved_environ, saved_cwd, saved_path = dict(os.environ), os.getcwd(), list(sys.path)
    os.environ.clear()
    os.environ.update({**variables, "HOME": home, "USERPROFILE": home})
    os.chdir(working)
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_environ)
        sys.path[:] = saved_path


def judge_run(agent: Path, variables: Mapping[str, str]) -> Verdict:
    """The platform's verdict on a staged ``agent``, reached as `holodeck test` reaches it.

    ``holodeck/cli/main.py`` loads the working folder's ``.env`` and then
    ``~/.holodeck/.env`` with python-dotenv's ``load_dotenv(path, override=False)`` when
    each exists (its ``_load_dotenv_files``, run as the module is imported: the module
    itself imports the agent runtime, not installed here, so its two calls are made
    here); then ``holodeck test`` calls ``ConfigLoader().load_agent_yaml`` on the file
    (through ``load_agent_with_config``): the user's and project's configurations
    merged, ``${NAME}`` substituted, ``test_cases_file`` resolved, the ``Agent`` model
    validated, nothing filled in nor removed. Only a code metric's grader module is a stub.
    """
    platform = _platform()
    from dotenv import load_dotenv

    graders = set(_graders(_documents(agent.parent)))
    with run_environment(agent, variables):
        try:
            with warnings.catch_warnings(), _stubbed(graders):
                warnings.simplefilter("ignore")
                for env in (Path.cwd() / ".env", Path.home() / ".holodeck" / ".env"):
                    if env.exists():
                        load_dotenv(env, override=False)
                platform["ConfigLoader"]().load_agent_yaml(str(agent))
        except Exception as e:  # whatever the platform raises is its refusal to load
            staged_root = working_folder(agent).parent
            return replace(_refusal(e, staged_root), data=_as_validated(platform, agent))
    return Verdict(True)


def _as_validated(platform: dict[str, Any], agent: Path) -> Any:
    """The document as the platform's model met it (read in the run's environment)."""
    try:
        config = platform["read"](agent, substitute_env=True) or {}
        platform["resolve"](config, agent.parent, substitute_env=True)
    except Exception:  # the load failed before its model: nothing to locate in
        return None
    return config


def _documents(folder: Path) -> list[Any]:
    """Every YAML document of ``folder`` that parses (where graders are named)."""
    yaml = _platform()["yaml"]
    found = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            found.append(yaml.safe_load(path.read_text(encoding="utf-8")))
        except Exception:  # a document the platform cannot read names no grader
            continue
    return found
