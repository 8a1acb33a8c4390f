"""The benchmark harness runs end to end on tiny inputs (a smoke test, not a benchmark)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from bench import speed as bench
from bench import stages

ROOT = Path(__file__).resolve().parent.parent


MEASURED = ["floor", "ours", "pass", "imports", "floor_tiny", "ours_tiny"]


@pytest.mark.slow
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
    assert "- builders: `holodeck_mt.read._fastbuild` " in out
    assert report.read_text(encoding="utf-8").strip() == out.strip()


def test_every_row_can_be_chosen_with_only(tmp_path: Path) -> None:
    sizes = bench.Sizes(conversations=10, agents=1, agent_conversations=1, seed=0)
    inputs = bench.prepare(tmp_path, sizes, None)
    assert [row.key for row in bench.build_rows(inputs, sizes)] == bench.ROW_KEYS


def test_the_stages_are_measured_on_the_corpora_the_speed_run_wrote(tmp_path: Path) -> None:
    assert stages.corpora(tmp_path, 10) == []
    sizes = bench.Sizes(conversations=10, agents=1, agent_conversations=1, seed=0)
    bench.prepare(tmp_path, sizes, None)
    found = stages.corpora(tmp_path, 10)
    assert [(title, [p.name for p in paths]) for title, paths in found] == [
        ("10 conversations, valid", ["corpus-10.yaml"]),
        ("10 conversations as authors write them", ["authors-10.yaml"]),
        ("10 conversations in one file", ["authors-10-one-file.yaml"]),
    ]
    (title, figures), *_ = stages.measure(1, 10, tmp_path)
    assert title == "10 conversations, valid"
    assert {*stages.STAGES, "total"} <= set(figures)


def test_a_corpus_over_the_platforms_limit_is_read_from_its_parts() -> None:
    files = bench.corpus_files(Path("data"), "corpus-3500", 3500)
    assert [p.name for p in files] == [f"corpus-3500.part{i}of4.yaml" for i in range(1, 5)]
    assert stages.corpora(Path("no-such-folder"), 3500) == []


@pytest.mark.slow
def test_a_failing_command_is_reported_in_its_row_not_raised() -> None:
    row = bench.Row("x", "group", "broken", [sys.executable, "-c", "raise SystemExit('boom')"])
    bench.measure([row], repeat=1, warmup=0, progress=False)
    assert not row.ok
    assert row.error == "exit 1, expected 0: boom"
    assert "error: exit 1, expected 0: boom" in "\n".join(bench.table([row]))


@pytest.mark.slow
def test_an_unsupported_jobs_option_makes_the_row_not_applicable() -> None:
    code = "import sys; print('error: unrecognized arguments: --jobs 1'); sys.exit(2)"
    row = bench.Row("x", "group", "jobs", [sys.executable, "-c", code, "--jobs", "1"])
    bench.measure([row], repeat=1, warmup=0, progress=False)
    assert row.na == "n/a: --jobs not supported"


def test_the_validators_rows_name_their_builder_and_the_pure_one_is_forced(
    tmp_path: Path,
) -> None:
    sizes = bench.Sizes(conversations=10, agents=1, agent_conversations=1, seed=0)
    inputs = bench.prepare(tmp_path, sizes, None)
    rows = {row.key: row for row in bench.build_rows(inputs, sizes, "/site/_fastbuild.so")}
    for default, what in [
        ("ours", "validator, valid"),
        ("ours_authors", "validator (warnings only)"),
    ]:
        pure = rows[f"{default}_pure"]
        assert rows[default].label == f"{what}, compiled builder"
        assert pure.label == f"{what}, pure-Python builder (HOLODECK_MT_PURE_BUILDER=1)"
        assert rows[default].env == {}
        assert pure.env == {"HOLODECK_MT_PURE_BUILDER": "1"}
        assert pure.argv == rows[default].argv
    without = {row.key: row for row in bench.build_rows(inputs, sizes, None)}
    assert without["ours"].label == "validator, valid, pure-Python builder (no compiled one)"
    assert "does not import here" in bench.builders_note(None)


@pytest.mark.slow
def test_a_row_runs_with_its_own_environment_and_the_default_builder_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HOLODECK_MT_PURE_BUILDER", "1")
    code = "import os, sys; sys.exit(os.environ.get('HOLODECK_MT_PURE_BUILDER', 'unset') != {!r})"
    default = bench.Row("d", "group", "default", [sys.executable, "-c", code.format("unset")])
    pure = bench.Row("p", "group", "pure", [sys.executable, "-c", code.format("1")])
    pure.env["HOLODECK_MT_PURE_BUILDER"] = "1"
    bench.measure([default, pure], repeat=1, warmup=0, progress=False)
    assert default.ok, default.error
    assert pure.ok, pure.error
