"""A file judged in two roles is reported in each, in every format, and fails the run.

A pull request can make one file two things: an agent.yaml whose ``test_cases_file`` names
itself (the platform refuses it: it is no list of test cases), two agent.yaml files naming
each other, one test-cases file named by two agent.yaml files that judge it differently. The
run keeps one result per verdict, not per path: a second role's failure is never dropped
(a file named twice and judged alike is shown once).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.render import FORMATS

AGENT = """\
name: {name}
model: {{provider: openai, name: gpt-4o}}
instructions: {{inline: hi}}
test_cases_file: {target}
"""
#: A test case whose file exists beside one agent.yaml and not beside the other.
CASES = """\
- name: one
  turns:
    - input: "describe the chart"
      files:
        - path: "./data/chart.png"
          type: image
"""

#: What each case must report: (path, line, code, message).
Fault = tuple[str, int, str, str]
AS_TEST_CASES = [
    (2, "HMT100", "unknown key 'name' in test-cases file"),
    (2, "HMT101", "missing required key `test_cases` in test-cases file"),
    (3, "HMT100", "unknown key 'model' in test-cases file"),
    (4, "HMT100", "unknown key 'instructions' in test-cases file"),
    (5, "HMT100", "unknown key 'test_cases_file' in test-cases file"),
]


def _self_named(root: Path) -> tuple[list[str], list[Fault]]:
    (root / "agent.yaml").write_text(
        "# names itself\n" + AGENT.format(name="a", target="agent.yaml")
    )
    return ["agent.yaml"], [("agent.yaml", *fault) for fault in AS_TEST_CASES]


def _each_other(root: Path) -> tuple[list[str], list[Fault]]:
    (root / "b").mkdir()
    (root / "agent.yaml").write_text("# a\n" + AGENT.format(name="a", target="b/agent.yaml"))
    (root / "b" / "agent.yaml").write_text("# b\n" + AGENT.format(name="b", target="../agent.yaml"))
    faults = [(path, *f) for path in ("b/agent.yaml", "agent.yaml") for f in AS_TEST_CASES]
    return ["."], faults


def _named_twice(root: Path) -> tuple[list[str], list[Fault]]:
    """``a/`` holds the file ``shared/cases.yaml`` names, ``b/`` does not: checked through
    ``a`` first (valid), the verdict through ``b`` is the one that fails."""
    for name in ("a", "b"):
        (root / name).mkdir()
        (root / name / "agent.yaml").write_text(AGENT.format(name=name, target="../shared/c.yaml"))
    (root / "a" / "data").mkdir()
    (root / "a" / "data" / "chart.png").write_bytes(b"\x89PNG\r\n")
    (root / "shared").mkdir()
    (root / "shared" / "c.yaml").write_text(CASES)
    message = "file './data/chart.png' not found (looked for b/data/chart.png)"
    return [".", "--check-files"], [("shared/c.yaml", 5, "HMT112", message)]


CASES_BY_NAME = {
    "an agent naming itself": _self_named,
    "two agents naming each other": _each_other,
    "a test-cases file two agents judge differently": _named_twice,
}


@pytest.fixture(params=list(CASES_BY_NAME))
def case(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], list[Fault]]:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return CASES_BY_NAME[request.param](tmp_path)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["validate", *args])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_each_roles_diagnostics_are_in_the_json_report(
    case: tuple[list[str], list[Fault]], capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    given, faults = case
    for _ in range(2):  # afresh, then from the result cache
        code, out = _run(capsys, *given, "--format", "json", "--jobs", jobs)
        document = json.loads(out)
        found = [
            (f["path"], d["line"], d["code"], d["message"])
            for f in document["files"]
            for d in f["diagnostics"]
        ]
        assert code == 1
        assert sorted(found) == sorted(faults)
        assert document["summary"]["errors"] == len(faults)


def test_each_roles_diagnostics_are_in_the_text_report(
    case: tuple[list[str], list[Fault]], capsys: pytest.CaptureFixture[str]
) -> None:
    given, faults = case
    code, out = _run(capsys, *given, "--jobs", "1", "--no-cache")
    headlines = re.findall(r"^\S+:\d+:\d+: error\[.*$", out, re.M)
    assert code == 1
    assert len(headlines) == len(faults)
    for path, line, fault_code, message in faults:
        assert any(
            h.startswith(f"{path}:{line}:") and f"error[{fault_code}]" in h and h.endswith(message)
            for h in headlines
        ), (path, line, fault_code, message, out)
    assert f"Found {len(faults)} error" in out


@pytest.mark.parametrize("fmt", [*FORMATS, "statistics"])
def test_every_format_shows_the_failure(
    case: tuple[list[str], list[Fault]], capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    given, faults = case
    chosen = ["--statistics"] if fmt == "statistics" else ["--format", fmt]
    code, out = _run(capsys, *given, *chosen, "--jobs", "1", "--no-cache")
    assert code == 1
    for path, line, fault_code, message in faults:
        if fmt == "json":
            shown = f'"code": "{fault_code}"' in out and f'"line": {line},' in out
        elif fmt == "sarif":
            shown = any(
                r["ruleId"] == fault_code
                and r["locations"][0]["physicalLocation"]["region"]["startLine"] == line
                and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == path
                for r in json.loads(out)["runs"][0]["results"]
            )
        elif fmt == "github":
            shown = f"::error file={path},line={line}," in out and message.split("`")[0] in out
        elif fmt == "markdown":
            shown = f"| {path}\\:{line}\\:" in out and fault_code in out
        elif fmt == "statistics":
            counted = sum(f[2] == fault_code for f in faults)
            shown = re.search(rf"^{counted}\s+{fault_code}\s+error", out, re.M) is not None
        else:  # text, junit, and any format a contributor adds
            shown = f"{path}:{line}:" in out and fault_code in out
        assert shown, (fmt, path, line, fault_code, out[-3000:])


@pytest.mark.parametrize("make", [_self_named, _each_other], ids=["itself", "each other"])
def test_fix_counts_the_other_roles_errors_as_left(
    make: Callable[[Path], tuple[list[str], list[Fault]]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    given, faults = make(tmp_path)
    assert main(["fix", *given]) == 1
    assert f"{len(faults)} errors left" in capsys.readouterr().err
