"""No input reaches a terminal or a CI log raw: control characters escaped, no forged command.

A test-case name holding ESC sequences must not repaint the terminal, a bidi
override must not reorder what a reviewer reads, and a newline followed by
``::error ...`` must not become a line GitHub Actions executes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from holodeck_mt.render import FORMATS
from tests.hostile.test_hostile import run_cli

FORGED = "::error file=README.md,line=1::forged"
NASTY = "\x1b[2J\x1b[32mAll 1 file valid.\x1b[0m\n" + FORGED + "\u202e\x85\x07\r"
#: What must never reach the output raw: C0 (but newline and tab), DEL, C1, bidi.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _yaml_string(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def _write_nasty(folder: Path) -> None:
    name = _yaml_string(NASTY)
    (folder / "agent.yaml").write_text(
        f"test_cases:\n  - name: {name}\n    input: 1\n  - name: {name}\n    input: x\n"
        f"    {name}: 1\n"
    )


def _command_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.lstrip(" \t").startswith("::")]


@pytest.mark.parametrize("fmt", FORMATS)
def test_control_characters_in_a_name_are_escaped_and_no_line_is_forged(
    fmt: str, tmp_path: Path
) -> None:
    _write_nasty(tmp_path)
    code, out, err = run_cli("agent.yaml", "--format", fmt, cwd=tmp_path)
    assert code == 1, err
    assert not RAW.search(out), RAW.findall(out)
    commands = _command_lines(out)
    if fmt == "github":  # our own annotations, and nothing else
        assert commands and all(
            c.startswith(("::error file=agent.yaml,", "::warning file=agent.yaml,"))
            for c in commands
        )
    else:
        assert commands == []
    if fmt == "json":  # escaping keeps the data: the name reads back exactly
        names = {d["test_case"] for f in json.loads(out)["files"] for d in f["diagnostics"]}
        assert any(n and n.startswith("\x1b[2J") for n in names)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_name_that_starts_with_a_command_forges_nothing(fmt: str, tmp_path: Path) -> None:
    name = "::error file=x::forged.yaml"
    (tmp_path / name).write_text("test_cases:\n  - input: 1\n")
    _, out, err = run_cli(name, "--format", fmt, cwd=tmp_path)
    assert "Traceback" not in err
    commands = _command_lines(out)
    assert all(c.startswith(("::error file=%3A%3Aerror", "::warning")) for c in commands), commands


def test_a_folder_name_with_a_newline_reaches_stderr_escaped(tmp_path: Path) -> None:
    folder = tmp_path / ("a\n" + FORGED + "\x1b[2J")
    folder.mkdir()
    code, _, err = run_cli(folder.name, cwd=tmp_path)
    assert code == 2
    assert not RAW.search(err)
    assert err.count("\n") == 1 and err.startswith("holodeck-mt: error: ")
    assert "\\n::error" in err and "\\x1b[2J" in err


def test_a_usage_error_quoting_an_argument_is_escaped(tmp_path: Path) -> None:
    code, out, err = run_cli("--format", "x\n" + FORGED + "\x1b[2J", cwd=tmp_path)
    assert code == 2
    assert out == ""
    assert not RAW.search(err)
    assert _command_lines(err) == []


def test_the_source_excerpt_escapes_the_line_it_quotes(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text(
        'test_cases:\n  - input: 1\n    name: "\\e[2J"\n    x: \x85\n'
    )
    _, out, _ = run_cli("agent.yaml", cwd=tmp_path)
    assert not RAW.search(out)


def test_explain_escapes_a_path_it_cannot_read(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from tests.hostile.test_hostile import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "explain", "a\n" + FORGED + "\x1b[2J"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 2
    assert not RAW.search(done.stderr)
    assert _command_lines(done.stderr) == []
