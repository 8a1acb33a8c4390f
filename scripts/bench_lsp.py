#!/usr/bin/env python3
"""Time the language server on the 3,500-conversation file: edit-to-diagnostics latency,
and how many validations a burst of edits triggers.

``holodeck-mt lsp`` runs as an editor runs it (a process on stdio), driven by the test
suite's LSP client (tests/editor/lsp_client.py). The file is opened, then:

- latency: one edit at a time (a ground truth turned into a number and back, so the
  diagnostics change), timed from sending ``didChange`` to the ``publishDiagnostics`` of
  that version; target: within 1 s (idle machine);
- open: from ``didOpen`` to the first diagnostics; target: within 2 s;
- burst: 20 edits 50 ms apart (one second), then the validations the server ran for them,
  from its log (``window/logMessage``); target: at most 2.

    python scripts/bench_lsp.py                      # print the figures
    python scripts/bench_lsp.py --write docs/performance.md   # and replace its section

``make bench`` runs it after scripts/bench.py, which rewrites docs/performance.md first.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import generate_corpus
from repo import ROOT, import_from_root, replace_section

DATA = ROOT / "bench-data"
CONVERSATIONS = 3500
LATENCY_LIMIT = 1.0
OPEN_LIMIT = 2.0
BURST_EDITS, BURST_SECONDS, BURST_LIMIT = 20, 1.0, 2
BEGIN, END = "<!-- lsp-bench: begin -->", "<!-- lsp-bench: end -->"
_VALIDATION = re.compile(r"^validating (\S+) version (\d+)")
_CPU = re.compile(r"^published .*\(CPU (\d+) ms\)")


def corpus() -> Path:
    """The generated 3,500-conversation file (made once, as scripts/bench.py makes it)."""
    path = DATA / f"corpus-{CONVERSATIONS}.yaml"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        generate_corpus.main(
            ["--conversations", str(CONVERSATIONS), "--seed", "0", "--out", str(path)]
        )
    return path


class Session:
    """One server with the corpus open."""

    def __init__(self, path: Path) -> None:
        lsp_client = import_from_root("tests.editor.lsp_client")
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
        # Where to type: the first quoted ground truth, unquoted and quoted again in turn.
        line_number = next(
            i for i, line in enumerate(self.text.splitlines()) if "ground_truth: '" in line
        )
        line = self.text.splitlines()[line_number]
        start = line.index("ground_truth: '") + len("ground_truth: ")
        self.quoted = line[start : line.index("'", start + 1) + 1]
        self.at = {"line": line_number, "character": start}

    def edit(self, quote: bool) -> None:
        """Write the ground truth unquoted (``quote`` False: a number, an error) or quoted."""
        self.version += 1
        unquoted = self.quoted.strip("'")
        old, new = (unquoted, self.quoted) if quote else (self.quoted, unquoted)
        at = self.at
        end = {"line": at["line"], "character": at["character"] + len(old)}
        change = {"range": {"start": at, "end": end}, "text": new}
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


def measure(repetitions: int) -> dict[str, Any]:
    session = Session(corpus())
    try:
        latencies = []
        codes: set[tuple[str, ...]] = set()
        for i in range(repetitions * 2):
            started = time.perf_counter()
            session.edit(quote=i % 2 == 1)
            found = session.wait_for_version(session.version)
            latencies.append(time.perf_counter() - started)
            codes.add(tuple(sorted(d["code"] for d in found)))
        before = session.validations()
        started = time.perf_counter()
        for i in range(BURST_EDITS):
            session.edit(quote=i % 2 == 1)
            time.sleep(BURST_SECONDS / BURST_EDITS)
        sent = time.perf_counter() - started
        session.wait_for_version(session.version)
        burst_latency = time.perf_counter() - started - sent
        burst_validations = session.validations() - before
        if len(codes) != 2:
            raise AssertionError(f"the edits did not change the diagnostics: {codes}")
        return {
            "cpu": session.cpu_seconds()[1:],
            "size_mb": len(session.text.encode("utf-8")) / 1e6,
            "open": session.open_seconds,
            "latencies": latencies,
            "burst_seconds": sent,
            "burst_validations": burst_validations,
            "burst_latency": burst_latency,
        }
    finally:
        session.close()


def report(figures: dict[str, Any]) -> str:
    from holodeck_mt.lsp.server import DEBOUNCE

    latencies = figures["latencies"]
    worst = max(latencies)
    ok_latency = worst <= LATENCY_LIMIT
    ok_burst = figures["burst_validations"] <= BURST_LIMIT
    ok_open = figures["open"] <= OPEN_LIMIT
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    return "\n".join(
        [
            BEGIN,
            "## Language server (`holodeck-mt lsp`)",
            "",
            "Measured by `make bench` (`python scripts/bench_lsp.py --write docs/performance.md`): "
            "the server runs as a process on stdio, driven by the test suite's LSP client, with "
            f"the {CONVERSATIONS:,}-conversation file open ({figures['size_mb']:.1f} MB). Each "
            "edit unquotes a ground truth (an `HMT102` appears) or quotes it again (it goes); "
            "latency runs from sending `didChange` to receiving the `publishDiagnostics` of that "
            "version. An edit after a pause is validated at once; the edits of a burst are "
            "debounced into one more validation.",
            "",
            "| what | figure | target | verdict |",
            "|---|---:|---|---|",
            f"| open: first diagnostics | {figures['open']:.2f} s | <= {OPEN_LIMIT} s | "
            f"**{'PASS' if ok_open else 'FAIL'}** |",
            f"| edit to diagnostics, median of {len(latencies)} | "
            f"{statistics.median(latencies):.2f} s | | |",
            f"| validation CPU time, median (server thread) | "
            f"{statistics.median(figures['cpu']):.2f} s | | |",
            f"| edit to diagnostics, worst of {len(latencies)} | {worst:.2f} s | "
            f"<= {LATENCY_LIMIT} s | **{'PASS' if ok_latency else 'FAIL'}** |",
            f"| burst: {BURST_EDITS} edits in {figures['burst_seconds']:.2f} s, validations run "
            f"| {figures['burst_validations']} | <= {BURST_LIMIT} | "
            f"**{'PASS' if ok_burst else 'FAIL'}** |",
            f"| burst: last edit to its diagnostics | {figures['burst_latency']:.2f} s | | |",
            "",
            f"Load average (1, 5, 15 min) after: {load}, on {os.cpu_count()} cores. Wall-clock "
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
    parser.add_argument("--repetitions", type=int, default=5, help="timed edit pairs")
    args = parser.parse_args(argv)
    figures = measure(args.repetitions)
    section = report(figures)
    print(section)
    if args.write:
        write(args.write, section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
