"""The benchmark harness runs end to end on tiny inputs (a smoke test, not a benchmark)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.conftest import load_script

ROOT = Path(__file__).resolve().parent.parent


bench = load_script("bench")

MEASURED = ["floor", "ours", "pass", "imports", "floor_tiny", "ours_tiny"]


def test_a_quick_run_prints_the_table_and_a_verdict_per_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "performance.md"
    argv = ["--quick", "--conversations", "20", "--agents", "2", "--repeat", "1", "--warmup", "0"]
    argv += ["--data-dir", str(tmp_path / "data"), "--only", ",".join(MEASURED)]
    code = bench.main([*argv, "--write", str(report)])
    out = capsys.readouterr().out

    assert code == 0
    assert "| what | median s | min-max s | CPU s | x floor | peak MB | x floor peak |" in out
    assert re.search(
        r"\| floor: C safe-load \| \d+\.\d{3} \| [\d.]+-[\d.]+ \| [\d.]+ \| 1\.00 \|", out
    )
    assert re.search(r"\| python -c pass \| \d+\.\d{3} \|", out)
    assert "| validator --jobs 1 | not measured (--only) |" in out
    targets = out.split("## Targets", 1)[1]
    verdicts = re.findall(r"\*\*(PASS|FAIL|FAIL \(not measured\))\*\*", targets)
    assert len(verdicts) == 16
    assert "- CPU: " in out and "- Python: " in out
    assert report.read_text(encoding="utf-8").strip() == out.strip()


def test_every_row_can_be_chosen_with_only(tmp_path: Path) -> None:
    sizes = bench.Sizes(conversations=10, agents=1, agent_conversations=1, seed=0)
    inputs = bench.prepare(tmp_path, sizes, None)
    assert [row.key for row in bench.build_rows(inputs, sizes)] == bench.ROW_KEYS


def test_a_failing_command_is_reported_in_its_row_not_raised() -> None:
    row = bench.Row("x", "group", "broken", [sys.executable, "-c", "raise SystemExit('boom')"])
    bench.measure([row], repeat=1, warmup=0, progress=False)
    assert not row.ok
    assert row.error == "exit 1, expected 0: boom"
    assert "error: exit 1, expected 0: boom" in "\n".join(bench.table([row]))


def test_an_unsupported_jobs_option_makes_the_row_not_applicable() -> None:
    code = "import sys; print('error: unrecognized arguments: --jobs 1'); sys.exit(2)"
    row = bench.Row("x", "group", "jobs", [sys.executable, "-c", code, "--jobs", "1"])
    bench.measure([row], repeat=1, warmup=0, progress=False)
    assert row.na == "n/a: --jobs not supported"
