"""The run itself under hostile conditions: odd file names, Ctrl-C, bad options,
closed streams, a worker process that dies. Each ends with the right exit code
and no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import pytest

from holodeck_mt.app import cli
from holodeck_mt.render import FORMATS
from tests.hostile.test_hostile import GUARD, ROOT, diagnostics, run_cli
from tests.timeouts import scaled

VALID = "test_cases:\n  - input: hi\n"
INVALID = "test_cases:\n  - input: 1\n"


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("encoding", ["", "utf-8", "ascii"])
def test_a_file_name_that_is_not_utf8_is_reported_in_every_format(
    fmt: str, encoding: str, tmp_path: Path
) -> None:
    folder = os.fsencode(tmp_path) + b"/caf\xe9\xff"
    os.mkdir(folder)
    with open(folder + b"/agent.yaml", "w") as file:
        file.write(INVALID)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    done = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "validate", ".", "--format", fmt, "-j", "1"],
        cwd=tmp_path,
        capture_output=True,
        timeout=GUARD,
        env=env,
    )
    assert b"Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode("utf-8")
    if fmt in ("json", "sarif"):
        out = json.dumps(json.loads(out))  # one level of escaping, as in the other formats
        out = out.replace("\\\\", "\\")
    if fmt == "markdown":
        out = out.replace("\\\\", "\\")  # Markdown's backslash before a backslash
    assert ("caf%5Cxe9%5Cxff" if fmt == "sarif" else "caf\\xe9\\xff") in out


def test_ctrl_c_ends_quietly_with_exit_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(job: object) -> NoReturn:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_run", interrupted)
    (tmp_path / "agent.yaml").write_text(VALID)
    code = cli.main(["validate", str(tmp_path / "agent.yaml"), "--jobs", "1"])
    captured = capsys.readouterr()
    assert code == 130
    assert (captured.out, captured.err) == ("", "")


def test_ctrl_c_on_a_real_run_is_quiet(tmp_path: Path) -> None:
    import signal

    (tmp_path / "agent.yaml").write_text(
        "test_cases:\n" + "".join(f"  - input: {i}\n" for i in range(400_000))
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "holodeck_mt", "validate", "agent.yaml"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    _wait_until_busy(process, cpu_seconds=1.0)  # past start-up, inside the run
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=GUARD)
    if process.returncode in (0, 1):  # finished before the signal: nothing to check
        pytest.skip("the run ended before Ctrl-C")
    assert process.returncode == 130
    assert err == b""


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (Linux's /proc), None where unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_until_busy(process: subprocess.Popen[bytes], cpu_seconds: float) -> None:
    """Wait until ``process`` has used ``cpu_seconds`` of CPU (start-up takes a fraction of
    that), or has ended: on a loaded machine the wait grows with the load, where a fixed
    sleep would signal a process still starting. Without /proc, a generous sleep."""
    import time

    deadline = time.monotonic() + scaled(GUARD)
    while process.poll() is None and time.monotonic() < deadline:
        used = _cpu_seconds(process.pid)
        if used is None:
            time.sleep(scaled(2.0))
            return
        if used >= cpu_seconds:
            return
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--max-file-size", "inf"),
        ("--max-file-size", "nan"),
        ("--max-file-size", "9e18g"),
        ("--max-file-size", "99999999t"),
        ("--max-file-size", "-1"),
        ("--max-file-size", "0"),
        ("--max-file-size", ""),
        ("--max-depth", "0"),
        ("--max-depth", "1e3"),
        ("--max-depth", "99999999999999999999"),
        ("--max-depth", "100000"),  # deeper than the walkers' stack
        ("--max-alias-nodes", "-5"),
        ("--max-diagnostics", "-1"),
        ("--jobs", "0"),
        ("--jobs", "100000"),
    ],
)
def test_a_bad_option_value_is_a_usage_error(option: str, value: str, tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text(VALID)
    code, _out, err = run_cli("agent.yaml", option, value, cwd=tmp_path)
    assert code == 2
    assert "Traceback" not in err
    assert option in err and "error: argument" in err


@pytest.mark.parametrize("value", ["1k", "64M", "1.5m", "1g", "2048", "512kb"])
def test_a_good_size_is_taken(value: str, tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text(VALID)
    assert run_cli("agent.yaml", "--max-file-size", value, cwd=tmp_path)[0] == 0


@pytest.mark.parametrize("closed", ["1", "2", "1 2"])
@pytest.mark.parametrize(
    ("content", "args", "expected"),
    [
        (VALID, ["agent.yaml"], 0),
        (INVALID, ["agent.yaml"], 1),
        (VALID, ["absent.yaml"], 2),
    ],
)
def test_the_exit_code_does_not_depend_on_a_closed_stream(
    closed: str, content: str, args: list[str], expected: int, tmp_path: Path
) -> None:
    (tmp_path / "agent.yaml").write_text(content)
    closing = " ".join(f"{fd}>&-" for fd in closed.split())
    command = f"{sys.executable} -m holodeck_mt validate {' '.join(args)} -j 1 {closing}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["sh", "-c", command], cwd=tmp_path, capture_output=True, timeout=GUARD, env=env
    )
    assert done.returncode == expected, done.stderr
    assert b"Traceback" not in done.stderr


def _die_on_b(job: cli._Job) -> tuple[list[object], str | None]:
    if "/b" in job.path:
        os._exit(3)  # as a worker killed by the kernel for its memory would
    return cli._Run_original(job)  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize("killers", [["b"], ["b1", "b2"]], ids=["one", "two"])
@pytest.mark.parametrize("others", [3, 16], ids=["a-chunk-each", "chunks-of-several"])
def test_a_dead_worker_costs_only_its_own_file(
    others: int,
    killers: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(cli, "_Run_original", cli._run, raising=False)
    monkeypatch.setattr(cli, "_run", _die_on_b)
    names = ["a", *killers, *(f"c{i:02}" for i in range(others - 1))]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "agent.yaml").write_text(INVALID)
    code = cli.main(["validate", str(tmp_path), "--jobs", "2", "--format", "json"])
    captured = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in captured.err
    lines = captured.err.splitlines()
    assert len(lines) == len(killers)
    for line, killer in zip(lines, killers, strict=True):
        assert "internal error while validating" in line and f"/{killer}/agent.yaml" in line
    files = json.loads(captured.out)["files"]
    assert sorted(Path(f["path"]).parent.name for f in files) == sorted(set(names) - set(killers))
    assert all(f["diagnostics"][0]["code"] == "HMT102" for f in files)
    assert diagnostics(captured.out)


@pytest.mark.parametrize(
    ("content", "args", "expected"),
    [
        (VALID, ["agent.yaml"], 0),
        (INVALID, ["agent.yaml"], 1),
        (VALID, ["absent.yaml"], 2),
    ],
)
@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_the_exit_code_does_not_depend_on_a_reader_gone(
    stream: str, content: str, args: list[str], expected: int, tmp_path: Path
) -> None:
    (tmp_path / "agent.yaml").write_text(content)
    read, write = os.pipe()
    os.close(read)  # every write to the pipe fails (EPIPE)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    other = subprocess.DEVNULL
    try:
        done = subprocess.run(
            [sys.executable, "-m", "holodeck_mt", "validate", *args, "-j", "1"],
            cwd=tmp_path,
            stdout=write if stream == "stdout" else other,
            stderr=write if stream == "stderr" else other,
            timeout=GUARD,
            env=env,
        )
    finally:
        os.close(write)
    assert done.returncode == expected
