#!/usr/bin/env python3
"""Where the validator's time goes, stage by stage, on the benchmark's corpora.

Each corpus is validated in this process (as ``validate --jobs 1 --no-cache`` would),
with the pipeline's stages wrapped to add up their CPU time: *read* (libyaml's parse
alone, measured apart on the same texts: as Python event objects for the pure-Python
builder, with no Python object for the compiled one), *build* (the rest of loading: the
data and its positions), *schema*, *rules* (the semantic checks and run-time lints), *locate*
(every fault placed and ranged, the quoted values as written) and *render* (the JSON
report). The median of ``--repetitions`` runs; figures are CPU seconds.

    python -m bench.stages                             # print the table
    python -m bench.stages --write docs/performance.md  # and replace its section
    python -m bench.stages --quick                     # the smoke run's corpora, once

``make bench`` runs it after bench/speed.py, whose inputs (bench-data/) it reads.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import replace_section
from bench.speed import CONVERSATIONS, DATA, QUICK_CONVERSATIONS, corpus_files

BEGIN, END = "<!-- stages-bench: begin -->", "<!-- stages-bench: end -->"
STAGES = ["read", "build", "schema", "rules", "locate", "render"]
#: Each corpus: its title and the stem of the bench-data/ files bench.speed writes it as
#: (``{n}``: the conversations), and whether it is split as the platform's limit asks.
CORPORA = [
    ("{n:,} conversations, valid", "corpus-{n}", True),
    ("{n:,} conversations as authors write them", "authors-{n}", True),
    ("{n:,} conversations in one file", "authors-{n}-one-file", False),
]


def corpora(data_dir: Path, conversations: int) -> list[tuple[str, list[Path]]]:
    """Each corpus of ``conversations`` written in ``data_dir``: its title and its files."""
    found = []
    for title, stem, split in CORPORA:
        name = stem.format(n=conversations)
        paths = [data_dir / f"{name}.yaml"]
        if split:
            paths = corpus_files(data_dir, name, conversations)
        if all(path.is_file() for path in paths):
            files = f" ({len(paths)} files)" if len(paths) > 1 else ""
            found.append((title.format(n=conversations) + files, paths))
    return found


def _read_seconds(texts: list[str], compiled: bool) -> float:
    """libyaml's parse of the texts, as the builder in use sees it."""
    from yaml._yaml import CParser
    from yaml.events import StreamEndEvent

    started = time.process_time()
    for text in texts:
        parser = CParser(text)
        if compiled:
            parser.raw_parse()
            continue
        while not isinstance(parser.get_event(), StreamEndEvent):
            pass
    return time.process_time() - started


def builder() -> str:
    """Which builder the validator uses here."""
    loader = importlib.import_module("holodeck_mt.read.loader")
    return "compiled" if loader.COMPILED else "pure-Python"


def _timed(totals: dict[str, float], label: str, work: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(work)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return work(*args, **kwargs)
        finally:
            totals[label] = totals.get(label, 0.0) + time.process_time() - started

    return wrapper


def once(paths: list[Path]) -> dict[str, float]:
    """One validation of ``paths``: CPU seconds by stage."""
    pipeline = importlib.import_module("holodeck_mt.pipeline")
    lines = importlib.import_module("holodeck_mt.text.lines")
    from holodeck_mt.render import renderer

    totals: dict[str, float] = {}
    modules = {name: importlib.import_module(name) for name, _, _ in _WRAPPED}
    originals = {(name, attr): getattr(modules[name], attr) for name, attr, _ in _WRAPPED}
    try:
        for name, attr, label in _WRAPPED:
            setattr(modules[name], attr, _timed(totals, label, originals[name, attr]))
        started = time.process_time()
        results = []
        for path in paths:
            results += pipeline.validate_file(path)
        for result in results:
            lines.keep_quoted(result)
        validated = time.process_time()
        renderer("json")(results, io.StringIO())
        totals["render"] = time.process_time() - validated
        totals["total"] = time.process_time() - started
    finally:
        for (name, attr), work in originals.items():
            setattr(modules[name], attr, work)
    texts = [path.read_text(encoding="utf-8") for path in paths]
    totals["read"] = _read_seconds(texts, builder() == "compiled")
    totals["build"] = totals.pop("load", 0.0) - totals["read"]
    return totals


#: The pipeline's steps wrapped (module, function), and the stage each one's time goes to.
_WRAPPED = [
    ("holodeck_mt.read.document", "ingest", "load"),
    ("holodeck_mt.contract.verdict", "judge", "schema"),
    ("holodeck_mt.rules.running", "faults", "rules"),
    ("holodeck_mt.locate.report", "diagnose", "locate"),
]


def measure(
    repetitions: int, conversations: int = CONVERSATIONS, data_dir: Path = DATA
) -> list[tuple[str, dict[str, float]]]:
    rows = []
    for title, paths in corpora(data_dir, conversations):
        runs = [once(paths) for _ in range(repetitions)]
        rows.append((title, {k: statistics.median(r.get(k, 0.0) for r in runs) for k in runs[0]}))
    return rows


def report(rows: list[tuple[str, dict[str, float]]], repetitions: int) -> str:
    with open("/proc/loadavg") as handle:
        load = " ".join(handle.read().split()[:3])
    lines = [
        BEGIN,
        "## Where the time goes",
        "",
        "Measured by `make bench` (`python -m bench.stages --write docs/performance.md`): "
        "each corpus validated in one process, the pipeline's stages timed in CPU seconds "
        f"(median of {repetitions}), with the {builder()} builder. *read* is libyaml's parse "
        "alone on the same texts (with no Python object for the compiled builder, as Python "
        "events for the pure-Python one), *build* the rest of loading (the data and its "
        "positions), *locate* every fault placed, ranged and quoted as written, *render* the "
        "JSON report. Start-up is not included.",
        "",
        "| corpus | " + " | ".join(STAGES) + " | total |",
        "|---|" + "---:|" * (len(STAGES) + 1),
    ]
    for title, figures in rows:
        cells = [f"{figures.get(stage, 0.0):.3f}" for stage in STAGES]
        lines.append(f"| {title} | " + " | ".join(cells) + f" | {figures['total']:.3f} |")
    lines += [
        "",
        "*total* is the whole validation and report (read and build are parts of it; the "
        "stages not listed, such as the platform's lax reading and the statistics, make up "
        f"the rest). Load average (1, 5, 15 min) after: {load}.",
        END,
    ]
    return "\n".join(lines)


def write(document: Path, section: str) -> None:
    """Replace the section between the markers, or add it before the language server's."""
    replace_section(document, section, BEGIN, END, before="<!-- lsp-bench: begin -->")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="replace the section of this Markdown file")
    parser.add_argument("--repetitions", type=int, default=None, help="runs per corpus (3)")
    parser.add_argument(
        "--quick", action="store_true", help="the corpora of bench.speed --quick, one run each"
    )
    args = parser.parse_args(argv)
    repetitions = args.repetitions or (1 if args.quick else 3)
    conversations = QUICK_CONVERSATIONS if args.quick else CONVERSATIONS
    rows = measure(repetitions, conversations)
    if not rows:
        quick = " --quick" if args.quick else ""
        print(f"no inputs in bench-data/: run python -m bench.speed{quick} first", file=sys.stderr)
        return 1
    section = report(rows, repetitions)
    print(section)
    if args.write:
        write(args.write, section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
