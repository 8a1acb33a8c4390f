"""``python -m holodeck_mt``: parse arguments, validate, render, choose the exit code.

Exit codes: 0 every file valid (warnings allowed unless ``--strict``); 1 at least
one error in a file; 2 a usage error or a path that cannot be read.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from holodeck_mt.checks import Options
from holodeck_mt.limits import MAX_ALIAS_NODES, MAX_DEPTH, MAX_FILE_BYTES, Limits

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def _formats() -> list[str]:
    from holodeck_mt.render import FORMATS

    return list(FORMATS)


def _size(text: str) -> int:
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    text = text.strip().lower().removesuffix("b")
    factor = units.get(text[-1:], 1)
    number = text[:-1] if text[-1:] in units else text
    try:
        value = int(float(number) * factor)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 64M)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="holodeck-mt",
        description="Validate HoloDeck test cases (agent.yaml and test-cases files).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    validate = commands.add_parser(
        "validate",
        help="validate agent.yaml and test-cases files",
        description="Validate agent.yaml files and the test-cases files they name. "
        "Exit 0: valid; 1: errors found; 2: usage error or unreadable path.",
    )
    validate.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="a file (agent.yaml or test-cases file) or a folder searched for agent.yaml "
        "files and YAML files holding test cases (default: ./agent.yaml)",
    )
    validate.add_argument(
        "--by-content",
        action="store_true",
        help="validate a named file only if it is an agent.yaml or holds test cases, as a "
        "folder search does; skip other YAML files silently (the pre-commit hook)",
    )
    validate.add_argument(
        "--format", default="text", choices=_formats(), help="output format (default: text)"
    )
    validate.add_argument(
        "--strict",
        action="store_true",
        help="warnings fail the run too: the exit code and every format's verdict",
    )
    validate.add_argument(
        "--import-graders",
        action="store_true",
        help="import each code grader and report missing modules or callables "
        "(runs the graders' module code)",
    )
    validate.add_argument(
        "--check-files",
        action="store_true",
        help="check that each files[*].path exists relative to the agent.yaml",
    )
    validate.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        default=os.cpu_count() or 1,
        help="files validated in parallel (default: all cores)",
    )
    validate.add_argument(
        "--max-file-size",
        type=_size,
        default=MAX_FILE_BYTES,
        metavar="SIZE",
        help=f"reject larger files before parsing (default: {MAX_FILE_BYTES // 1024**2}M)",
    )
    validate.add_argument(
        "--max-depth",
        type=_positive,
        default=MAX_DEPTH,
        metavar="N",
        help=f"reject deeper nesting of mappings and lists (default: {MAX_DEPTH})",
    )
    validate.add_argument(
        "--max-alias-nodes",
        type=_positive,
        default=MAX_ALIAS_NODES,
        metavar="N",
        help="reject files whose aliases expand to more nodes, e.g. alias bombs "
        f"(default: {MAX_ALIAS_NODES})",
    )
    fix = commands.add_parser(
        "fix",
        help="apply the fixes of diagnostics that have an evident fix",
        description="Apply the safe fixes to agent.yaml and test-cases files, changing only "
        "the fixed characters. Exit 0: nothing left to report; 1: errors remain (with --diff: "
        "a file would change); 2: usage error or unreadable path.",
    )
    fix.add_argument(
        "paths", nargs="*", metavar="PATH", help="as for validate (default: ./agent.yaml)"
    )
    fix.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also apply the fixes that change what a test asserts (renames, `count`)",
    )
    fix.add_argument("--diff", action="store_true", help="print a unified diff and change no file")
    fix.add_argument(
        "--max-file-size",
        type=_size,
        default=MAX_FILE_BYTES,
        metavar="SIZE",
        help=f"skip larger files (default: {MAX_FILE_BYTES // 1024**2}M)",
    )
    commands.add_parser(
        "lsp",
        help="run the language server on stdio (needs the [lsp] extra)",
        description="A language server over stdio that publishes the validator's diagnostics "
        "and offers its fixes as quick fixes; it runs beside the YAML language server.",
    )
    explain = commands.add_parser(
        "explain",
        help="say what the platform will run for each test case and turn",
        description="For each test case and turn: the metrics that will run, the level they "
        "come from and the settings that really apply, the metrics skipped for want of a "
        "ground truth, the tool assertions spelled out, the files sent. "
        "Exit 0: explained; 1: the file has errors (the validator's diagnostics); 2: usage.",
    )
    explain.add_argument("path", metavar="PATH", help="an agent.yaml or a test-cases file")
    explain.add_argument(
        "--test-case", metavar="NAME", help="explain only the test case of this name"
    )
    explain.add_argument(
        "--format", default="text", choices=["text", "json"], help="output format (default: text)"
    )
    editor = commands.add_parser(
        "init-editor",
        help="bind the schema to this repository's HoloDeck files in .vscode/settings.json",
        description="Write or merge .vscode/settings.json so that the YAML language server "
        "(VS Code's YAML extension and others) checks and completes every agent.yaml, the "
        "test-cases files they name and every other YAML file holding test cases; and set "
        '"yaml.yamlVersion": "1.1", the YAML the platform reads. Run it again after adding '
        "files; it changes nothing otherwise.",
    )
    editor.add_argument("folder", nargs="?", default=".", help="the repository's root (default: .)")
    editor.add_argument(
        "--modeline",
        action="store_true",
        help="put a `# yaml-language-server: $schema=...` line at the top of each file instead",
    )
    editor.add_argument(
        "--schema",
        metavar="URL_OR_PATH",
        help="the schema to bind (default: a copy of the bundle in .vscode/)",
    )
    schema = commands.add_parser("schema", help="print the bundled single-file JSON Schema")
    schema.add_argument(
        "--path", action="store_true", help="print where the installed schema file is instead"
    )
    return parser


@dataclass(frozen=True)
class _Job:
    path: str
    options: Options
    limits: Limits


def _run(job: _Job) -> tuple[list[object], str | None]:
    from holodeck_mt.validate import validate_file

    try:
        return list(validate_file(job.path, options=job.options, limits=job.limits)), None
    except OSError as e:
        return [], f"cannot read '{job.path}': {e.strerror or e}"
    except Exception as e:  # a bug of ours, never the file's fault: exit 2, no traceback
        if os.environ.get("HOLODECK_MT_DEBUG"):
            raise
        first = str(e).splitlines()[0][:200] if str(e) else ""
        return [], (
            f"internal error while validating '{job.path}': {type(e).__name__}"
            + (f": {first}" if first else "")
            + " (a bug in holodeck-mt; HOLODECK_MT_DEBUG=1 shows the traceback)"
        )


def _in_parallel(jobs: list[_Job], workers: int) -> list[tuple[list[object], str | None]]:
    """Validate on ``workers`` processes; results in the order of ``jobs``."""
    import gc
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from holodeck_mt import fast_path
    from holodeck_mt.checks import all_checks

    # Forked workers inherit the imported modules (checks included) and the
    # compiled validators built here, instead of each paying for them; frozen,
    # the parent's objects are not walked, nor copied, by a worker's collector.
    fast_path.warm()
    all_checks(jobs[0].options)
    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            return list(pool.map(_run, jobs, chunksize=max(1, len(jobs) // (4 * workers))))
    except BrokenProcessPool:  # a worker was killed (out of memory?): one line, exit 2
        return [([], "internal error: a worker process died; retry with --jobs 1")]
    finally:
        gc.unfreeze()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "schema":
        return _schema(args.path)
    if args.command == "lsp":
        return _lsp()
    if args.command == "fix":
        from holodeck_mt import fix_command

        limits = Limits(max_bytes=args.max_file_size)
        return fix_command.main(args.paths, unsafe=args.unsafe_fixes, diff=args.diff, limits=limits)
    if args.command == "init-editor":
        return _init_editor(Path(args.folder), args.modeline, args.schema)
    if args.command == "explain":
        from holodeck_mt.explain import run

        return run(args.path, args.test_case, args.format, Limits(), sys.stdout)
    from holodeck_mt.render import renderer
    from holodeck_mt.validate import FileResult

    options = Options(import_graders=args.import_graders, check_files=args.check_files)
    limits = Limits(
        max_bytes=args.max_file_size, max_depth=args.max_depth, max_alias_nodes=args.max_alias_nodes
    )
    from holodeck_mt import discovery

    found = discovery.find(args.paths, named_by_content=args.by_content)
    problems = found.problems
    # A file an agent.yaml of this run names is validated through it (as the
    # platform reads it); on its own only if that did not happen.
    followed = {
        discovery.same_file_key(target)
        for target in map(discovery.agent_target, map(Path, found.files))
        if target is not None
    }
    later = [f for f in found.files if discovery.same_file_key(f) in followed]
    jobs = [_Job(f, options, limits) for f in found.files if f not in later]
    results: list[FileResult] = []
    seen: set[str] = set()
    for batch in (jobs, [_Job(f, options, limits) for f in later]):
        batch = [job for job in batch if discovery.same_file_key(job.path) not in seen]
        outcomes: list[tuple[list[object], str | None]]
        if args.jobs > 1 and len(batch) > 1 and not args.import_graders:
            outcomes = _in_parallel(batch, min(args.jobs, len(batch)))
        else:
            outcomes = [_run(job) for job in batch]
        for done, problem in outcomes:
            for result in done:
                key = discovery.same_file_key(getattr(result, "path", ""))
                if isinstance(result, FileResult) and key not in seen:  # once per run
                    seen.add(key)
                    results.append(result)
            if problem:
                problems.append(problem)
    for result in results:  # a warning fails its file in every format's verdict
        result.strict = args.strict
    for problem in problems:
        print(f"holodeck-mt: error: {problem}", file=sys.stderr)
    try:
        renderer(args.format)(results, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): not our failure
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if problems:
        return EXIT_USAGE
    failing = any(not r.valid for r in results)
    return EXIT_INVALID if failing else EXIT_OK


def _lsp() -> int:
    try:
        from holodeck_mt.lsp import server
    except ImportError as e:
        missing = e.name or "pygls"
        print(
            f"holodeck-mt: error: the language server needs {missing}: "
            "pip install 'holodeck-mt[lsp]'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    server.serve()
    return EXIT_OK


def _init_editor(folder: Path, modeline: bool, schema: str | None) -> int:
    from holodeck_mt.editor_setup import SetupError, init_editor

    try:
        outcome = init_editor(folder, modeline=modeline, schema=schema)
    except (SetupError, OSError, UnicodeError) as e:
        print(f"holodeck-mt: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    how = "a modeline in each file" if modeline else ".vscode/settings.json"
    print(f"The schema is bound to {len(outcome.files)} file(s) by {how}:")
    for name in outcome.files:
        print(f"  {name}")
    if outcome.written:
        print("Written: " + ", ".join(outcome.written))
    else:
        print("Nothing to change.")
    return EXIT_OK


def _schema(path_only: bool) -> int:
    from holodeck_mt.schemas import bundle_path

    bundle = bundle_path()
    if path_only:
        print(bundle)
    else:
        sys.stdout.write(bundle.read_text(encoding="utf-8"))
    return EXIT_OK
