"""Shared helpers: run the CLI in-process and read its JSON document."""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

import holodeck_mt
from holodeck_mt.app import cli
from holodeck_mt.app.cli import main
from holodeck_mt.render import FORMATS
from tests.support.samples import SAMPLES_VARIABLE, samples_folder

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
#: Set to 1 (CI does), a missing samples folder fails the tests that read it.
REQUIRE_SAMPLES_VARIABLE = "HOLODECK_MT_REQUIRE_SAMPLES"


SAMPLES = samples_folder()

RunJson = Callable[..., tuple[int, dict[str, Any]]]

#: The lints that are tests (the layers, each fact once, ``sys.path``, the complexity
#: checker): ``make lint`` runs them (``pytest tests/lint``), ``make test`` does not.
collect_ignore = ["lint"]

#: Suites whose every test starts a process (a language server, the CLI as a child, Node):
#: marked slow as folders; a slow module elsewhere says so with its own ``pytestmark``.
SLOW_FOLDERS = ("editor", "hostile")


#: A module marked slow as a whole says so on one line of its own.
_SLOW_MODULE = re.compile(r"^pytestmark = pytest\.mark\.slow\b", re.M)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """``make test-fast`` (``-m "not slow"``) does not import what it leaves out: the slow
    folders, and the modules marked slow as a whole."""
    if config.getoption("markexpr") != "not slow":
        return None
    if collection_path.parent == Path(__file__).parent and collection_path.name in SLOW_FOLDERS:
        return True
    if collection_path.name.startswith("test_") and collection_path.suffix == ".py":
        return bool(_SLOW_MODULE.search(collection_path.read_text(encoding="utf-8"))) or None
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``make test-fast`` (``-m "not slow"``) leaves out the suites that take seconds."""
    tests = Path(__file__).resolve().parent
    slow: dict[Path, bool] = {}  # by module: resolving each test's path is a syscall apiece
    for item in items:
        if item.path not in slow:
            slow[item.path] = item.path.resolve().relative_to(tests).parts[0] in SLOW_FOLDERS
        if slow[item.path]:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def _one_parser() -> Iterator[None]:
    """The command line's parser is built once a session, not once a run in process:
    building it was a third of validating a small file. It reads nothing but the output
    formats and the version at build time, its key here; parsing never changes it."""
    built: dict[tuple[str, tuple[str, ...]], argparse.ArgumentParser] = {}
    build = cli.build_parser

    def parser() -> argparse.ArgumentParser:
        key = (holodeck_mt.__version__, tuple(FORMATS))
        if key not in built:
            built[key] = build()
        return built[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "build_parser", parser)
        yield


#: What a test that is not marked slow may not do, and the way each is started.
_PROCESS_STARTS = ((subprocess.Popen, "_execute_child"), (os, "fork"), (os, "posix_spawn"))

_CACHES = itertools.count()


@pytest.fixture(autouse=True)
def _each_test_apart(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """What every test starts from, in one fixture (each fixture is a cost per test, and
    the suite has thousands): no process unless marked slow, a result cache of its own, no
    forced colour; after it, the graders it imported are forgotten. A test's own
    ``monkeypatch`` is undone first, then these."""
    patch = pytest.MonkeyPatch()
    base = tmp_path_factory.getbasetemp()
    if request.node.get_closest_marker("slow") is None:
        _start_no_process(patch)
    _own_result_cache(patch, base)
    patch.delenv("FORCE_COLOR", raising=False)  # a shell's would colour every text output
    before = set(sys.modules)
    yield
    patch.undo()
    _forget_imported_graders(before, base)


def _start_no_process(patch: pytest.MonkeyPatch) -> None:
    """A test that starts a process (a child, a fork, a worker pool) is marked slow, so
    that ``make test-fast`` stays in seconds; one that is not fails where it starts it."""

    def refuse(*args: object, **kwargs: object) -> NoReturn:
        pytest.fail("this test starts a process: mark it @pytest.mark.slow", pytrace=False)

    for owner, name in _PROCESS_STARTS:
        if hasattr(owner, name):
            patch.setattr(owner, name, refuse)


def _own_result_cache(patch: pytest.MonkeyPatch, base: Path) -> None:
    """Each test has a cache of its own, never the user's: no test reads what another (or
    an earlier run of the suite) stored. The folder exists once written. The cache's key
    is the session's, in a user cache folder of its own."""
    patch.setenv("HOLODECK_MT_CACHE_DIR", os.path.join(base, "result-caches", str(next(_CACHES))))
    patch.setenv("XDG_CACHE_HOME", os.path.join(base, "user-cache"))


def _forget_imported_graders(before: set[str], base: Path) -> None:
    """Each test imports the graders it names afresh: a grader module imported by one
    test (from a temporary folder or a fixture) does not stay in ``sys.modules``, where
    a second run of the same test in the same process would find it without importing.
    """
    roots = (str(base), str(FIXTURES))
    for name in set(sys.modules) - before:
        origin = getattr(sys.modules[name], "__file__", None) or ""
        if origin.startswith(roots):
            del sys.modules[name]


def fixture_header(path: Path) -> tuple[list[str], list[dict[str, Any]]]:
    """A fixture's ``# options:`` (the command-line options it is validated with) and its
    ``# expect:`` lines (each diagnostic it must produce, as JSON)."""
    options: list[str] = []
    expected: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("# options:"):
            options = line.split(":", 1)[1].split()
        elif line.startswith("# expect:"):
            expected.append(json.loads(line.split(":", 1)[1]))
    return options, expected


@pytest.fixture
def run_json(capsys: pytest.CaptureFixture[str]) -> RunJson:
    """``run_json(*args) -> (exit code, JSON document)`` of ``validate ... --format json``."""

    def run(*args: str) -> tuple[int, dict[str, Any]]:
        code = main(["validate", *args, "--format", "json", "--jobs", "1"])
        out = capsys.readouterr().out
        return code, json.loads(out)

    return run


def unavailable(reason: str) -> NoReturn:
    """A test that cannot run here skips, loudly, with ``reason``; in CI (``CI`` is set),
    where everything it needs is installed, it fails instead."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} CI is set, so this is a failure.")
    pytest.skip(reason)


def need_samples() -> Path:
    """The samples' folder, for a test that reads them: without it the test skips with
    where it looked; with ``HOLODECK_MT_REQUIRE_SAMPLES=1`` it fails instead."""
    if SAMPLES.is_dir():
        return SAMPLES
    reason = f"the real samples are not at {SAMPLES} (set {SAMPLES_VARIABLE} to their folder)."
    if os.environ.get(REQUIRE_SAMPLES_VARIABLE, "").strip() not in ("", "0"):
        pytest.fail(f"{reason} {REQUIRE_SAMPLES_VARIABLE} is set, so this is a failure.")
    pytest.skip(reason)


def sample_files(pattern: str) -> list[Path]:
    """The sample files matching ``pattern`` (recursively), sorted; none without the samples."""
    return sorted(SAMPLES.rglob(pattern)) if SAMPLES.is_dir() else []


#: A text longer than this (a real sample's test-cases file, a generated corpus, a thousand
#: test cases) is walked node by node, or fixed, in the slow suite: the fast one validates
#: each whole (tests/platform/test_real_samples.py) and walks every shorter one.
LONG = 16_384


def slow_if_long(size: int) -> list[pytest.MarkDecorator]:
    """The slow suite's mark for a text of ``size`` characters (or bytes) past :data:`LONG`."""
    return [pytest.mark.slow] if size > LONG else []


@pytest.fixture
def samples() -> Path:
    """The real samples' folder (see :func:`need_samples`)."""
    return need_samples()


def copy_checkout(destination: Path) -> Path:
    """The checkout's files (tracked, or untracked and not ignored) copied under
    ``destination``, with the compiled builder where it was built (it is ignored, being
    built), so that the copy runs as the checkout does; skips outside a git checkout."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if shutil.which("git") is None or listed.returncode != 0:
        pytest.skip("needs a git checkout to copy its files")
    names = [name for name in listed.stdout.decode("utf-8").split("\0") if name]
    read = ROOT / "holodeck_mt" / "read"
    built = [
        str(p.relative_to(ROOT))
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        for p in read.glob(f"_fastbuild{suffix}")
    ]
    for name in [*names, *built]:
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination
