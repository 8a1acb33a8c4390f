#!/usr/bin/env python3
"""Time the language server on the 3,500-conversation file: edit-to-diagnostics latency,
and how many validations a burst of edits triggers.

``holodeck-mt lsp`` runs as an editor runs it (a process on stdio), driven by the test
suite's LSP client (tests/editor/lsp_client.py). The file is opened, then:

- latency: one edit at a time, timed from sending ``didChange`` to the
  ``publishDiagnostics`` of that version; target: within 1 s (idle machine). Each pair of
  edits takes the next quoted number of a ground truth: the first unquotes it (a number,
  an error appears), the second quotes it again in double quotes (it goes). No text is
  ever sent twice, as no one types the same file twice: a validation of a text seen before
  would time the validator's own memory of it, not an edit;
- open: from ``didOpen`` to the first diagnostics; target: within 2 s;
- burst: 20 edits 50 ms apart (one second), then the validations the server ran for them,
  from its log (``window/logMessage``); target: at most 2.

    python -m bench.lsp                      # print the figures
    python -m bench.lsp --file bench-data/authors-3500-one-file.yaml
    python -m bench.lsp --write docs/performance.md   # and replace its section
    python -m bench.lsp --quick                      # a smoke run on the 350 conversations

``make bench`` runs it after bench/speed.py, which rewrites docs/performance.md first.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench import replace_section
from bench.speed import CONVERSATIONS, DATA, QUICK_CONVERSATIONS, compile_bytecode
from tests.editor import lsp_client
from tests.support import corpus as generator

LATENCY_LIMIT = 1.0
OPEN_LIMIT = 2.0
BURST_EDITS, BURST_SECONDS, BURST_LIMIT = 20, 1.0, 2
BEGIN, END = "<!-- lsp-bench: begin -->", "<!-- lsp-bench: end -->"
_VALIDATION = re.compile(r"^validating (\S+) version (\d+)")
_CPU = re.compile(r"^published .*\(CPU (\d+) ms\)")
#: A ground truth written as a quoted number: unquoted, it is an ``HMT102``.
_QUOTED_NUMBER = re.compile(r"ground_truth: '(-?[0-9][0-9.]*)'")


def corpus(conversations: int = CONVERSATIONS) -> Path:
    """The generated corpus in one file (made once, as bench/speed.py makes it)."""
    path = DATA / f"corpus-{conversations}.yaml"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        generator.main(["--conversations", str(conversations), "--seed", "0", "--out", str(path)])
    return path


class Session:
    """One server with the corpus open."""

    def __init__(self, path: Path) -> None:
        self.client = lsp_client.LspClient(
            [sys.executable, "-m", "holodeck_mt", "lsp"],
            settings=lambda section: None,
            timeout=120.0,
        )
        self.client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": path.parent.as_uri(),
                "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
                "initializationOptions": {"schemaDiagnostics": True},
            },
        )
        self.client.notify("initialized", {})
        self.uri = path.as_uri()
        self.text = path.read_text(encoding="utf-8")
        self.version = 1
        started = time.perf_counter()
        self.client.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": self.uri,
                    "languageId": "yaml",
                    "version": 1,
                    "text": self.text,
                }
            },
        )
        self.client.wait_for_diagnostics(self.uri)
        self.open_seconds = time.perf_counter() - started
        self.spots = _quoted_numbers(self.text)
        self.edits = 0

    def edit(self) -> None:
        """The next edit: an even one unquotes the next quoted number (an error appears), an
        odd one quotes it again, in double quotes (it goes): every text is new."""
        line, character, number = self.spots[self.edits // 2]
        if self.edits % 2 == 0:
            old, new = f"'{number}'", number
        else:
            old, new = number, f'"{number}"'
        self.edits += 1
        self.version += 1
        start = {"line": line, "character": character}
        end = {"line": line, "character": character + len(old)}
        change = {"range": {"start": start, "end": end}, "text": new}
        self.client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": self.uri, "version": self.version},
                "contentChanges": [change],
            },
        )

    def wait_for_version(self, version: int, timeout: float = 120.0) -> list[dict[str, Any]]:
        """The diagnostics the server publishes for ``version`` of the document."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for params in reversed(self.client.notifications("textDocument/publishDiagnostics")):
                if params["uri"] == self.uri and params.get("version") == version:
                    return list(params["diagnostics"])
            time.sleep(0.002)
        raise TimeoutError(f"no diagnostics for version {version} in {timeout} s")

    def validations(self) -> int:
        """Validations the server has started so far, from its log."""
        return sum(
            1
            for p in self.client.notifications("window/logMessage")
            if _VALIDATION.match(str(p.get("message", "")))
        )

    def cpu_seconds(self) -> list[float]:
        """The CPU time of each published validation, from the server's log."""
        found = (
            _CPU.match(str(p.get("message", "")))
            for p in self.client.notifications("window/logMessage")
        )
        return [int(m.group(1)) / 1000 for m in found if m]

    def close(self) -> None:
        self.client.close()


def _quoted_numbers(text: str) -> list[tuple[int, int, str]]:
    """Where each ground truth written as a quoted number stands: its line, the column of
    its opening quote (the lines are ASCII up to it), and the number."""
    found = []
    for number, line in enumerate(text.splitlines()):
        matched = _QUOTED_NUMBER.search(line)
        if matched is not None and line.isascii():
            found.append((number, matched.start(1) - 1, matched.group(1)))
    return found


def measure(path: Path, repetitions: int) -> dict[str, Any]:
    load_before = _load()
    session = Session(path)
    try:
        if len(session.spots) < repetitions + BURST_EDITS // 2:
            raise AssertionError(f"{path} has too few ground truths written as quoted numbers")
        latencies = []
        codes = [sorted(d["code"] for d in session.client.wait_for_diagnostics(session.uri))]
        for _ in range(repetitions * 2):
            started = time.perf_counter()
            session.edit()
            found = session.wait_for_version(session.version)
            latencies.append(time.perf_counter() - started)
            codes.append(sorted(d["code"] for d in found))
        before = session.validations()
        started = time.perf_counter()
        for _ in range(BURST_EDITS):
            session.edit()
            time.sleep(BURST_SECONDS / BURST_EDITS)
        sent = time.perf_counter() - started
        session.wait_for_version(session.version)
        burst_latency = time.perf_counter() - started - sent
        burst_validations = session.validations() - before
        if any(a == b for a, b in itertools.pairwise(codes)):
            raise AssertionError(f"an edit did not change the diagnostics: {codes}")
        return {
            "name": path.name,
            "cpu": session.cpu_seconds()[1:],
            "size_mb": len(session.text.encode("utf-8")) / 1e6,
            "open": session.open_seconds,
            "latencies": latencies,
            "burst_seconds": sent,
            "burst_validations": burst_validations,
            "burst_latency": burst_latency,
            "load_before": load_before,
            "load_after": _load(),
        }
    finally:
        session.close()


def _load() -> str:
    """The load average (1, 5, 15 min)."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def report(figures: dict[str, Any]) -> str:
    from holodeck_mt.lsp.server import DEBOUNCE

    latencies = figures["latencies"]
    worst = max(latencies)
    ok_latency = worst <= LATENCY_LIMIT
    ok_burst = figures["burst_validations"] <= BURST_LIMIT
    ok_open = figures["open"] <= OPEN_LIMIT
    return "\n".join(
        [
            BEGIN,
            "## Language server (`holodeck-mt lsp`)",
            "",
            "Measured by `make bench` (`python -m bench.lsp --write docs/performance.md`): "
            "the server runs as a process on stdio, driven by the test suite's LSP client, with "
            f"`{figures['name']}` open ({figures['size_mb']:.1f} MB). Each pair of edits takes "
            "the next ground truth written as a quoted number: the first unquotes it (an "
            "`HMT102` appears), the second quotes it again in double quotes (it goes), so no "
            "text is validated twice; latency runs from sending `didChange` to receiving the "
            "`publishDiagnostics` of that version. An edit after a pause is validated at once; "
            "the edits of a burst are debounced into one more validation.",
            "",
            "| what | figure | target | verdict |",
            "|---|---:|---|---|",
            f"| open: first diagnostics | {figures['open']:.2f} s | <= {OPEN_LIMIT} s | "
            f"**{'PASS' if ok_open else 'FAIL'}** |",
            f"| edit to diagnostics, median of {len(latencies)} | "
            f"{statistics.median(latencies):.2f} s | | |",
            f"| validation CPU time, median (server thread) | "
            f"{statistics.median(figures['cpu']):.2f} s | | |",
            f"| validation CPU time, worst (server thread) | {max(figures['cpu']):.2f} s | | |",
            f"| edit to diagnostics, worst of {len(latencies)} | {worst:.2f} s | "
            f"<= {LATENCY_LIMIT} s | **{'PASS' if ok_latency else 'FAIL'}** |",
            f"| burst: {BURST_EDITS} edits in {figures['burst_seconds']:.2f} s, validations run "
            f"| {figures['burst_validations']} | <= {BURST_LIMIT} | "
            f"**{'PASS' if ok_burst else 'FAIL'}** |",
            f"| burst: last edit to its diagnostics | {figures['burst_latency']:.2f} s | | |",
            "",
            f"Load average (1, 5, 15 min) before: {figures['load_before']}; after: "
            f"{figures['load_after']}, on {os.cpu_count()} cores. Wall-clock "
            "latency waits for the CPU when other processes hold it; the validation's CPU time "
            f"does not. The debounce is {DEBOUNCE} s.",
            END,
        ]
    )


def write(document: Path, section: str) -> None:
    """Replace the section between the markers, or append it."""
    replace_section(document, section, BEGIN, END)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="replace the section of this Markdown file")
    parser.add_argument("--repetitions", type=int, default=None, help="timed edit pairs (5)")
    parser.add_argument(
        "--file", type=Path, help="the file to open (default: the generated 3,500 conversations)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="the 350 conversations, 2 timed edit pairs"
    )
    args = parser.parse_args(argv)
    repetitions = args.repetitions or (2 if args.quick else 5)
    compile_bytecode()
    if args.file:
        opened = args.file.resolve()
    else:
        opened = corpus(QUICK_CONVERSATIONS if args.quick else CONVERSATIONS)
    figures = measure(opened, repetitions)
    section = report(figures)
    print(section)
    shown = " ".join(f"{seconds:.2f}" for seconds in figures["latencies"])
    print(f"edits, s: {shown}; load before: {figures['load_before']}", file=sys.stderr)
    if args.write:
        write(args.write, section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
