"""``python -m holodeck_mt``: parse the arguments, run the command, choose the exit code (each
command's description says which)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from holodeck_mt.limits import MAX_ALIAS_NODES, MAX_DEPTH, MAX_DIAGNOSTICS, MAX_FILE_BYTES, Limits
from holodeck_mt.model import EXIT_INVALID, EXIT_OK, EXIT_USAGE, clip, usage_error
from holodeck_mt.project.config import PLATFORM_CHOICES
from holodeck_mt.selection import Options
from holodeck_mt.text.safe_text import display_path, escape, guard_lines, say
from holodeck_mt.urls import BUNDLE_URL

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

    from holodeck_mt.model import FileResult
    from holodeck_mt.project import discovery
    from holodeck_mt.render import Renderer

#: The shell's codes for a run ended by Ctrl-C and by SIGTERM (128 + the signal).
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143


class _Terminated(BaseException):
    """SIGTERM during ``validate``: the run unwinds as on Ctrl-C, its processes ended first."""


_SIZE = re.compile(r"(\d{1,15}(?:\.\d{1,6})?)([kmgt]?)b?")
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
#: The largest --max-file-size: beyond it a limit protects nothing (and reads overflow).
MAX_SIZE_OPTION = 1024**4
#: The largest count an option takes; the deepest --max-depth (the recursive walkers run
#: out of stack beyond); the most worker processes --jobs starts.
MAX_COUNT_OPTION, MAX_DEPTH_OPTION, MAX_JOBS = 10**9, 500, 256
#: Whether workers are forked, inheriting what their parent imported (Linux only).
_FORK = sys.platform == "linux"
#: Linux's ``prctl`` option: the signal a process gets when its parent dies; the seconds a
#: worker told to stop is given to end.
_PR_SET_PDEATHSIG, _GRACE = 1, 5.0


def _size(text: str) -> int:
    """``512k``, ``64M``, ``1g``, ``1.5m``: a whole number of bytes, 1 byte to 1 TiB."""
    match = _SIZE.fullmatch(text.strip().lower())
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size: '{clip(text, 40)}' (try 64M)")
    number, unit = match.groups()
    value = int(float(number) * _UNITS[unit])
    if not 1 <= value <= MAX_SIZE_OPTION:
        raise argparse.ArgumentTypeError("must be between 1 byte and 1T")
    return value


def _count(minimum: int, maximum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not re.fullmatch(r"\s*\+?\d{1,12}\s*", text):
            raise argparse.ArgumentTypeError(f"not a whole number: '{clip(text, 40)}'")
        value = int(text)
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"must be between {minimum} and {maximum:,}")
        return value

    return parse


_positive = _count(1, MAX_COUNT_OPTION)


def _report_spec(text: str) -> tuple[str, Path]:
    """``sarif:out.sarif``: a format and the file its report goes to."""
    from holodeck_mt.render import FORMATS

    name, _, path = text.partition(":")
    if name not in FORMATS or not path:
        raise argparse.ArgumentTypeError(
            f"not FORMAT:PATH ({'|'.join(FORMATS)}): '{clip(text, 40)}'"
        )
    return name, Path(path)


class _Parser(argparse.ArgumentParser):
    """argparse, with the arguments it quotes in errors escaped (they reach a CI log)."""

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse asks shutil for the width (importing it, and with it bz2 and lzma, on every
        # start, help or not): the same width, COLUMNS first, less 2, found without it.
        columns = int(os.environ["COLUMNS"]) if os.environ.get("COLUMNS", "").isdigit() else 0
        if columns <= 0:
            with contextlib.suppress(AttributeError, ValueError, OSError):
                columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        return self.formatter_class(prog=self.prog, width=(columns or 80) - 2)  # type: ignore[call-arg]

    def error(self, message: str) -> NoReturn:
        for line in self.format_usage().rstrip().splitlines():  # our own text, line by line
            say(line)
        say(f"{self.prog}: error: {message}")
        raise SystemExit(EXIT_USAGE)

    # An argument a command does not know: its usage error, not the top level's (argparse's).
    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        parsed, extras = super().parse_known_args(*args, **kwargs)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


#: Each option's names (``--output-file -o``) and help; its argparse keywords in
#: :data:`_KEYWORDS`, else a flag (on or off).
_SELECTION = {
    "--select": "report only these codes, comma-separated; a prefix selects a range (HMT2: "
    "every HMT2xx); replaces the configuration file's `select` (default: every code)",
    "--extend-select": "report these codes or prefixes too (adds to `select` or --select)",
    "--ignore": "do not report these codes or prefixes; adds to the configuration's `ignore`",
    "--extend-ignore": "as --ignore (ruff's name for it)",
    "--config": "read the settings from this file, not the one found from each file upward",
    "--isolated": "read no configuration file",
    "--report-unused-ignores": "report each ignore comment that silences nothing (HMT221)",
}
_MAX_FILE_SIZE = {
    "--max-file-size": f"reject larger files before parsing (default: {MAX_FILE_BYTES // 1024**2}M)"
}
_FORMAT = {"--format": "output format (default: text)"}
_VALIDATE = {
    "paths": "an agent.yaml, a test-cases file or a folder to search (default: ./agent.yaml)",
    "--by-content": "skip a named file silently if a folder search would (the pre-commit hook)",
    **_FORMAT,
    "--strict": "warnings fail the run too: the exit code and every format's verdict",
    "--exit-zero": "exit 0 even when a file has errors (a usage error still exits 2)",
    "-q --quiet": "print the diagnostics only, no summary line; twice (-qq), as --silent",
    "--silent": "print no report on standard output (-o still writes it, as -q does)",
    "--color": "colour text: auto (a terminal's, unless NO_COLOR; FORCE_COLOR), always, never",
    "--import-graders": "import each code grader, report missing ones (runs the graders' code)",
    "--check-files": "check that each files[*].path exists relative to the agent.yaml",
    "--no-cache": "neither reuse nor store results in the cache (HOLODECK_MT_CACHE_DIR)",
    **_SELECTION,
    "--stdin-filename": "with the path `-`: the file standard input's text stands for",
    "--output-file -o": "write the report to this file (replaced whole), not standard output",
    "--report": "also write the report in FORMAT to PATH (sarif:out.sarif); repeatable",
    "--statistics": "print how many diagnostics of each code there are, not the diagnostics",
    "--show-files": "print the files a run would validate and those it skips; validate none",
    "--platform": "judge the agent.yaml's own sections with the platform's models: if they "
    "import (auto, the default), never (off), or exit 2 if they do not (required)",
    "-j --jobs": f"files validated in parallel, at most {MAX_JOBS} (default: all cores)",
    **_MAX_FILE_SIZE,
    "--max-depth": f"reject deeper nesting, at most {MAX_DEPTH_OPTION} (default: {MAX_DEPTH})",
    "--max-alias-nodes": f"reject aliases expanding to more nodes (default: {MAX_ALIAS_NODES})",
    "--max-diagnostics": f"diagnostics shown per file, 0 for all (default: {MAX_DIAGNOSTICS})",
    "--allow-outside-paths": "let test_cases_file and files[*].path leave the repository",
}
_FIX = {
    "paths": "as for validate (default: ./agent.yaml)",
    "--unsafe-fixes": "also apply the fixes that change what a test asserts",
    "--diff": "print a unified diff and change no file",
    **_SELECTION,
    **_MAX_FILE_SIZE,
}
_EXPLAIN = {
    "path": "an agent.yaml or a test-cases file",
    "--test-case": "explain only the test case of this name",
    **_FORMAT,
}
_INIT_EDITOR = {
    "folder": "the repository's root (default: .)",
    "--modeline": "bind each file by a `# yaml-language-server: $schema=...` line instead",
    "--schema": "the schema to bind (default: a copy of the bundle in .vscode/; the released "
    f"one is {BUNDLE_URL})",
}
_RULE = {
    "code": "a code (HMT102) or its name",
    "--all": "print every code's documentation",
    "--list": "print every code, its name and its severity, one line each",
}
_CODES = {"action": "append", "default": [], "metavar": "CODES"}
_KEYWORDS: dict[str, dict[str, Any]] = {
    "paths": {"nargs": "*", "metavar": "PATH"},
    "path": {"metavar": "PATH"},
    "folder": {"nargs": "?", "default": "."},
    "code": {"nargs": "?", "metavar": "CODE"},
    "--format": {"default": "text", "choices": ["text", "json"]},
    "--select": _CODES,
    "--extend-select": _CODES,
    "--ignore": _CODES,
    "--extend-ignore": _CODES,
    "-q --quiet": {"action": "count", "default": 0},
    "--silent": {"action": "store_const", "const": 2, "dest": "quiet"},
    "--color": {"choices": ("auto", "always", "never"), "default": "auto"},
    "--config": {"type": Path, "metavar": "PATH"},
    "--stdin-filename": {"metavar": "PATH"},
    "--output-file -o": {"type": Path, "metavar": "FILE"},
    "--report": {"type": _report_spec, "action": "append", "default": [], "metavar": "FORMAT:PATH"},
    "--platform": {"choices": PLATFORM_CHOICES, "default": None},
    "-j --jobs": {"type": _count(1, MAX_JOBS), "default": os.cpu_count() or 1},
    "--max-file-size": {"type": _size, "default": MAX_FILE_BYTES, "metavar": "SIZE"},
    "--max-depth": {"type": _count(1, MAX_DEPTH_OPTION), "default": MAX_DEPTH, "metavar": "N"},
    "--max-alias-nodes": {"type": _positive, "default": MAX_ALIAS_NODES, "metavar": "N"},
    "--max-diagnostics": {
        "type": _count(0, MAX_COUNT_OPTION),
        "default": MAX_DIAGNOSTICS,
        "metavar": "N",
    },
    "--test-case": {"metavar": "NAME"},
    "--schema": {"metavar": "URL_OR_PATH"},
}
#: Each command's help, description and options.
_COMMAND_TABLE: dict[str, tuple[str, str | None, dict[str, str]]] = {
    "validate": (
        "validate agent.yaml and test-cases files",
        "Validate agent.yaml files and the test-cases files they name. "
        "Exit 0: valid; 1: errors found; 2: usage error or unreadable path.",
        _VALIDATE,
    ),
    "fix": (
        "apply the fixes of diagnostics that have an evident fix",
        "Apply the safe fixes, changing only the fixed characters. Exit 0: nothing left to "
        "report; 1: errors remain (--diff: a file would change); 2: usage or unreadable path.",
        _FIX,
    ),
    "lsp": (
        "run the language server on stdio (needs the [lsp] extra)",
        "A language server over stdio that publishes the validator's diagnostics "
        "and offers its fixes as quick fixes; it runs beside the YAML language server.",
        {},
    ),
    "explain": (
        "say what the platform will run for each test case and turn",
        "For each test case and turn: the metrics that run, with their settings, the tool "
        "assertions, the files sent. Exit 0: explained; 1: the file has errors; 2: usage.",
        _EXPLAIN,
    ),
    "init-editor": (
        "bind the schema to this repository's HoloDeck files in .vscode/settings.json",
        "Write or merge .vscode/settings.json so that the YAML language server checks every "
        'HoloDeck file, as YAML 1.1 ("yaml.yamlVersion"). Run it again after adding files.',
        _INIT_EDITOR,
    ),
    "schema": (
        "print the bundled single-file JSON Schema",
        None,
        {"--path": "print where the installed schema file is instead"},
    ),
    "rule": (
        "print a diagnostic code's documentation, with its example",
        "Print what docs/diagnostics.md says of a code (or a rule name), offline: its "
        "meaning, an example file and what the validator prints for it.",
        _RULE,
    ),
}


def build_parser() -> argparse.ArgumentParser:
    from holodeck_mt import __version__
    from holodeck_mt.render import FORMATS

    parser = _Parser(
        prog="holodeck-mt",
        description="Validate HoloDeck test cases (agent.yaml and test-cases files).",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"holodeck-mt {__version__}",
        help="print the version",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    formats = {"default": "text", "choices": list(FORMATS)}
    for name, (summary, description, options) in _COMMAND_TABLE.items():
        command = commands.add_parser(name, help=summary, description=description)
        # ``rule``: a code or --all, one of the two.
        group = command.add_mutually_exclusive_group(required=True) if name == "rule" else command
        keywords = {**_KEYWORDS, "--format": formats} if name == "validate" else _KEYWORDS
        for names, text in options.items():
            flag = {"action": "store_true"}
            group.add_argument(*names.split(), help=text, **keywords.get(names, flag))
    return parser


@dataclass(frozen=True)
class _Job:
    path: str
    options: Options
    limits: Limits
    #: The options of the test-cases file the document names: its own.
    options_of: Callable[[str], Options] | None = None
    #: The cache's folder and the configuration file the options came from (None: none).
    cache: str | None = None
    config: str | None = None


def _run(job: _Job) -> Outcome:
    """A file's results (from the cache when it holds them) and what went wrong reading it."""
    entry = None
    if job.cache is not None:  # imported only then: hashlib's OpenSSL is megabytes of memory
        from holodeck_mt.app import cache

        entry = cache.Entry(job.path, job.options, job.limits, job.cache, job.config)
        cached = entry.read()
        if cached is not None:
            for i, result in enumerate(cached):  # strict as the settings are today
                of = job.options_of if i else None  # the test-cases file's own, if followed
                result.strict = (of(os.path.abspath(result.path)) if of else job.options).strict
            return list(cached), None
    from holodeck_mt.model import reason_of
    from holodeck_mt.pipeline import validate_file
    from holodeck_mt.project.config import ConfigError
    from holodeck_mt.selection import SelectionError
    from holodeck_mt.text import lines

    try:
        results = validate_file(
            job.path, options=job.options, limits=job.limits, options_of=job.options_of
        )
    except OSError as e:
        return [], f"cannot read '{job.path}': {reason_of(e)}"
    except (ConfigError, SelectionError) as e:  # the test-cases file's own configuration
        return [], str(e)
    except Exception as e:  # a bug of ours, never the file's fault: exit 2, no traceback
        if os.environ.get("HOLODECK_MT_DEBUG"):
            raise
        first = str(e).splitlines()[0][:200] if str(e) else ""
        error = f"{type(e).__name__}" + (f": {first}" if first else "")
        return [], _word_internal(job, error)
    for result in results:
        # Only the quoted lines travel on: a run over many files (or back from a worker
        # process) carries no whole text.
        lines.keep_quoted(result)
    if entry is not None:
        entry.write(results)
    return list(results), None


#: A file's results and the problem met reading it.
Outcome = tuple[list["FileResult"], str | None]


def _word_internal(job: _Job, error: str) -> str:
    return (
        f"internal error while validating '{job.path}': {error}"
        " (a bug in holodeck-mt; HOLODECK_MT_DEBUG=1 shows the traceback)"
    )


def _run_chunk(jobs: list[_Job]) -> list[Outcome]:
    return [_run(job) for job in jobs]


def _prepare(jobs: list[_Job]) -> None:
    """Import what every worker needs before they are forked, so that they share it: the
    platform's models too when an agent.yaml needs them (not under ``--platform off``)."""
    import holodeck_mt.pipeline  # noqa: F401  (each stage a worker runs)
    from holodeck_mt.contract import compiled, platform_models
    from holodeck_mt.project import discovery

    compiled.warm()
    if _FORK and any(
        j.options.platform != "off" and discovery.is_agent_file(Path(j.path)) for j in jobs
    ):
        platform_models.agent_model()


def _run_parallel(jobs: list[_Job], workers: int) -> list[Outcome]:
    """Validate on ``workers`` processes, results in the order of ``jobs``; a dead worker loses
    only its file (docs/architecture.md, *Parallel runs*)."""
    import gc
    import multiprocessing

    from holodeck_mt.rules.registry import rules_to_run

    _prepare(jobs)
    _prctl()
    rules_to_run(jobs[0].options)
    if not _FORK:  # a spawned worker starts as `python -c`: the working folder stays off sys.path
        os.environ["PYTHONSAFEPATH"] = "1"
    context = multiprocessing.get_context("fork" if _FORK else None)
    size = max(1, len(jobs) // (4 * workers))
    chunks = [list(range(i, min(i + size, len(jobs)))) for i in range(0, len(jobs), size)]
    outcomes: list[Outcome | None] = [None] * len(jobs)
    gc.freeze()  # the parent's objects: neither walked nor copied by a worker's collector
    try:
        _pool_run(jobs, chunks, workers, context, outcomes)
        left = [i for i, outcome in enumerate(outcomes) if outcome is None]
        while left:
            _pool_run(jobs, [[i] for i in left], 1, context, outcomes)
            left = [i for i in left if outcomes[i] is None][1:]
    finally:
        gc.unfreeze()
    died = "the worker process died"
    return [o or ([], _word_internal(jobs[i], died)) for i, o in enumerate(outcomes)]


def _pool_run(
    jobs: list[_Job],
    chunks: list[list[int]],
    workers: int,
    context: BaseContext,
    outcomes: list[Outcome | None],
) -> None:
    """Run ``chunks`` (lists of job indices) on a pool; fill what finished into ``outcomes``
    (not what a dead worker lost, nor what its broken pool could no longer be handed)."""
    from concurrent.futures import Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
    )
    try:
        futures: dict[Future[list[Outcome]], list[int]] = {}
        for chunk in chunks:
            try:
                futures[pool.submit(_run_chunk, [jobs[i] for i in chunk])] = chunk
            except BrokenProcessPool:  # a worker died already: the rest is not handed out
                break
        wait(futures)
        for future, chunk in futures.items():
            if future.exception() is None:
                for i, outcome in zip(chunk, future.result(), strict=False):
                    outcomes[i] = outcome
    except BaseException:  # Ctrl-C, SIGTERM: stop the workers now rather than wait for them
        processes = list(getattr(pool, "_processes", {}).values())
        for process in processes:
            process.terminate()
        for process in processes:  # ended before the command is: nothing outlives its prompt
            process.join(_GRACE)
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl`` (Linux), looked up before the workers are forked: they inherit it."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(ImportError, OSError, AttributeError):
            import ctypes

            return ctypes.CDLL(None, use_errno=True).prctl
    return None


def _start_worker(parent: int) -> None:
    """A worker: Ctrl-C is the parent's to handle; ``terminate()`` ends it, and so does the
    parent's death (Linux: at once if it is gone already)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(EXIT_TERMINATED)


def _error(message: object) -> int:
    """A usage error on stderr; its exit code."""
    say(usage_error(message))
    return EXIT_USAGE


class _PipeGuard:
    """Standard output that a reader gone (``| head -1``) quietly ends: later writes go
    nowhere, and the command exits with its usual code, no traceback printed."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._gone = False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._give_up()
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._give_up()

    def _give_up(self) -> None:
        self._gone = True
        _detach_stdout()

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _make_safe() -> None:
    """Whatever the locale or PYTHONIOENCODING says, an unencodable character is escaped; from
    now on, a closed pipe ends standard output quietly (:class:`_PipeGuard`)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    if sys.stdout is not None and not isinstance(sys.stdout, _PipeGuard):
        sys.stdout = _PipeGuard(sys.stdout)


def _write_report(render: Callable[[TextIO], None]) -> None:
    """Render to stdout (a closed one or a reader gone is no failure)."""
    stream = sys.stdout
    try:
        if stream is None:
            raise OSError("no standard output")
        render(stream)
        stream.flush()
    except (OSError, ValueError):
        _detach_stdout()


def _detach_stdout() -> None:
    """Point descriptor 1 at /dev/null: the exit's flush cannot fail and change the code."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    with contextlib.suppress(OSError):
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    try:
        _make_safe()
        args = build_parser().parse_args(argv)
        return _COMMANDS[args.command](args)
    except KeyboardInterrupt:  # Ctrl-C: end quietly, as a shell command does
        return EXIT_INTERRUPTED
    except _Terminated:  # SIGTERM: likewise, once the worker processes are ended
        return EXIT_TERMINATED


@contextlib.contextmanager
def _end_on_sigterm() -> Iterator[None]:
    """SIGTERM meanwhile ends the process with :data:`EXIT_TERMINATED`, no report: at once when
    its workers end with it, else by :class:`_Terminated`, so that its pool ends them first."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    owner = os.getpid()

    def stop(signum: int, frame: object) -> None:
        if os.getpid() != owner:
            os._exit(128 + signum)
        if not _prctl.cache_info().currsize or _prctl() is not None:
            os._exit(EXIT_TERMINATED)  # an exception could land where it is swallowed
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _fix(args: argparse.Namespace) -> int:
    """``fix``: each file's fixes as its configuration and its comments select them."""
    from holodeck_mt.fix import command as fix_command
    from holodeck_mt.project import settings
    from holodeck_mt.project.config import ConfigError
    from holodeck_mt.selection import SelectionError

    limits = Limits(max_bytes=args.max_file_size)
    try:
        jobs = settings.JobSettings(args, Options(report_unused_ignores=args.report_unused_ignores))
    except (ConfigError, SelectionError) as e:
        return _error(e)
    # A file's own configuration that cannot be used is said as a file not read (exit 2).
    return fix_command.main(
        args.paths, unsafe=args.unsafe_fixes, diff=args.diff, limits=limits, options_of=jobs.of
    )


def _explain(args: argparse.Namespace) -> int:
    from holodeck_mt.explain import run

    return run(args.path, args.test_case, args.format, Limits(), sys.stdout)


@_end_on_sigterm()
def _validate(args: argparse.Namespace) -> int:
    misuse = _find_misuse(args)
    if misuse is not None:
        return _error(misuse)
    options = Options(
        import_graders=args.import_graders,
        check_files=args.check_files,
        allow_outside_paths=args.allow_outside_paths,
        platform=args.platform or "auto",
        report_unused_ignores=args.report_unused_ignores,
    )
    limits = Limits(
        max_bytes=args.max_file_size,
        max_depth=args.max_depth,
        max_alias_nodes=args.max_alias_nodes,
        max_diagnostics=args.max_diagnostics,
    )
    return _judge(args, options, limits)


def _judge(args: argparse.Namespace, options: Options, limits: Limits) -> int:
    """Find the files (or standard input), settle their settings, validate them, report."""
    from holodeck_mt.project import discovery, settings
    from holodeck_mt.project.config import ConfigError
    from holodeck_mt.selection import SelectionError

    stdin = args.paths == ["-"]
    if stdin:
        found = discovery.Findings(files=[args.stdin_filename or "-"])
    else:
        found = discovery.find(args.paths, named_by_content=args.by_content)
    try:
        jobs = settings.JobSettings(args, options)
        files = found.files if stdin else jobs.keep(found.files, args.paths, found.passed)
        # A file an agent.yaml of this run names is validated through it, and alone only if
        # that did not happen; the named files' settings read first.
        first, later, targets = discovery.order_followed_last(files)
        for target in targets:
            jobs.of(os.path.abspath(target))
        job_of: Callable[[str], _Job] = lambda f: _Job(f, jobs.of(f), limits, jobs.of)  # noqa: E731
        rounds = [list(map(job_of, first)), list(map(job_of, later))]
    except (ConfigError, SelectionError) as e:
        return _error(e)
    if args.show_files:
        return _show_files(files, found)
    required = any(job.options.platform == "required" for batch in rounds for job in batch)
    if required and _is_platform_missing():
        return EXIT_USAGE
    if stdin:
        results = _from_stdin(rounds[0][0], args.stdin_filename)
    else:
        if not args.no_cache:
            rounds = _with_cache(rounds, lambda f: jobs.settings(f).path)
        results = _validate_all(rounds, args, found.problems)
    for problem in found.problems:
        _error(problem)
    return _report(args, results, bool(found.problems))


def _report(args: argparse.Namespace, results: list[FileResult], problems: bool) -> int:
    """Render the report (to stdout or ``--output-file``) and each ``--report``; the exit code."""
    from holodeck_mt.render import configure, renderer, statistics

    colour = "never" if args.output_file is not None and args.color != "always" else args.color
    chosen = statistics.RENDERERS[args.format] if args.statistics else renderer(args.format)
    render = configure(chosen, colour=colour, quiet=args.quiet > 0)
    if args.output_file is None:
        if args.quiet < 2:  # --silent, -qq
            _write_report(lambda out: render(results, out))
    elif not _write_file(args.output_file, render, results):
        return EXIT_USAGE
    written = [_write_file(path, renderer(name), results) for name, path in args.report]
    if problems or not all(written):
        return EXIT_USAGE
    invalid = any(not r.valid for r in results) and not args.exit_zero
    return EXIT_INVALID if invalid else EXIT_OK


def _write_file(path: Path, render: Renderer, results: list[FileResult]) -> bool:
    """Render into the file ``path``, replaced whole; False (said on stderr) if it cannot be."""
    import io

    from holodeck_mt.model import reason_of
    from holodeck_mt.project import writes  # tempfile and hashlib: only for a file

    buffer = io.StringIO()
    render(results, buffer)
    try:
        writes.create(path, buffer.getvalue().encode("utf-8", "backslashreplace"))
    except OSError as e:
        _error(f"cannot write '{display_path(path)}': {reason_of(e)}")
        return False
    return True


def _find_misuse(args: argparse.Namespace) -> str | None:
    """What is wrong with a combination of options, or None."""
    from holodeck_mt.render import statistics

    if "-" in args.paths and args.paths != ["-"]:
        return "`-` (standard input) must be the only path"
    if args.stdin_filename is not None and args.paths != ["-"]:
        return "--stdin-filename goes with the path `-` (standard input)"
    if args.statistics and args.format not in statistics.RENDERERS:
        return f"--statistics prints {' or '.join(statistics.RENDERERS)}, not {args.format}"
    files = [os.path.abspath(p) for p in [args.output_file, *(p for _, p in args.report)] if p]
    if len(set(files)) < len(files):
        return "two reports (-o, --report) go to the same file"
    if args.report and args.show_files:
        return "--show-files validates nothing: it writes no --report"
    return None


def _from_stdin(job: _Job, name: str | None) -> list[FileResult]:
    """The results of standard input's text, as the file ``name`` (else ``-`` here)."""
    from holodeck_mt.pipeline import validate_document_text, validate_text
    from holodeck_mt.read import files

    stream = getattr(sys.stdin, "buffer", None)
    raw = stream.read(job.limits.max_bytes + 1) if stream is not None else b""
    shown = name if name is not None else "-"
    folder = Path(name).parent if name is not None else Path.cwd()
    text, _ = files.decode(raw, job.limits)
    if text is None:  # too large, or not text: said as a file's content is
        return [validate_text(raw, path=shown, options=job.options, limits=job.limits)]
    return validate_document_text(
        text,
        path=shown,
        base_dir=folder,
        options=job.options,
        limits=job.limits,
        options_of=job.options_of,
    )


def _show_files(files: list[str], found: discovery.Findings) -> int:
    """``--show-files``: what a run would validate, and what it passes over."""
    for problem in found.problems:
        _error(problem)
    lines = [f"validate  {_show_name(file)}" for file in files]
    lines += [f"skip      {_show_name(path)}  ({why})" for path, why in found.passed]
    _write_report(lambda out: out.writelines(line + "\n" for line in lines))
    return EXIT_USAGE if found.problems else EXIT_OK


def _is_platform_missing() -> bool:
    """Whether the platform's models do not import (said once, on stderr)."""
    from holodeck_mt.contract import platform_models, unchecked

    if platform_models.agent_model() is not None:
        return False
    why = platform_models.absence()
    remedy = f"; install them with `{unchecked.INSTALL}`" if why == unchecked.NOT_INSTALLED else ""
    remedy += " (or use --platform auto)"
    _error(f"--platform required, but the platform's models do not import: {why}{remedy}")
    return True


def _with_cache(rounds: list[list[_Job]], config: Callable[[str], Path | None]) -> list[list[_Job]]:
    """The jobs with the cache's folder and their configuration file, when cached."""
    from holodeck_mt.app import cache

    tree = cache.find_holding_tree(job.path for batch in rounds for job in batch)
    if tree is not None:  # a key or entries the checkout could have committed: no cache, said once
        say(f"holodeck-mt: no cache this run: the cache's folder lies in '{display_path(tree)}'")
        return rounds
    if cache.secret() is None:  # read now: forked workers have it
        return rounds

    def add_cache(job: _Job) -> _Job:
        root, found = cache.folder(job.options), config(job.path)
        if root is None:
            return job
        return replace(job, cache=root, config=str(found) if found is not None else None)

    return [[add_cache(job) for job in batch] for batch in rounds]


def _validate_all(
    rounds: list[list[_Job]], args: argparse.Namespace, problems: list[str]
) -> list[FileResult]:
    """Each file's results, each verdict once per run; what was not read goes to ``problems``."""
    from holodeck_mt.project import discovery

    results: list[FileResult] = []
    seen: discovery.VerdictsByFile = {}
    for batch in rounds:
        batch = [job for job in batch if discovery.same_file_key(job.path) not in seen]
        for done, problem in _run_batch(batch, args):
            results += [result for result in done if discovery.is_new_verdict(result, seen)]
            if problem:
                problems.append(problem)
    return results


def _run_batch(batch: list[_Job], args: argparse.Namespace) -> list[Outcome]:
    """On several processes when there are several files (never the graders' imports)."""
    if args.jobs < 2 or len(batch) < 2 or args.import_graders:
        return [_run(job) for job in batch]
    return _run_parallel(batch, min(args.jobs, len(batch)))


def _lsp() -> int:
    try:
        from holodeck_mt.lsp import server
    except ImportError as e:
        return _error(
            f"the language server needs {e.name or 'pygls'}: pip install 'holodeck-mt[lsp]'"
        )
    from holodeck_mt import __version__

    server.serve(__version__)
    return EXIT_OK


def _init_editor(folder: Path, modeline: bool, schema: str | None) -> int:
    from holodeck_mt.app.editor_setup import SetupError, init_editor
    from holodeck_mt.project.writes import WriteError

    try:
        outcome = init_editor(folder, modeline=modeline, schema=schema)
    except (SetupError, WriteError, OSError, UnicodeError) as e:
        return _error(e)
    means = "a modeline in each file" if modeline else ".vscode/settings.json"
    bound = [name for name in outcome.files if name not in outcome.unbound]
    print(f"The schema is bound to {len(bound)} file(s) by {means}:")
    for name in bound:
        print(f"  {_show_name(name)}")
    if outcome.unbound:
        print(f"Not bound by name ({len(outcome.unbound)}: a glob would read the name as a")
        print("pattern and bind other files; `init-editor --modeline` binds them):")
        for name in outcome.unbound:
            print(f"  {_show_name(name)}")
    written = ", ".join(map(_show_name, outcome.written))
    print(f"Written: {written}" if written else "Nothing to change.")
    return EXIT_OK


def _show_name(name: str) -> str:
    """A file name as a line of text output shows it: escaped, never a workflow command."""
    return guard_lines(escape(display_path(name)))


def _schema(path_only: bool) -> int:
    from holodeck_mt.contract.registry import bundle_path

    bundle = bundle_path()
    sys.stdout.write(f"{bundle}\n" if path_only else bundle.read_text(encoding="utf-8"))
    return EXIT_OK


def _rule(args: argparse.Namespace) -> int:
    from holodeck_mt.app import rule_docs

    try:
        code = None if args.all else args.code or ""
        text = rule_docs.listing() if args.list else rule_docs.text(code)
    except rule_docs.UnknownCode as e:
        return _error(
            f"no code or rule named '{clip(str(e), 80)}'; `holodeck-mt rule --list` lists every one"
        )
    except OSError as e:
        return _error(f"the codes' documentation cannot be read: {e}")
    sys.stdout.write(guard_lines(escape(text, keep_newlines=True)))
    return EXIT_OK


#: The commands, by name.
_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "validate": _validate,
    "schema": lambda args: _schema(args.path),
    "rule": _rule,
    "lsp": lambda args: _lsp(),
    "fix": _fix,
    "init-editor": lambda args: _init_editor(Path(args.folder), args.modeline, args.schema),
    "explain": _explain,
}
