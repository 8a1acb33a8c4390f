"""Fuzz the loader and the validator with arbitrary bytes for a given time.

    python -m bench.fuzz --seconds 1800

Each input is decoded, loaded, validated (as an agent.yaml and as a test-cases
file) and rendered in every output format, exactly as the CLI would; then, as the
language server does, read as its stdin (frames) and validated and published as an
open document (``holodeck_mt.lsp.checking.diagnose``, ``server.to_lsp``). An input
that makes any of it raise, or that takes longer than ``--slow`` seconds, is
saved under ``tests/hostile/regressions/`` (``crash-<sha1>``, ``slow-<sha1>``),
where ``tests/hostile/test_regressions.py`` replays it on every test run.

The engine is atheris (libFuzzer, coverage-guided) when it is installed; the
fallback is a mutational fuzzer seeded from the same corpus, with YAML-aware
mutations. Either way the work runs in worker processes that a supervisor
restarts, so that an input which kills the interpreter or hangs is saved by
libFuzzer (``-artifact_prefix``) and the run goes on. The figures (executions,
inputs saved) are printed at the end and written to ``build/fuzz/stats.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from scripts.repo import ROOT
from tests.support.samples import samples_folder

REGRESSIONS = ROOT / "tests" / "hostile" / "regressions"
WORK = ROOT / "build" / "fuzz"
CORPUS = WORK / "corpus"
STATS = WORK / "stats.json"
SAMPLES = samples_folder()
MAX_LEN = 16384

#: Tokens the mutators splice in, and the libFuzzer dictionary.
TOKENS = [
    b"test_cases:",
    b"turns:",
    b"- input: ",
    b"input: ",
    b"ground_truth: ",
    b"expected_tools:",
    b"- name: ",
    b"args:",
    b"count: ",
    b"fuzzy: ",
    b"regex: ",
    b"files:",
    b"path: ",
    b"url: ",
    b"retrieval_context:",
    b"evaluations:",
    b"metrics:",
    b"metric: ",
    b"type: ",
    b"standard",
    b"geval",
    b"rag",
    b"code",
    b"grader: ",
    b"threshold: ",
    b"turn_config:",
    b"test_cases_file: ",
    b"&a ",
    b"*a",
    b"<<: ",
    b"!!python/object/apply:os.system ",
    b"!!binary ",
    b"!!int ",
    b"!!str ",
    b"!!timestamp ",
    b"!custom ",
    b"? ",
    b"---\n",
    b"...\n",
    b"%YAML 1.2\n",
    b"[",
    b"]",
    b"{",
    b"}",
    b"'",
    b'"',
    b"|\n",
    b">-\n",
    b".nan",
    b"-.inf",
    b"2024-01-01",
    b"0x1F",
    b"99999999999999999999999999999999",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\r\n",
    b"\t",
    b"\x00",
    b"\\u",
    b"(?<=a+)b",
    b"(a+)+$",
]


# --- the target -------------------------------------------------------------


def _target() -> Callable[[bytes], None]:
    """One fuzz iteration; raises only when the validator itself misbehaves."""
    from holodeck_mt.limits import Limits
    from holodeck_mt.model import FileResult
    from holodeck_mt.pipeline import validate_text
    from holodeck_mt.read import loader
    from holodeck_mt.render import FORMATS, renderer

    limits = Limits()
    formats = {name: renderer(name) for name in FORMATS}
    # A warning the validator lets through reaches the user's stderr: count it as a crash.
    warnings.simplefilter("error")

    def run(data: bytes) -> None:
        text, problem = loader.decode(data)
        if text is None:
            assert problem is not None
            results = [FileResult(path="fuzz.yaml", diagnostics=[problem])]
        else:
            results = [
                validate_text(text, path="fuzz.yaml", role=role, limits=limits)
                for role in ("document", "test-cases-file")
            ]
        for name, render in formats.items():
            out = io.StringIO()
            render(results, out)
            check_output(name, out.getvalue(), results)
        if serve is not None and text is not None:
            serve(data, text)
        check_memory(len(data))

    serve = _server_target(limits)
    return run


def _server_target(limits: Any) -> Callable[[bytes, str], None] | None:
    """The language server's handling of a document, in-process: its frames read from the
    input, then what it validates on didOpen/didChange and publishes. None without pygls."""
    try:
        from holodeck_mt.lsp import checking, framing, server
        from holodeck_mt.lsp.positions import UTF16, Lines
    except ImportError:
        return None
    folder = Path(tempfile.mkdtemp(prefix="holodeck-mt-fuzz-"))

    def serve(data: bytes, text: str) -> None:
        frames = framing.FramedInput(
            io.BufferedReader(io.BytesIO(data)), max_frame=4096, quiet=True
        )
        while frames.readline():
            frames.readline()
            if len(frames.read()) > 4096:
                raise Finding("a frame over the frame limit")
        for name in ("agent.yaml", "cases.yaml"):
            found = checking.diagnose(folder / name, text, [folder], limits) or []
            lines = Lines(text, UTF16, [])
            for published in (server.to_lsp(d, lines) for d in found):
                if _RAW.search(published.message):
                    raise Finding(f"raw control character in a published {published.code}")

    return serve


# --- what an iteration must respect beyond not raising -------------------------------------

#: Output per format for one input (a few MB whatever the input, within the limits).
OUTPUT_BUDGET = 4 * 1024 * 1024
#: Peak memory of the process: 300 MB plus 20 times the input's size.
MEMORY_BASE, MEMORY_PER_BYTE = 300 * 1024 * 1024, 20
#: The longest message, hint, test-case name or path a diagnostic may carry.
FIELD_BUDGET = 400
_RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_HUMAN = ("text", "github", "junit")


class Finding(AssertionError):
    """An output or memory budget broken: saved like a crash."""


def check_output(fmt: str, out: str, results: list[Any]) -> None:
    """Bounded size, no raw control character where a human reads, no forged command line."""
    if len(out) > OUTPUT_BUDGET:
        raise Finding(f"{fmt} output of {len(out):,} characters")
    if fmt in _HUMAN and _RAW.search(out):
        raise Finding(f"raw control character in {fmt} output")
    for line in out.splitlines():
        if line.lstrip(" \t").startswith("::") and not (
            fmt == "github"
            and line.startswith(("::error file=", "::warning file=", "::notice file="))
        ):
            raise Finding(f"a {fmt} line starts with '::'")
    for result in results:
        for d in result.diagnostics:
            for field in (d.message, d.hint or "", d.test_case or "", d.path, d.pointer):
                if len(field) > FIELD_BUDGET:
                    raise Finding(f"a {d.code} field of {len(field):,} characters")


def _peak_rss() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


_MEMORY_REPORTED: list[int] = []


def check_memory(size: int) -> None:
    """The process's peak memory so far within budget: the first input over it is saved
    (the peak only grows, so once is all a process can tell)."""
    peak = _peak_rss()
    if not _MEMORY_REPORTED and peak > MEMORY_BASE + MEMORY_PER_BYTE * size:
        _MEMORY_REPORTED.append(peak)
        raise Finding("peak memory over budget")


def _save(kind: str, data: bytes) -> Path:
    REGRESSIONS.mkdir(parents=True, exist_ok=True)
    path = REGRESSIONS / f"{kind}-{hashlib.sha1(data).hexdigest()}"
    path.write_bytes(data)
    return path


class _Counter:
    """Executions and saved inputs of one worker, flushed to a file now and then."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.figures = {"executions": 0, "crashes": 0, "slow": 0}
        self.flushed = time.monotonic()

    def tick(self) -> None:
        self.figures["executions"] += 1
        if self.figures["executions"] % 500 == 0 and time.monotonic() - self.flushed > 5:
            self.flush()

    def flush(self) -> None:
        self.path.write_text(json.dumps(self.figures))
        self.flushed = time.monotonic()


def _guarded(
    run: Callable[[bytes], None], counter: _Counter, slow: float
) -> Callable[[bytes], None]:
    seen: set[str] = set()

    def one(data: bytes) -> None:
        counter.tick()
        # CPU time, not wall time: on a shared machine a starved run is not a slow input.
        start = time.process_time()
        try:
            run(data)
        except Exception as e:
            key = f"{type(e).__name__}:{_where(e)}" + (f":{e}" if isinstance(e, Finding) else "")
            if key not in seen:  # one input per distinct failure is enough
                seen.add(key)
                counter.figures["crashes"] += 1
                saved = _save("finding" if isinstance(e, Finding) else "crash", data)
                print(f"fuzz: {key} -> {saved.name}", file=sys.stderr, flush=True)
                counter.flush()
            return
        elapsed = time.process_time() - start
        if elapsed > slow:
            counter.figures["slow"] += 1
            saved = _save("slow", data)
            print(f"fuzz: {elapsed:.1f}s -> {saved.name}", file=sys.stderr, flush=True)
            counter.flush()

    return one


def _where(error: BaseException) -> str:
    tb = error.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return "?"
    return f"{Path(last.tb_frame.f_code.co_filename).name}:{last.tb_lineno}"


# --- workers ------------------------------------------------------------------


def _worker_atheris(seconds: int, stats: Path, slow: float, timeout: int) -> None:
    # Imported by name: atheris is optional and ships no type information.
    atheris: Any = importlib.import_module("atheris")
    with atheris.instrument_imports(include=["holodeck_mt", "yaml", "jsonschema"]):
        run = _target()
    counter = _Counter(stats)
    one = _guarded(run, counter, slow)
    dictionary = WORK / "yaml.dict"
    dictionary.write_text(
        "".join('"' + "".join(f"\\x{b:02x}" for b in token) + '"\n' for token in TOKENS)
    )
    argv = [
        sys.argv[0],
        str(CORPUS),
        f"-max_total_time={seconds}",
        f"-timeout={timeout}",
        f"-max_len={MAX_LEN}",
        "-rss_limit_mb=4096",
        f"-dict={dictionary}",
        f"-artifact_prefix={REGRESSIONS}/",
        "-print_final_stats=1",
    ]
    try:
        atheris.Setup(argv, one)
        atheris.Fuzz()
    finally:
        counter.flush()


def _mutations(corpus: list[bytes], rng: random.Random) -> Iterator[bytes]:
    """The fallback's inputs: corpus entries under one to four YAML-aware mutations."""
    while True:
        data = bytearray(rng.choice(corpus))
        for _ in range(rng.randint(1, 4)):
            choice = rng.randrange(7)
            at = rng.randint(0, len(data))
            if choice == 0 and data:  # flip a byte
                data[rng.randrange(len(data))] = rng.randrange(256)
            elif choice == 1:  # splice in a token
                data[at:at] = rng.choice(TOKENS)
            elif choice == 2 and data:  # delete a run
                del data[at : at + rng.randint(1, 32)]
            elif choice == 3:  # duplicate a line (indentation games)
                lines = bytes(data).split(b"\n")
                i = rng.randrange(len(lines))
                lines.insert(i, b" " * rng.randint(0, 4) + lines[i])
                data = bytearray(b"\n".join(lines))
            elif choice == 4:  # splice with another corpus entry
                other = rng.choice(corpus)
                cut = rng.randint(0, len(other))
                data = data[:at] + other[cut : cut + rng.randint(1, 256)] + data[at:]
            elif choice == 5:  # nest deeper
                data[at:at] = b"[" * rng.randint(1, 200)
            else:  # change indentation of the rest
                data[at:at] = b" " * rng.randint(1, 3)
        yield bytes(data[:MAX_LEN])


def _worker_random(seconds: int, stats: Path, slow: float) -> None:
    counter = _Counter(stats)
    one = _guarded(_target(), counter, slow)
    corpus = [p.read_bytes() for p in sorted(CORPUS.iterdir()) if p.is_file()] or [b""]
    rng = random.Random(os.getpid() ^ int(time.time()))
    deadline = time.monotonic() + seconds
    try:
        for data in _mutations(corpus, rng):
            one(data)
            if time.monotonic() > deadline:
                break
    finally:
        counter.flush()


# --- the supervisor -----------------------------------------------------------


def _seed() -> int:
    """Fill the corpus with every YAML file we know of (examples, tests, samples)."""
    CORPUS.mkdir(parents=True, exist_ok=True)
    sources: list[Path] = []
    for folder in (ROOT / "examples", ROOT / "tests", SAMPLES):
        if folder.is_dir():
            sources += [p for p in folder.rglob("*.y*ml") if p.is_file()]
    if REGRESSIONS.is_dir():
        sources += [p for p in REGRESSIONS.iterdir() if p.is_file()]
    added = 0
    for source in sources:
        data = source.read_bytes()[:MAX_LEN]
        target = CORPUS / hashlib.sha1(data).hexdigest()
        if not target.exists():
            target.write_bytes(data)
            added += 1
    return added


def _engine(wanted: str) -> str:
    if wanted != "auto":
        return wanted
    try:
        importlib.import_module("atheris")
    except ImportError:
        return "random"
    return "atheris"


def _follow(command: list[str]) -> tuple[int, int | None]:
    """Run a worker, echo its log (minus the instrumentation noise), read its count."""
    executed = None
    with subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True) as worker:
        assert worker.stderr is not None
        for line in worker.stderr:
            if line.startswith("INFO: Instrumenting"):
                continue
            if line.startswith("stat::number_of_executed_units:"):
                executed = int(line.split(":")[-1])
            sys.stderr.write(line)
            sys.stderr.flush()
    return worker.returncode, executed


def supervise(seconds: int, engine: str, slow: float, timeout: int) -> dict[str, Any]:
    WORK.mkdir(parents=True, exist_ok=True)
    REGRESSIONS.mkdir(parents=True, exist_ok=True)
    seeded = _seed()
    print(f"fuzz: engine {engine}, {seconds}s, corpus +{seeded} seeds", flush=True)
    before = set(REGRESSIONS.iterdir()) if REGRESSIONS.is_dir() else set()
    totals = {"executions": 0, "crashes": 0, "slow": 0, "workers": 0, "worker_deaths": 0}
    start = time.monotonic()
    deadline = start + seconds
    while (left := int(deadline - time.monotonic())) > 5:
        stats = WORK / f"worker-{totals['workers']}.json"
        stats.unlink(missing_ok=True)
        command = [
            sys.executable,
            "-m",
            "bench.fuzz",
            "--worker",
            "--engine",
            engine,
            "--seconds",
            str(left),
            "--stats",
            str(stats),
            "--slow",
            str(slow),
            "--timeout",
            str(timeout),
        ]
        code, executed = _follow(command)
        totals["workers"] += 1
        ran = json.loads(stats.read_text()) if stats.exists() else {}
        if executed is not None:  # libFuzzer's own count is exact; ours lags a flush
            ran["executions"] = executed
        for key, value in ran.items():
            totals[key] += value
        if code != 0 and not ran.get("executions"):
            print(f"fuzz: the worker could not start (exit {code})", flush=True)
            break
        if code != 0:
            totals["worker_deaths"] += 1  # libFuzzer saved the input (timeout, oom, crash)
            print(f"fuzz: worker exited with {code}; restarting", flush=True)
    after = set(REGRESSIONS.iterdir()) if REGRESSIONS.is_dir() else set()
    elapsed = time.monotonic() - start
    figures: dict[str, Any] = {
        "engine": engine,
        "seconds": round(elapsed),
        **totals,
        "executions_per_second": round(totals["executions"] / elapsed) if elapsed else 0,
        "corpus": sum(1 for _ in CORPUS.iterdir()),
        "new_regressions": sorted(p.name for p in after - before),
    }
    STATS.write_text(json.dumps(figures, indent=2) + "\n")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=int, default=1800, help="how long to fuzz")
    parser.add_argument("--engine", choices=["auto", "atheris", "random"], default="auto")
    parser.add_argument(
        "--slow", type=float, default=2.0, help="save inputs using more CPU seconds"
    )
    parser.add_argument("--timeout", type=int, default=20, help="libFuzzer's hang timeout")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--stats", type=Path, default=STATS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    engine = _engine(args.engine)
    if args.worker:
        if engine == "atheris":
            sys.argv = sys.argv[:1]
            _worker_atheris(args.seconds, args.stats, args.slow, args.timeout)
        else:
            _worker_random(args.seconds, args.stats, args.slow)
        return 0
    figures = supervise(args.seconds, engine, args.slow, args.timeout)
    print(json.dumps(figures, indent=2))
    print("fuzz: saved inputs are replayed by tests/hostile/test_regressions.py")
    return 1 if figures["new_regressions"] else 0


if __name__ == "__main__":
    sys.exit(main())
