"""Whole-process benchmark of the validator's speed and memory.

Every figure is the wall time of a fresh process, started the way CI starts it,
repeated (median, min-max), with the child's peak resident memory taken from
``os.wait4``. Each row is compared with the floor on the same input: ruamel.yaml's
C safe-load of the file and nothing else. Rows run in interleaved rounds, so that
a change of load on the machine touches every row alike.

    python -m bench.speed                       # full run, table on stdout
    python -m bench.speed --quick               # smoke run: small corpora, 2 repetitions
    python -m bench.speed --write docs/performance.md --check

Inputs are generated (deterministically) into ``bench-data/`` by
``tests/support/corpus.py`` and reused while the generator and sizes are the
same. The validator's default builder (the compiled one, when it imports) is measured
beside the pure-Python builder (``HOLODECK_MT_PURE_BUILDER=1``) on the valid corpus and
the authors' corpus; the report names each row's builder. check-jsonschema is run against
the bundled single-file schema (``schema/bundle/holodeck-mt.schema.json``), or, when there
is none, against a bundle built here by embedding every schema file under ``$defs`` with
its ``$id`` (draft 2020-12 compound document). Either way it never needs the network; the
children run with an unreachable HTTP(S) proxy so that any attempt would fail.

Exit code: 0, or with ``--check`` 1 when a target fails (or could not be measured).
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scripts.repo import ROOT, write_atomically
from tests.support.samples import samples_folder

REPO = ROOT
#: The generator of the inputs: a change to it makes them again.
GENERATOR = REPO / "tests" / "support" / "corpus.py"
REAL_SAMPLE = samples_folder() / "financial-assistant/claude/data/convfinqa_subset.yaml"
BUNDLE = REPO / "schema/bundle/holodeck-mt.schema.json"

#: Loads each file named on the command line with ruamel.yaml's C safe loader, and
#: refuses to run with the pure-Python parser (which is five times slower).
FLOOR_CODE = """\
import sys
import ruamel.yaml
c_parser = getattr(ruamel.yaml, "CParser", None)
yaml = ruamel.yaml.YAML(typ="safe")
if c_parser is None or yaml.Parser is not c_parser:
    sys.exit("the floor needs ruamel.yaml's C parser (pip install ruamel.yaml.clib)")
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        yaml.load(handle)
"""

#: Reads each file's YAML events with PyYAML's libyaml binding and builds nothing: what
#: reading a file as the platform does costs before any data exists (a bound, not a target).
EVENTS_CODE = """\
import sys
from yaml._yaml import CParser
from yaml.events import StreamEndEvent
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        parser = CParser(handle.read())
    while not isinstance(parser.get_event(), StreamEndEvent):
        pass
"""

TINY = """\
- name: greeting
  input: hello
  ground_truth: hi there
- name: convfinqa-0
  turns:
  - input: what is the net cash from operating activities in 2009?
    ground_truth: '206588'
  - input: what is the difference from 2008's 181001?
    ground_truth: '25587'
    expected_tools: [subtract]
"""

#: What the validator imports before it reads a file (its YAML reader is PyYAML's).
IMPORTS = "import jsonschema, yaml, referencing"

#: The compiled builder, and the switch that makes the loader use the pure-Python one.
COMPILED_BUILDER = "holodeck_mt.read._fastbuild"
PURE_BUILDER = "HOLODECK_MT_PURE_BUILDER"

#: The platform reads at most this many test cases per agent: a larger corpus is
#: written as several test-cases files, each read (and timed) in one process.
MAX_CASES_PER_FILE = 1000
#: Conversations in the large corpus: a full run's, and a smoke run's (``--quick``).
CONVERSATIONS, QUICK_CONVERSATIONS = 3500, 350
#: Where the inputs are generated (git-ignored).
DATA = REPO / "bench-data"


# --- inputs ---------------------------------------------------------------------


@dataclass(frozen=True)
class Sizes:
    conversations: int
    agents: int
    agent_conversations: int
    seed: int

    @property
    def small(self) -> int:
        return max(1, self.conversations // 10)

    @property
    def one_percent(self) -> int:
        return max(1, self.conversations // 100)


@dataclass
class Inputs:
    #: The large corpus, as files of at most MAX_CASES_PER_FILE test cases.
    full: list[Path]
    one_fault: list[Path]
    one_percent: list[Path]
    #: The same number of conversations as authors write them (``--style authors``):
    #: agent.yaml files with inline test cases, block scalars, thousands of warnings.
    authors: list[Path]
    #: Every conversation in one agent.yaml, as authors write it (over the platform's limit).
    one_file: Path
    small: Path
    tiny: Path
    agents: Path
    agent_files: list[Path]
    real: Path | None
    schema: Path
    schema_note: str


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, text)


def _bundle(data_dir: Path) -> tuple[Path, str]:
    if BUNDLE.is_file():
        return BUNDLE, f"`--schemafile {BUNDLE.relative_to(REPO)}` (the bundled schema)"
    from holodeck_mt.contract import registry as schemas

    files = schemas.schema_files()
    bundle = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schemas.BASE_URI + "bench-bundle.schema.json",
        "$ref": schemas.DOCUMENT,
        "$defs": {uri.rsplit("/", 1)[-1]: contents for uri, contents in files.items()},
    }
    path = data_dir / "holodeck-mt.bundle.schema.json"
    _write(path, json.dumps(bundle, indent=1))
    note = (
        f"`--schemafile {path.name}`: every schema file embedded under `$defs` with its `$id` "
        "(no bundled schema in schema/bundle/ yet)"
    )
    return path, note


def corpus_files(data_dir: Path, stem: str, conversations: int) -> list[Path]:
    """The files a corpus of ``conversations`` is written as: ``STEM.yaml``, or parts of at
    most MAX_CASES_PER_FILE test cases (``STEM.part1of4.yaml``, ...)."""
    parts = -(-conversations // MAX_CASES_PER_FILE)
    if parts == 1:
        return [data_dir / f"{stem}.yaml"]
    return [data_dir / f"{stem}.part{i + 1}of{parts}.yaml" for i in range(parts)]


def prepare(data_dir: Path, sizes: Sizes, real: Path | None) -> Inputs:
    """Generate the inputs into ``data_dir``, unless the same ones are already there."""
    data_dir.mkdir(parents=True, exist_ok=True)
    n = sizes.conversations

    def split(stem: str) -> list[Path]:
        return corpus_files(data_dir, stem, n)

    inputs = Inputs(
        full=split(f"corpus-{n}"),
        one_fault=split(f"corpus-{n}-1-fault"),
        one_percent=split(f"corpus-{n}-{sizes.one_percent}-faults"),
        authors=split(f"authors-{n}"),
        one_file=data_dir / f"authors-{n}-one-file.yaml",
        small=data_dir / f"corpus-{sizes.small}.yaml",
        tiny=data_dir / "tiny-10-lines.yaml",
        agents=data_dir / f"agents-{sizes.agents}",
        agent_files=[
            data_dir / f"agents-{sizes.agents}" / f"agent-{i:03d}" / "agent.yaml"
            for i in range(sizes.agents)
        ],
        real=real if real is not None and real.is_file() else None,
        schema=BUNDLE,
        schema_note="",
    )
    inputs.schema, inputs.schema_note = _bundle(data_dir)
    source = GENERATOR.read_bytes()
    stamp = {
        "generator": hashlib.sha256(source).hexdigest(),
        "sizes": [n, sizes.agents, sizes.agent_conversations, sizes.seed],
        "tiny": TINY,
    }
    manifest = data_dir / f"manifest-{n}-{sizes.agents}.json"
    paths = [*inputs.full, *inputs.one_fault, *inputs.one_percent, *inputs.authors]
    paths += [inputs.one_file, inputs.small, inputs.tiny]
    if (
        manifest.is_file()
        and json.loads(manifest.read_text()) == stamp
        and all(p.is_file() for p in [*paths, *inputs.agent_files])
    ):
        return inputs
    from tests.support import corpus as gen

    for files, count, errors in [
        (inputs.full, n, 0),
        (inputs.one_fault, n, 1),
        (inputs.one_percent, n, sizes.one_percent),
        ([inputs.small], sizes.small, 0),
    ]:
        cases, _ = gen.corpus(count, errors=errors, seed=sizes.seed)
        chunk = -(-len(cases) // len(files))
        for i, path in enumerate(files):
            _write(path, gen.dump(cases[i * chunk : (i + 1) * chunk]))
    chunk = -(-n // len(inputs.authors))
    for i, path in enumerate(inputs.authors):
        count = min(chunk, n - i * chunk)
        agent = gen.agent_yaml(count, seed=sizes.seed * 100 + i, style="authors")
        _write(path, gen.dump(agent, blocks=True))
    agent = gen.agent_yaml(n, seed=sizes.seed, style="authors")
    _write(inputs.one_file, gen.dump(agent, blocks=True))
    _write(inputs.tiny, TINY)
    if inputs.agents.is_dir():
        shutil.rmtree(inputs.agents)
    for i, path in enumerate(inputs.agent_files):
        agent = gen.agent_yaml(sizes.agent_conversations, seed=sizes.seed * 100_000 + i)
        _write(path, gen.dump(agent))
    manifest.write_text(json.dumps(stamp))
    return inputs


# --- measuring ------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    cpu: float
    rss_mb: float
    code: int


@dataclass
class Row:
    key: str
    group: str
    label: str
    argv: list[str] | None
    expect: int = 0
    floor: str | None = None  # key of the floor row on the same input
    na: str | None = None  # why the row is not measured
    runs: list[Run] = field(default_factory=list)
    error: str | None = None
    #: Set for this row's command on top of the harness's environment.
    env: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.na is None and self.error is None and bool(self.runs)

    def wall(self) -> float:
        return statistics.median(r.wall for r in self.runs)

    def cpu(self) -> float:
        return statistics.median(r.cpu for r in self.runs)

    def peak(self) -> float:
        return max(r.rss_mb for r in self.runs)


_NO_NETWORK = "http://127.0.0.1:9"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    for name in (
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ):
        env[name] = _NO_NETWORK
    for name in ("no_proxy", "NO_PROXY"):
        env.pop(name, None)
    env.pop(PURE_BUILDER, None)  # the default builder, but in the rows that ask otherwise
    return env


#: Starts one command from a small process and reports its wall time, CPU time (user +
#: system, its own children included) and peak RSS. The peak a child reports includes
#: the memory of the process it was forked from, so it is forked from this launcher
#: (about 8 MB, less than any Python command measured) rather than from the harness.
LAUNCHER = """\
import os, sys, time
report, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(report, "w") as handle:
    handle.write(f"{wall} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_once(argv: Sequence[str], env: dict[str, str], tmp: Path) -> tuple[Run, str]:
    """Run ``argv`` in a fresh process: its wall time, CPU time, peak RSS and exit code."""
    log, figures = tmp / "output", tmp / "figures"
    figures.unlink(missing_ok=True)
    with open(log, "wb") as out:
        if hasattr(os, "fork"):
            launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(figures), *argv]
            code = subprocess.call(
                launcher, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=REPO
            )
            wall, cpu, rss_kb = (float(x) for x in figures.read_text().split())
            rss = rss_kb / (1024 * 1024 if sys.platform == "darwin" else 1024)
        else:  # pragma: no cover - no fork: wall time only
            start = time.perf_counter()
            code = subprocess.call(argv, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=REPO)
            wall, cpu, rss = time.perf_counter() - start, float("nan"), float("nan")
    output = log.read_text(encoding="utf-8", errors="replace")
    return Run(wall, cpu, rss, code), output


def _last_line(output: str) -> str:
    lines = [line.strip() for line in output.strip().splitlines() if line.strip()]
    return lines[-1][:160] if lines else "(no output)"


def measure(rows: list[Row], repeat: int, warmup: int, progress: bool) -> None:
    """Run every measurable row ``warmup + repeat`` times, in interleaved rounds."""
    env = _env()
    with tempfile.TemporaryDirectory(prefix="holodeck-bench-") as tmp:
        # The cache of the "second run" rows, filled by their first run, and its key.
        env["HOLODECK_MT_CACHE_DIR"] = str(Path(tmp) / "cache")
        env["XDG_CACHE_HOME"] = str(Path(tmp) / "user-cache")
        for round_ in range(warmup + repeat):
            for row in rows:
                if row.argv is None or row.na is not None or row.error is not None:
                    continue
                if progress:
                    print(f"  round {round_ + 1}/{warmup + repeat}: {row.label}", file=sys.stderr)
                run, output = run_once(row.argv, env | row.env, Path(tmp))
                if run.code != row.expect:
                    if run.code == 2 and "--jobs" in row.argv and "--jobs" in output:
                        row.na = "n/a: --jobs not supported"
                    else:
                        row.error = f"exit {run.code}, expected {row.expect}: {_last_line(output)}"
                    row.runs.clear()
                    continue
                if round_ >= warmup:
                    row.runs.append(run)


def compile_bytecode() -> None:
    """Compile the package's bytecode, as installing a wheel does.

    Every other package the rows import was byte-compiled when pip installed it;
    a checkout (an editable install) only gets its ``__pycache__`` when Python
    writes it, which ``PYTHONDONTWRITEBYTECODE`` prevents. Without this, start-up
    would time compiling our sources, not running them.
    """
    import compileall

    compileall.compile_dir(REPO / "holodeck_mt", quiet=1)


def compiled_builder() -> str | None:
    """Where the compiled builder imports from in the rows' interpreter, or None."""
    code = f"import {COMPILED_BUILDER} as m; print(m.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=_env()
    )
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


# --- the rows -------------------------------------------------------------------


def _check_jsonschema() -> str | None:
    beside = Path(sys.executable).parent / "check-jsonschema"
    if beside.is_file():
        return str(beside)
    return shutil.which("check-jsonschema")


#: The groups of rows, by key: the title, with the figures it names from the sizes.
GROUPS = {
    "big": "{conversations:,} conversations",
    "authors": "{conversations:,} conversations as authors write them",
    "one file": "{conversations:,} conversations in one file",
    "real": "real file (133 conversations)",
    "start-up": "start-up (10-line file)",
    "linearity": "linearity ({small:,} conversations)",
    "many": "many files ({agents} agent.yaml)",
}


@dataclass(frozen=True)
class Spec:
    """A row as data: ``command`` (a key of :func:`commands`) run on ``input`` (a field
    of :class:`Inputs`; None: no file), in a group of GROUPS, exiting with ``expect``."""

    key: str
    group: str
    label: str
    command: str
    input: str | None = None
    expect: int = 0
    #: Which builder the label names: "" (none), "default" or "pure" (the pure-Python
    #: builder, forced with HOLODECK_MT_PURE_BUILDER=1).
    builder: str = ""


#: What is measured, in the order of the table. Each row is compared with the floor of
#: its group: the row running "floor" on the same input.
ROWS = [
    Spec("floor", "big", "floor: C safe-load", "floor", "full"),
    Spec("events", "big", "bound: libyaml's events alone", "events", "full"),
    Spec("ours", "big", "validator, valid", "validator --jobs 1", "full", builder="default"),
    Spec("ours_pure", "big", "validator, valid", "validator --jobs 1", "full", builder="pure"),
    Spec("ours_1", "big", "validator, 1 fault", "validator --jobs 1", "one_fault", 1),
    Spec(
        "ours_pct", "big", "validator, 1% faulty ({faulty})", "validator --jobs 1", "one_percent", 1
    ),
    Spec("ours_cached", "big", "validator, second run (cache)", "validator, cached", "full"),
    Spec("cj", "big", "check-jsonschema, valid", "check-jsonschema", "full"),
    Spec("cj_1", "big", "check-jsonschema, 1 fault", "check-jsonschema", "one_fault", 1),
    Spec("cj_pct", "big", "check-jsonschema, 1% faulty", "check-jsonschema", "one_percent", 1),
    Spec("floor_authors", "authors", "floor: C safe-load", "floor", "authors"),
    Spec(
        "ours_authors",
        "authors",
        "validator (warnings only)",
        "validator --jobs 1",
        "authors",
        builder="default",
    ),
    Spec(
        "ours_authors_pure",
        "authors",
        "validator (warnings only)",
        "validator --jobs 1",
        "authors",
        builder="pure",
    ),
    Spec("floor_one", "one file", "floor: C safe-load", "floor", "one_file"),
    Spec("ours_one", "one file", "validator (over the limit)", "validator --jobs 1", "one_file", 1),
    Spec("floor_real", "real", "floor: C safe-load", "floor", "real"),
    Spec("ours_real", "real", "validator", "validator", "real"),
    Spec("cj_real", "real", "check-jsonschema", "check-jsonschema", "real"),
    Spec("pass", "start-up", "python -c pass", "pass"),
    Spec("imports", "start-up", f'python -c "{IMPORTS}"', "imports"),
    Spec("floor_tiny", "start-up", "floor: C safe-load", "floor", "tiny"),
    Spec("ours_tiny", "start-up", "validator", "validator", "tiny"),
    Spec("cj_tiny", "start-up", "check-jsonschema", "check-jsonschema", "tiny"),
    Spec("floor_small", "linearity", "floor: C safe-load", "floor", "small"),
    Spec("ours_small", "linearity", "validator", "validator", "small"),
    Spec("floor_agents", "many", "floor: C safe-load, one process", "floor", "agent_files"),
    Spec("ours_jobs1", "many", "validator --jobs 1", "validator --jobs 1", "agents"),
    Spec("ours_jobs", "many", "validator, default jobs", "validator", "agents"),
]
ROW_KEYS = [spec.key for spec in ROWS]

CJ_MISSING = "n/a: check-jsonschema not installed (`make bench` installs it)"

#: A command of ROWS: from the paths it reads to its argv (None: it cannot run here).
Command = Callable[[list[Path]], "list[str] | None"]


def commands(inputs: Inputs) -> dict[str, Command]:
    """The commands of ROWS. The validator reads a list of files one after the other in
    one process with ``--jobs 1``, as the floor reads them."""
    py = sys.executable
    cached = [py, "-m", "holodeck_mt", "validate", "--format", "json"]
    ours = [*cached, "--no-cache"]  # every run validates (the cache has rows of its own)
    cj_exe = _check_jsonschema()

    def cj(paths: list[Path]) -> list[str] | None:
        if cj_exe is None:
            return None
        return [cj_exe, "--schemafile", str(inputs.schema), *map(str, paths)]

    return {
        "floor": lambda paths: [py, "-c", FLOOR_CODE, *map(str, paths)],
        "events": lambda paths: [py, "-c", EVENTS_CODE, *map(str, paths)],
        "validator": lambda paths: [*ours, *map(str, paths)],
        "validator --jobs 1": lambda paths: [*ours, "--jobs", "1", *map(str, paths)],
        "validator, cached": lambda paths: [*cached, "--jobs", "1", *map(str, paths)],
        "check-jsonschema": cj,
        "pass": lambda _: [py, "-c", "pass"],
        "imports": lambda _: [py, "-c", IMPORTS],
    }


def builder_label(builder: str, compiled: str | None) -> str:
    """What a row's label says of its builder (``builder`` of :class:`Spec`)."""
    if builder == "pure":
        return f", pure-Python builder ({PURE_BUILDER}=1)"
    if builder == "default":
        return ", compiled builder" if compiled else ", pure-Python builder (no compiled one)"
    return ""


def build_rows(inputs: Inputs, sizes: Sizes, compiled: str | None = None) -> list[Row]:
    """ROWS as commands on ``inputs``, titled with the figures of ``sizes`` and with the
    builder each row uses (``compiled``: where the compiled one imports from, if it does)."""
    k = sizes.one_percent
    figures = {
        "conversations": sizes.conversations,
        "small": sizes.small,
        "agents": sizes.agents,
        "faulty": f"{k} test case{'s' if k > 1 else ''}",
    }
    run = commands(inputs)
    floors = {spec.group: spec.key for spec in ROWS if spec.command == "floor"}
    rows = []
    for spec in ROWS:
        found = getattr(inputs, spec.input) if spec.input else []
        paths = None if found is None else found if isinstance(found, list) else [found]
        argv = run[spec.command](paths) if paths is not None else None
        if paths is None:  # the real file, when it is not there
            na: str | None = f"n/a: {REAL_SAMPLE} not found"
        elif argv is None:
            na = CJ_MISSING if spec.command == "check-jsonschema" else "n/a"
        else:
            na = None
        title = GROUPS[spec.group].format(**figures)
        label = spec.label.format(**figures) + builder_label(spec.builder, compiled)
        expect = spec.expect
        if spec.input == "one_file" and spec.command != "floor":  # an error past the limit
            expect = int(sizes.conversations > MAX_CASES_PER_FILE)
        row = Row(spec.key, title, label, argv, expect, floors[spec.group], na)
        if spec.builder == "pure":
            row.env[PURE_BUILDER] = "1"
        rows.append(row)
    return rows


# --- targets --------------------------------------------------------------------


@dataclass
class Target:
    name: str
    limit: str
    measured: str
    verdict: str  # PASS, FAIL, or FAIL (not measured)


def _by_key(rows: list[Row]) -> dict[str, Row]:
    return {row.key: row for row in rows}


def evaluate(rows: list[Row], cores: int) -> list[Target]:
    r = _by_key(rows)
    targets: list[Target] = []

    def add(
        name: str, limit: str, keys: Sequence[str], compute: Callable[[], tuple[str, bool]]
    ) -> None:
        if not all(r[key].ok for key in keys):
            missing = ", ".join(r[key].label for key in keys if not r[key].ok)
            targets.append(Target(name, limit, f"not measured ({missing})", "FAIL (not measured)"))
            return
        text, passed = compute()
        targets.append(Target(name, limit, text, "PASS" if passed else "FAIL"))

    def ratio(key: str, base: str, limit: float) -> tuple[str, bool]:
        value = r[key].wall() / r[base].wall()
        cpu = r[key].cpu() / r[base].cpu()
        return f"{value:.2f}x (CPU time: {cpu:.2f}x)", value <= limit

    for key, floor, limit, what in [
        ("ours", "floor", 0.3, "valid file"),
        ("ours_1", "floor", 0.7, "1 fault"),
        ("ours_pct", "floor", 1.0, "1% faulty"),
        ("ours_authors", "floor_authors", 0.6, "as authors write (warnings)"),
        ("ours_one", "floor_one", 1.5, "one file of every conversation"),
        ("ours_cached", "floor", 0.1, "second run, unchanged files (cache)"),
    ]:
        add(
            f"{what}: time vs floor",
            f"<= {limit}x",
            [key, floor],
            functools.partial(ratio, key, floor, limit),
        )
    for key, cj, what in [
        ("ours", "cj", "valid file"),
        ("ours_1", "cj_1", "1 fault"),
        ("ours_pct", "cj_pct", "1% faulty"),
    ]:

        def faster(key: str = key, cj: str = cj) -> tuple[str, bool]:
            value = r[cj].wall() / r[key].wall()
            return f"{value:.1f}x faster", value >= 3.0

        add(f"{what}: vs check-jsonschema", ">= 3x faster", [key, cj], faster)

    def startup_imports() -> tuple[str, bool]:
        ours, imports = r["ours_tiny"].wall(), r["imports"].wall()
        return f"{ours:.3f} s vs {imports:.3f} s", ours <= imports

    add(
        "start-up: 10-line file vs the imports",
        "<= import line",
        ["ours_tiny", "imports"],
        startup_imports,
    )

    def startup_cj() -> tuple[str, bool]:
        value = r["ours_tiny"].wall() / r["cj_tiny"].wall()
        return f"{value:.2f}x of check-jsonschema's", value < 0.5

    add(
        "start-up: 10-line file vs check-jsonschema", "< 0.5x", ["ours_tiny", "cj_tiny"], startup_cj
    )
    for key, what in [("ours", "valid file"), ("ours_1", "1 fault"), ("ours_pct", "1% faulty")]:
        cap = 1.0 if key == "ours" else 1.3

        def memory(key: str = key, cap: float = cap) -> tuple[str, bool]:
            value = r[key].peak() / r["floor"].peak()
            return f"{value:.2f}x ({r[key].peak():.0f} MB)", value <= cap

        add(f"peak memory, {what}", f"<= {cap}x floor", [key, "floor"], memory)

    def linear() -> tuple[str, bool]:
        big, small = r["ours"].wall(), r["ours_small"].wall()
        ratio = big / small

        def net(large: str, little: str, tiny: str) -> str:
            base = r[tiny].wall()
            if r[little].wall() <= 1.05 * base:
                return "n/a"
            return f"{(r[large].wall() - base) / (r[little].wall() - base):.2f}x"

        text = (
            f"{ratio:.2f}x end to end (net of start-up: {net('ours', 'ours_small', 'ours_tiny')}"
            f"; the floor's: {net('floor', 'floor_small', 'floor_tiny')})"
        )
        return text, ratio <= 10.5

    add(
        "linear: 10x the conversations",
        "<= 10.5x the time",
        ["ours", "ours_small", "ours_tiny", "floor", "floor_small", "floor_tiny"],
        linear,
    )

    def jobs() -> tuple[str, bool]:
        one, many = r["ours_jobs1"].wall(), r["ours_jobs"].wall()
        speedup = one / many
        busy = r["ours_jobs"].cpu() / many
        need = max(1.0, 0.6 * cores)
        text = f"{speedup:.2f}x speed-up, {busy:.2f} cores busy (of {cores}; needs >= {need:.1f}x)"
        return text, cores < 2 or speedup >= need

    add("many files use every core", ">= 0.6 x cores speed-up", ["ours_jobs1", "ours_jobs"], jobs)
    return targets


# --- reporting ------------------------------------------------------------------


def _proc(file: str, field: str) -> str | None:
    """The value of ``field`` in ``/proc/FILE`` (``MemTotal`` in ``meminfo``), if there."""
    try:
        for line in Path("/proc", file).read_text().splitlines():
            name, _, value = line.partition(":")
            if name.strip() == field:
                return value.strip()
    except OSError:
        pass
    return None


def _meminfo() -> str:
    total = _proc("meminfo", "MemTotal")  # "16318412 kB"
    return f"{int(total.split()[0]) / 1024 / 1024:.1f} GiB" if total else "unknown"


def _cpu_model() -> str:
    return _proc("cpuinfo", "model name") or platform.processor() or platform.machine()


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _git_commit() -> str:
    try:
        result = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
        )
    except OSError:
        return "unknown"
    return result.stdout.strip() or "unknown"


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _cores() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def machine(load_before: str) -> list[str]:
    cores = os.cpu_count() or 1
    usable = _cores()
    packages = ", ".join(
        f"{name} {_version(name)}"
        for name in (
            "holodeck-mt",
            "ruamel.yaml",
            "ruamel.yaml.clib",
            "jsonschema",
            "referencing",
            "rpds-py",
            "jsonschema-rs",
            "check-jsonschema",
        )
    )
    return [
        f"- CPU: {_cpu_model()}, {cores} cores ({usable} usable)",
        f"- Memory: {_meminfo()}",
        f"- OS: {platform.platform()}",
        f"- Python: {platform.python_implementation()} {platform.python_version()}",
        f"- Packages: {packages}",
        f"- Commit: {_git_commit()}; date: {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- Load average (1, 5, 15 min) before: {load_before}; after: {_load()}",
    ]


def table(rows: list[Row]) -> list[str]:
    r = _by_key(rows)
    lines = [
        "| what | median s | min-max s | CPU s | x floor | peak MB | x floor peak |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    group = None
    for row in rows:
        if row.group != group:
            group = row.group
            lines.append(f"| **{group}** | | | | | | |")
        if not row.ok:
            reason = row.na or f"error: {row.error}"
            lines.append(f"| {row.label} | {reason} | | | | | |")
            continue
        floor = r.get(row.floor or "")
        if floor is not None and floor.ok:
            x = f"{row.wall() / floor.wall():.2f}"
            x_peak = f"{row.peak() / floor.peak():.2f}"
        else:
            x = x_peak = "n/a"
        lo, hi = min(run.wall for run in row.runs), max(run.wall for run in row.runs)
        lines.append(
            f"| {row.label} | {row.wall():.3f} | {lo:.3f}-{hi:.3f} | {row.cpu():.3f} | {x} "
            f"| {row.peak():.1f} | {x_peak} |"
        )
    return lines


def report(
    rows: list[Row],
    targets: list[Target],
    inputs: Inputs,
    sizes: Sizes,
    args: argparse.Namespace,
    load_before: str,
    compiled: str | None = None,
) -> str:
    def size(*paths: Path) -> str:
        return f"{sum(p.stat().st_size for p in paths) / 1e6:.1f} MB"

    full = inputs.full
    named = f"`{full[0].name}`" if len(full) == 1 else f"{len(full)} files `{full[0].name}`..."

    lines = [
        "# Performance",
        "",
        "Measured by `make bench` (`python -m bench.speed --write docs/performance.md`): every "
        "figure is a whole process, started fresh, timed by wall clock; "
        f"{args.repeat} repetitions after {args.warmup} warm-up run(s), interleaved; median and "
        "min-max. *x floor* compares with ruamel.yaml's C safe-load of the same input "
        "(nothing but parsing); *peak* is the child's maximum resident set size. "
        "*CPU s* is user + system time, which load from other processes inflates less than wall "
        "time.",
        "",
        "## Machine",
        "",
        *machine(load_before),
        "",
        "## Inputs",
        "",
        f"- {sizes.conversations:,} conversations: {named} ({size(*full)}), "
        f"the same with 1 fault, and with {sizes.one_percent} faulty test case(s) "
        f"(generated by `tests/support/corpus.py --seed {sizes.seed}`); the platform "
        f"reads at most {MAX_CASES_PER_FILE:,} test cases per agent, so the corpus is split "
        "into files of at most that many, each command reading them all in one process "
        "(the validator with `--jobs 1`)",
        f"- as authors write them: {len(inputs.authors)} agent.yaml files "
        f"`{inputs.authors[0].name}`... ({size(*inputs.authors)}) with the conversations "
        "inline (`tests/support/corpus.py --style authors --agent-yaml`): `|` block scalars, "
        "per-turn `numeric` overrides whose settings leak, turns without `ground_truth`, a "
        "tool listed twice; warnings only",
        f"- one file: `{inputs.one_file.name}` ({size(inputs.one_file)}), every conversation "
        "in one agent.yaml as authors write them (over the platform's limit: one error)",
        "- second run: the same command as *validator, valid* without `--no-cache`, its "
        "cache filled by the warm-up run; every other validator row runs with `--no-cache`",
        f"- linearity: `{inputs.small.name}` ({size(inputs.small)})",
        f"- many files: {sizes.agents} agent.yaml with {sizes.agent_conversations} conversations "
        "each",
        "- real file: "
        + (f"`{inputs.real}` ({size(inputs.real)})" if inputs.real else "not found"),
        f"- check-jsonschema: {inputs.schema_note}",
        f"- builders: {builders_note(compiled)}",
        "",
        "## Results",
        "",
        *table(rows),
        "",
        "## Targets",
        "",
        "| target | limit | measured | verdict |",
        "|---|---|---|---|",
        *(f"| {t.name} | {t.limit} | {t.measured} | **{t.verdict}** |" for t in targets),
        "",
        "Time targets compare medians of wall time. *linear* divides the whole-process time on "
        "the large corpus by the time on the corpus a tenth its size, as the targets state "
        "it; start-up weighs on the small run, so the figure net of start-up (each command's "
        "run on the 10-line file subtracted) is shown beside it, with the floor's for comparison "
        "(parsing alone need not scale linearly either). The net figures subtract two small "
        "numbers and are noisy. *many files* compares `--jobs 1` with the "
        "default (every core); *cores busy* is CPU time over wall time.",
        *busy_note(load_before),
        "",
        "## Notes",
        "",
        "- Run it: `make bench` (full, rewrites this file), `make bench BENCH_ARGS=--quick` "
        "(smoke run), `python -m bench.speed --only floor,ours` (some rows), `--check` (exit 1 "
        "on a missed target), `--help` for the rest.",
        "- check-jsonschema offline: given a schema whose `$ref`s name other files by their "
        "absolute `https://` `$id`, it tries to download them and fails without a "
        "network. A single-file bundle avoids that; `--base-uri file://<repo>/schema/"
        "test-cases-file.schema.json` with `--schemafile schema/test-cases-file.schema.json` "
        "also works offline with check-jsonschema 0.39.",
        "- The package's bytecode is compiled before measuring (`compileall holodeck_mt`), "
        "as installing a wheel does for it and for every other package measured here.",
        "- The floor refuses to run without ruamel.yaml's C parser (`YAML(typ='safe').Parser` "
        "must be `ruamel.yaml.CParser`).",
        "- *bound: libyaml's events alone* is not a target: PyYAML's libyaml binding reads "
        "each file's events (the syntax as the platform reads it) as Python objects and "
        "builds nothing. It bounds the pure-Python builder, which reads those events; the "
        "compiled builder reads libyaml's events in C and makes no Python object for them, "
        "so its rows may come in under it.",
        "- *second run (cache)*: the same run again, each file's results read from the "
        "cache: the figure is Python's start-up, the command line, each file read and its "
        "keyed hash (HMAC-SHA256) with those of the files it depends on, and the report "
        "rendered; no file is parsed.",
        "- The clean corpus's 0.3x is within reach of the compiled builder only: with the "
        "pure-Python one, libyaml's events as Python objects alone take more than half "
        "that budget (the *bound* row), and the cache does not count for it. *Where the "
        "time goes* below gives the share of each stage.",
        "",
    ]
    return "\n".join(lines)


def builders_note(compiled: str | None) -> str:
    """Which builder the validator's rows use, and whether the compiled one imports."""
    forced = f"the rows marked *pure-Python builder ({PURE_BUILDER}=1)* force the other"
    if compiled:
        return (
            f"`{COMPILED_BUILDER}` imports (`{Path(compiled).name}`): every validator row "
            f"runs it, the default, but {forced}; each pair reads the same files"
        )
    return (
        f"`{COMPILED_BUILDER}` does not import here: every validator row runs the "
        f"pure-Python builder, the default's fallback, and {forced.replace('the other', 'it')}"
    )


def busy_note(load_before: str) -> list[str]:
    """A warning when other processes were competing for the cores."""
    try:
        load = float(load_before.split()[0])
    except (ValueError, IndexError):
        return []
    if load < 0.5 * _cores():
        return []
    return [
        "",
        f"**The machine was busy** (load average {load:.2f} on {_cores()} cores when the run "
        "started): wall times are inflated and noisy; *CPU s* is the steadier figure.",
    ]


# --- main -----------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the validator.")
    parser.add_argument("--quick", action="store_true", help="small corpora, 2 repetitions")
    parser.add_argument("--repeat", type=int, default=None, help="repetitions (default 5; 2 quick)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs first (default 1)")
    parser.add_argument(
        "--conversations",
        type=int,
        default=None,
        help=f"corpus size (default {CONVERSATIONS}; {QUICK_CONVERSATIONS} quick)",
    )
    parser.add_argument(
        "--agents", type=int, default=None, help="agent.yaml files (default 200; 20 quick)"
    )
    parser.add_argument(
        "--agent-conversations", type=int, default=10, help="conversations per agent.yaml"
    )
    parser.add_argument("--seed", type=int, default=0, help="corpus seed (default 0)")
    parser.add_argument("--data-dir", type=Path, default=DATA, help="where inputs are generated")
    parser.add_argument(
        "--real", type=Path, default=REAL_SAMPLE, help="the real ConvFinQA test-cases file"
    )
    parser.add_argument("--write", type=Path, help="also write the report to this Markdown file")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target fails")
    parser.add_argument("--progress", action="store_true", help="print each run on stderr")
    parser.add_argument(
        "--only",
        metavar="KEY,...",
        help="measure only these rows (keys: " + ", ".join(ROW_KEYS) + ")",
    )
    args = parser.parse_args(argv)
    args.repeat = args.repeat if args.repeat is not None else (2 if args.quick else 5)
    if args.repeat < 1 or args.warmup < 0:
        parser.error("--repeat must be >= 1 and --warmup >= 0")
    sizes = Sizes(
        conversations=args.conversations or (QUICK_CONVERSATIONS if args.quick else CONVERSATIONS),
        agents=args.agents or (20 if args.quick else 200),
        agent_conversations=args.agent_conversations,
        seed=args.seed,
    )
    load_before = _load()
    print(f"preparing inputs in {args.data_dir} ...", file=sys.stderr)
    inputs = prepare(args.data_dir, sizes, args.real)
    compile_bytecode()
    compiled = compiled_builder()
    rows = build_rows(inputs, sizes, compiled)
    if args.only:
        chosen = {key.strip() for key in args.only.split(",") if key.strip()}
        unknown = chosen - set(ROW_KEYS)
        if unknown:
            parser.error(f"--only: unknown row(s) {', '.join(sorted(unknown))}")
        for row in rows:
            if row.key not in chosen and row.na is None:
                row.na = "not measured (--only)"
    runs = (args.warmup + args.repeat) * sum(
        row.argv is not None and row.na is None for row in rows
    )
    print(f"measuring: {runs} runs ...", file=sys.stderr)
    measure(rows, args.repeat, args.warmup, args.progress)
    targets = evaluate(rows, _cores())
    text = report(rows, targets, inputs, sizes, args, load_before, compiled)
    print(text)
    if args.write is not None:
        _write(args.write, text)
        print(f"written to {args.write}", file=sys.stderr)
    if args.check and any(t.verdict != "PASS" for t in targets):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
