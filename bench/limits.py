"""Run each hostile case as a whole validator process, against its budgets.

    python -m bench.limits [--budget 2.0] [--repeat 3] [--write FILE]

Each case is a file the validator must reject (or accept) without expanding,
walking, compiling, storing or printing more than its limits allow. For each:

- time: the best of ``--repeat`` runs of ``python -m holodeck_mt validate FILE``
  (the interpreter's start included), against ``--budget`` seconds for the
  cases that must be fast (the limits are enforced while the file streams in);
- peak memory: the process's maximum resident set (``wait4``), against 300 MB
  plus 20 times the file's size;
- output: the largest report over every ``--format``, against 4 MB.

``explain`` is run the same way on files whose plan multiplies (many metrics over
many turns), in its two formats; the language server (``holodeck-mt lsp``) is driven
over stdio: a hostile frame or two, a large document opened, one request that waits for
its validation, then shutdown. Its output is everything it wrote to stdout.

Exit 1 if any case is over a budget that applies to it. Not a test: figures
belong here, not in the suite.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from holodeck_mt import render
from holodeck_mt.limits import MAX_FILE_BYTES
from scripts.repo import ROOT, write_atomically
from tests.hostile import cases as hostile


def _over_size(path: Path) -> None:
    """One byte over the default limit: rejected from its size, before it is read."""
    with path.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)


def _write(data: Callable[[], bytes]) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_bytes(data())

    return write


def _bad_tags(path: Path) -> None:
    """10,000 list items with an unknown tag each: one diagnostic per item, linear."""
    path.write_text("".join("- !foo x\n" for _ in range(10_000)))


def _long_keys(path: Path) -> None:
    path.write_text(
        "test_cases:\n  - input: hi\n"
        + "".join(f"    ? {chr(97 + i) * 100_000}\n    : 1\n" for i in range(10))
    )


def _aliased_name(path: Path) -> None:
    """A 1 MB test-case name aliased into 999 faulty test cases (6 GB of output before)."""
    path.write_text(
        f"test_cases:\n  - name: &n {'N' * 1_000_000}\n    input: 1\n"
        + "  - name: *n\n    input: 1\n" * 998
    )


def _aliased_key(path: Path) -> None:
    """A 1 MB unknown key aliased into 999 test cases (3.9 GB and 90 s before, for 2,000)."""
    path.write_text(
        f"test_cases:\n  - input: hi\n    ? &k {'K' * 1_000_000}\n    : 1\n"
        + "  - input: hi\n    ? *k\n    : 1\n" * 998
    )


def _aliased_name_beside_a_value(path: Path) -> None:
    """The same name beside a ``${PATH}``: every text shown is searched for its value."""
    path.write_text(
        f"test_cases:\n  - name: &n {'N' * 1_000_000}\n    input: ${{PATH}}\n    bogus: 1\n"
        + "  - name: *n\n    input: 1\n" * 998
    )


def _ones(size: int) -> Callable[[Path], None]:
    """``size`` bytes of ``- 1`` lines: one faulty test case per line."""

    def write(path: Path) -> None:
        path.write_text("- 1\n" * (size // 4))

    return write


def _aliased_value(path: Path) -> None:
    """A 100 KB value aliased into 1,000 wrong expected tools (2 GB before)."""
    path.write_text(
        "test_cases:\n  - input: hi\n    expected_tools:\n"
        f"      - &v {{name: 1, args: {'v' * 100_000}}}\n" + "      - *v\n" * 999
    )


def _control_names(path: Path) -> None:
    """1,000 test cases named with ESC sequences and a forged workflow command."""
    name = '"\\e[2J\\e[32mAll valid\\n::error file=README.md::forged\\u202e"'
    path.write_text(
        "test_cases:\n" + "".join(f"  - name: {name}\n    input: {i}\n" for i in range(1000))
    )


def _many_turns(path: Path) -> None:
    """Two agent-level metrics over 1,000 test cases of 6 turns (explain's plan multiplies)."""
    turns = "".join(f"      - {{input: q{t}, ground_truth: a}}\n" for t in range(6))
    path.write_text(
        "name: many\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: Answer.}\n"
        "evaluations:\n  metrics:\n"
        "    - {type: standard, metric: equality}\n    - {type: standard, metric: numeric}\n"
        "test_cases:\n" + "".join(f"  - name: c{i}\n    turns:\n{turns}" for i in range(1000))
    )


@dataclass(frozen=True)
class Case:
    name: str
    write: Callable[[Path], None]
    #: The command's exit code.
    exit: int
    #: Held to the time budget (the others show how cost scales).
    timed: bool
    #: The command: ``validate``, ``explain`` or ``lsp``.
    command: str = "validate"


#: Every case is held to the memory and output budgets.
CASES: list[Case] = [
    Case(
        f"alias bomb ({len(hostile.alias_bomb())} bytes, 10**9 nodes expanded)",
        _write(hostile.alias_bomb),
        1,
        True,
    ),
    Case("nesting 10,000 deep", _write(hostile.deep_flow), 1, True),
    Case(f"file over the size limit ({MAX_FILE_BYTES + 1:,} bytes)", _over_size, 1, True),
    Case("regex of 100,000 characters", _write(hostile.long_regex), 0, True),
    Case("10 unknown keys of 100,000 characters", _long_keys, 1, True),
    Case("10,000 unknown tags (one diagnostic each)", _bad_tags, 1, False),
    Case("1 MB name aliased into 999 faulty test cases", _aliased_name, 1, False),
    Case("100 KB value aliased into 1,000 expected tools", _aliased_value, 1, False),
    Case("1 MB unknown key aliased into 999 test cases", _aliased_key, 1, False),
    Case("1 MB name aliased, beside a ${PATH}", _aliased_name_beside_a_value, 1, False),
    Case("1 MiB of '- 1' lines (262,144 faulty test cases)", _ones(2**20), 1, False),
    Case("6 MiB of '- 1' lines (1.5 million faulty test cases)", _ones(6 * 2**20), 1, False),
    Case("1,000 names holding ESC and '::error'", _control_names, 1, False),
    Case("explain: 2 metrics x 6,000 turns", _many_turns, 0, False, "explain"),
    Case("lsp: bad frames, then 6 MiB of '- 1' lines opened", _ones(6 * 2**20), 0, False, "lsp"),
    Case("lsp: bad frames, then an alias bomb opened", _write(hostile.alias_bomb), 0, True, "lsp"),
]

MEMORY_BASE, MEMORY_PER_BYTE = 300 * 10**6, 20
OUTPUT_BUDGET = 4 * 10**6
FORMATS = render.FORMATS


def _run(path: Path, fmt: str, name: str = "validate") -> tuple[float, int, int, int, bool]:
    """(seconds, peak bytes, output bytes, exit code, traceback seen) of one process."""
    if name == "lsp":
        return _serve(path)
    command = [sys.executable, "-m", "holodeck_mt", name, str(path)]
    command += ["--jobs", "1"] if name == "validate" else []
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen([*command, "--format", fmt], stdout=out, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        size = out.seek(0, os.SEEK_END)
        err.seek(0)
        traceback = b"Traceback" in err.read()
    return seconds, usage.ru_maxrss * 1024, size, process.returncode, traceback


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


#: What a hostile client sends before its document: frames the server must drop.
_BAD_FRAMES = b"Content-Length: 99999999999999999999\r\n\r\n{}Content-Length: -1\r\n\r\n"


def _serve(path: Path) -> tuple[float, int, int, int, bool]:
    """The language server opening ``path``'s text (as an agent.yaml in its folder)."""
    uri = (path.parent / "agent.yaml").as_uri()
    text = path.read_text(encoding="utf-8")
    command = [sys.executable, "-m", "holodeck_mt", "lsp"]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out, stderr=err)
        assert process.stdin is not None
        root = path.parent.as_uri()
        document = {"uri": uri, "languageId": "yaml", "version": 1, "text": text}
        process.stdin.write(
            _frame(
                {"id": 1, "method": "initialize", "params": {"rootUri": root, "capabilities": {}}}
            )
            + _frame({"method": "initialized", "params": {}})
            + _BAD_FRAMES
            + _frame({"method": "textDocument/didOpen", "params": {"textDocument": document}})
            + _frame(
                {
                    "id": 2,
                    "method": "textDocument/codeAction",
                    "params": {
                        "textDocument": {"uri": uri},
                        "range": {
                            "start": {"line": 0, "character": 0},
                            "end": {"line": 0, "character": 0},
                        },
                        "context": {"diagnostics": []},
                    },
                }
            )
        )
        process.stdin.flush()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not _answered(out, 2):
            time.sleep(0.05)
        process.stdin.write(_frame({"id": 3, "method": "shutdown"}) + _frame({"method": "exit"}))
        process.stdin.close()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        size = out.seek(0, os.SEEK_END)
        err.seek(0)
        traceback = b"Traceback" in err.read()
    code = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss * 1024, size, code, traceback


def _answered(out: IO[bytes], request_id: int) -> bool:
    """Whether the server's output so far holds the response to ``request_id``."""
    data = os.pread(out.fileno(), os.fstat(out.fileno()).st_size, 0)
    return re.search(rb'"id":\s*%d\b' % request_id, data) is not None


@dataclass
class Figures:
    seconds: float
    peak: int
    output: int
    exit: int
    traceback: bool


def measure(case: Case, path: Path, repeat: int) -> Figures:
    runs = [_run(path, "text", case.command) for _ in range(repeat)]
    formats = {"validate": FORMATS[1:], "explain": ("json",), "lsp": ()}[case.command]
    runs += [_run(path, fmt, case.command) for fmt in formats]
    return Figures(
        seconds=min(r[0] for r in runs[:repeat]),
        peak=max(r[1] for r in runs),
        output=max(r[2] for r in runs),
        exit=runs[0][3] if all(r[3] == runs[0][3] for r in runs) else -1,
        traceback=any(r[4] for r in runs),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per timed case")
    parser.add_argument("--repeat", type=int, default=3, help="text runs per case (best kept)")
    parser.add_argument("--write", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    failed = 0
    lines = [
        "| case | size | time | peak memory (budget) | largest output | exit | verdict |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    print(lines[0])
    print(lines[1])
    with tempfile.TemporaryDirectory() as folder:
        for i, case in enumerate(CASES):
            path = Path(folder) / f"case-{i}.yaml"
            case.write(path)
            size = path.stat().st_size
            figures = measure(case, path, args.repeat)
            budget = MEMORY_BASE + MEMORY_PER_BYTE * min(size, MAX_FILE_BYTES)
            problems = []
            if figures.peak > budget:
                problems.append("memory")
            if figures.output > OUTPUT_BUDGET:
                problems.append("output")
            if figures.exit != case.exit or figures.traceback:
                problems.append(f"exit {figures.exit}, expected {case.exit}")
            if case.timed and figures.seconds > args.budget:
                problems.append("time")
            failed += bool(problems)
            verdict = "PASS" if not problems else "FAIL (" + ", ".join(problems) + ")"
            line = (
                f"| {case.name} | {size:,} B | {figures.seconds:.2f} s"
                f"{'' if case.timed else ' (untimed)'} | {figures.peak / 1e6:,.0f} MB "
                f"({budget / 1e6:,.0f} MB) | {figures.output:,} B | {figures.exit} | {verdict} |"
            )
            lines.append(line)
            print(line, flush=True)
            path.unlink()
    summary = f"{len(CASES) - failed} of {len(CASES)} cases within every budget"
    print(summary)
    if args.write:
        write_atomically(args.write, "\n".join([*lines, "", summary]) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
