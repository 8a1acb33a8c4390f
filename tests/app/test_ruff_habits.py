"""More of what users bring from ruff: ``--quiet`` and ``--silent``, ``--exit-zero``,
``--color`` with ``NO_COLOR`` and ``FORCE_COLOR``, ``extend-select`` and ``extend-ignore``,
``rule --list``, a command's own usage line on a usage error, and a ``[tool.holodeck-mt]``
table pasted into ``.holodeck-mt.toml`` refused with the way out."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.rules.registry import REGISTRY
from tests.app.test_selection import WARNINGS

BROKEN = "test_cases:\n  - name: a\n    turns: 3\n"
HEADLINE = (
    "cases.yaml:3:12: error[HMT102] test case 'a' (#0) turns: `turns` must be a list, got integer 3"
)
SUMMARY = "Found 1 error and 0 warnings in 1 of 1 file."


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding ``cases.yaml`` with one error, the working directory."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases.yaml").write_text(BROKEN, encoding="utf-8")
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _validate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["validate", "--no-cache", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# --- --quiet, --silent ------------------------------------------------------------------


def test_quiet_prints_the_diagnostics_and_no_summary_line(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _validate(capsys, "cases.yaml") == (
        1,
        f"{HEADLINE}\n    3 |     turns: 3\n      |            ^\n{SUMMARY}\n",
        "",
    )
    assert _validate(capsys, "-q", "cases.yaml") == (
        1,
        f"{HEADLINE}\n    3 |     turns: 3\n      |            ^\n",
        "",
    )
    code, out, _ = _validate(capsys, "--quiet", "--format", "github", "cases.yaml")
    assert code == 1 and out.startswith("::error file=cases.yaml,line=3,col=12,")
    assert len(out.splitlines()) == 1
    assert _validate(capsys, "-q", "--statistics", "cases.yaml") == (
        1,
        "1  HMT102  error    wrong-type\n",
        "",
    )


def test_quiet_leaves_the_json_document_whole(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _validate(capsys, "-q", "--format", "json", "cases.yaml")
    assert code == 1
    assert json.loads(out)["summary"]["errors"] == 1


@pytest.mark.parametrize("silent", [["--silent"], ["-qq"], ["-q", "-q"]])
def test_silent_prints_nothing_and_exits_as_usual(
    broken: Path, capsys: pytest.CaptureFixture[str], silent: list[str]
) -> None:
    assert _validate(capsys, *silent, "cases.yaml") == (1, "", "")
    (broken / "ok.yaml").write_text("test_cases:\n  - input: hi\n", encoding="utf-8")
    assert _validate(capsys, *silent, "ok.yaml") == (0, "", "")


def test_silent_still_writes_the_report_file(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _validate(capsys, "--silent", "-o", "report.txt", "cases.yaml") == (1, "", "")
    assert (broken / "report.txt").read_text(encoding="utf-8").splitlines() == [  # as -q
        HEADLINE,
        "    3 |     turns: 3",
        "      |            ^",
    ]


def test_silent_still_says_a_usage_error(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _validate(capsys, "--silent", "missing.yaml")
    assert (code, out) == (2, "")
    assert "missing.yaml" in err


# --- --exit-zero -------------------------------------------------------------------------


def test_exit_zero_reports_the_errors_and_exits_0(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _validate(capsys, "--exit-zero", "cases.yaml")
    assert code == 0
    assert out.splitlines()[0] == HEADLINE
    assert out.splitlines()[-1] == SUMMARY
    code, out, _ = _validate(capsys, "--exit-zero", "--strict", "--format", "json", "cases.yaml")
    assert code == 0 and json.loads(out)["summary"]["invalid"] == 1


def test_exit_zero_leaves_a_usage_error_exit_2(
    broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _validate(capsys, "--exit-zero", "--select", "HMT999", "cases.yaml")
    assert code == 2 and "--select: unknown code 'HMT999'" in err
    assert _validate(capsys, "--exit-zero", "cases.yaml", "missing.yaml")[0] == 2
    with pytest.raises(SystemExit) as exited:
        main(["validate", "--exit-zero", "--format", "yaml", "cases.yaml"])
    assert exited.value.code == 2
    capsys.readouterr()


# --- --color, NO_COLOR, FORCE_COLOR -------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize(
    ("terminal", "environment", "option", "coloured"),
    [
        (True, {}, [], True),
        (False, {}, [], False),
        (True, {"NO_COLOR": "1"}, [], False),
        (True, {"TERM": "dumb"}, [], False),
        (False, {"FORCE_COLOR": "1"}, [], True),
        (True, {"NO_COLOR": "1", "FORCE_COLOR": "1"}, [], False),  # NO_COLOR wins over auto
        (False, {"FORCE_COLOR": ""}, [], False),  # set but empty: not set
        (True, {"FORCE_COLOR": "1"}, ["--color", "never"], False),  # --color beats both
        (False, {"NO_COLOR": "1"}, ["--color", "always"], True),
        (True, {}, ["--color", "auto"], True),
    ],
)
def test_color_auto_always_never_and_the_environment(
    broken: Path,
    monkeypatch: pytest.MonkeyPatch,
    terminal: bool,
    environment: dict[str, str],
    option: list[str],
    coloured: bool,
) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    out = _Terminal() if terminal else _Pipe()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["validate", "--no-cache", *option, "cases.yaml"]) == 1
    text = out.getvalue()
    if coloured:
        assert text.splitlines()[0] == f"\x1b[1;31m{HEADLINE}\x1b[0m"
    else:
        assert text.splitlines()[0] == HEADLINE
        assert "\x1b" not in text


@pytest.mark.parametrize("fmt", ["json", "github", "sarif", "junit", "markdown"])
def test_color_always_never_colours_another_format(
    broken: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    out = _Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["validate", "--no-cache", "--color", "always", "--format", fmt, "cases.yaml"]) == 1
    assert "\x1b" not in out.getvalue() and "HMT102" in out.getvalue()


def test_a_report_file_is_coloured_only_with_color_always(
    broken: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert _validate(capsys, "-o", "plain.txt", "cases.yaml") == (1, "", "")
    assert (broken / "plain.txt").read_text(encoding="utf-8").splitlines()[0] == HEADLINE
    assert _validate(capsys, "--color", "always", "-o", "ink.txt", "cases.yaml")[0] == 1
    assert (broken / "ink.txt").read_text(encoding="utf-8").startswith("\x1b[1;31m")


def test_color_takes_auto_always_or_never(capsys: pytest.CaptureFixture[str]) -> None:
    err = _usage_error(capsys, "validate", "--color", "yes")
    assert (
        "argument --color: invalid choice: 'yes' (choose from 'auto', 'always', 'never')"
        in (err[-1])
    )


# --- extend-select, extend-ignore ---------------------------------------------------------


def _codes(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    code, out, err = _validate(capsys, "--format", "json", *argv, "cases.yaml")
    assert code in (0, 1), err
    return sorted(d["code"] for f in json.loads(out)["files"] for d in f["diagnostics"])


@pytest.fixture
def warned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose ``cases.yaml`` has three warnings: HMT201, HMT204, HMT206."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "cases.yaml").write_text(WARNINGS, encoding="utf-8")
    return tmp_path


def test_extend_select_and_extend_ignore_on_the_command_line(
    warned: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _codes(capsys) == ["HMT201", "HMT204", "HMT206"]
    assert _codes(capsys, "--select", "HMT201", "--extend-select", "HMT204") == [
        "HMT201",
        "HMT204",
    ]
    assert _codes(capsys, "--ignore", "HMT201", "--extend-ignore", "HMT204,HMT206") == []
    code, _, err = _validate(capsys, "--extend-ignore", "HMT999", "cases.yaml")
    assert code == 2
    assert err.startswith("holodeck-mt: error: --extend-ignore: unknown code 'HMT999'")


def test_extend_select_adds_to_the_configurations_select_and_select_replaces_both(
    warned: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (warned / ".holodeck-mt.toml").write_text(
        'select = ["HMT201"]\nextend-select = ["HMT206"]\n', encoding="utf-8"
    )
    assert _codes(capsys) == ["HMT201", "HMT206"]
    assert _codes(capsys, "--extend-select", "HMT204") == ["HMT201", "HMT204", "HMT206"]
    assert _codes(capsys, "--select", "HMT204") == ["HMT204"]


def test_extend_select_in_the_configuration_beats_a_wider_ignore(
    warned: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (warned / ".holodeck-mt.toml").write_text(
        'ignore = ["HMT2"]\nextend-select = ["HMT206"]\n', encoding="utf-8"
    )
    assert _codes(capsys) == ["HMT206"]


def test_extend_ignore_adds_to_the_configurations_ignore(
    warned: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (warned / ".holodeck-mt.toml").write_text(
        'ignore = ["HMT201"]\nextend-ignore = ["HMT204"]\n', encoding="utf-8"
    )
    assert _codes(capsys) == ["HMT206"]
    assert _codes(capsys, "--extend-ignore", "HMT206") == []
    (warned / ".holodeck-mt.toml").write_text('extend-ignore = "HMT9"\n', encoding="utf-8")
    code, _, err = _validate(capsys, "cases.yaml")
    assert code == 2
    assert f"{warned / '.holodeck-mt.toml'}: 'extend-ignore': unknown code 'HMT9'" in err


# --- rule --list ---------------------------------------------------------------------------


def test_rule_list_prints_every_code_its_severity_and_name_a_line_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rule", "--list"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == [entry.code for entry in REGISTRY]
    assert "HMT102  error    wrong-type" in lines
    assert "HMT220  warning  diagnostics-capped" in lines
    assert "HMT202  warning  unknown-top-level-key (retired)" in lines


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err.splitlines()


# --- a command's usage error -------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["validate", "--bogus", "a.yaml"], "unrecognized arguments: --bogus"),
        (["validate", "--format", "yaml"], "argument --format: invalid choice: 'yaml'"),
        (["rule", "HMT102", "extra"], "unrecognized arguments: extra"),
        (["fix", "--diff", "--nope"], "unrecognized arguments: --nope"),
    ],
)
def test_a_commands_usage_error_prints_that_commands_usage(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    err = _usage_error(capsys, *argv)
    assert err[0].startswith(f"usage: holodeck-mt {argv[0]} [-h]")
    assert err[-1].startswith(f"holodeck-mt {argv[0]}: error: {said}")


def test_an_unknown_top_level_option_prints_the_top_level_usage(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _usage_error(capsys, "--bogus", "validate")
    assert err == [
        "usage: holodeck-mt [-h] [--version] COMMAND ...",
        "holodeck-mt: error: unrecognized arguments: --bogus",
    ]


def test_an_unknown_argument_is_escaped_in_the_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = _usage_error(capsys, "schema", "\x1b[2J")
    assert err[-1] == "holodeck-mt schema: error: unrecognized arguments: \\x1b[2J"


# --- a pasted [tool.holodeck-mt] table ----------------------------------------------------


def test_a_tool_table_in_the_own_file_is_a_usage_error_that_says_to_drop_the_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "cases.yaml").write_text(BROKEN, encoding="utf-8")
    (tmp_path / ".holodeck-mt.toml").write_text(
        '[tool.holodeck-mt]\nignore = ["HMT102"]\n', encoding="utf-8"
    )
    assert main(["validate", "--no-cache", "cases.yaml"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"holodeck-mt: error: {tmp_path / '.holodeck-mt.toml'}: unknown key 'tool': in "
        ".holodeck-mt.toml the settings go at the top level: drop the [tool.holodeck-mt] "
        "header (it is for pyproject.toml)\n"
    )
    # Without the header, the same settings apply.
    (tmp_path / ".holodeck-mt.toml").write_text('ignore = ["HMT102"]\n', encoding="utf-8")
    assert main(["validate", "--no-cache", "cases.yaml"]) == 0
    capsys.readouterr()


def test_another_tool_table_in_the_own_file_stays_an_unknown_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases.yaml").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "my.toml").write_text('[tool.ruff]\nselect = ["E"]\n', encoding="utf-8")
    assert main(["validate", "--no-cache", "--config", "my.toml", "cases.yaml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("holodeck-mt: error: my.toml: unknown key 'tool' (allowed: select, ")


# --- true totals past the cap ------------------------------------------------------------

#: 1,500 test cases with one error each, and the list's own: more than the platform runs.
SUMMARY_1500 = "Found 1,501 errors and 0 warnings in 1 of 1 file (1,000 of 1,501 errors shown)."


@pytest.fixture
def many(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``many.yaml``, 1,500 faulty test cases; the cache keeps its results after one run."""
    monkeypatch.setenv("HOLODECK_MT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    cases = "".join(f"  - name: t{i}\n    turns: 3\n" for i in range(1500))
    (tmp_path / "work" / "many.yaml").write_text("test_cases:\n" + cases, encoding="utf-8")
    return tmp_path


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["validate", *argv, "many.yaml"])
    captured = capsys.readouterr()
    assert (code, captured.err) == (1, "")
    return captured.out


@pytest.mark.slow  # 1,500 faulty test cases judged: the fast suite keeps the cap's own tests
def test_past_the_cap_the_text_and_statistics_give_the_true_totals(
    many: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _report(capsys).splitlines()
    assert out[-1] == SUMMARY_1500
    assert sum(line.startswith("many.yaml:") and "error[" in line for line in out) == 1000
    assert out[-5].startswith(  # the cap's line: a count, not a warning of the author's
        "many.yaml:2001:12: warning[HMT220] 501 more diagnostics not shown, from this line on "
        "(501 errors, 0 warnings)"
    )
    assert _report(capsys, "--statistics").splitlines() == [
        "1,500  HMT102  error    wrong-type",
        "    1  HMT103  error    invalid-value",
        SUMMARY_1500,
    ]
    assert json.loads(_report(capsys, "--statistics", "--format", "json")) == [
        {"code": "HMT102", "name": "wrong-type", "severity": "error", "count": 1500},
        {"code": "HMT103", "name": "invalid-value", "severity": "error", "count": 1},
    ]


@pytest.mark.slow  # 1,500 faulty test cases judged: the fast suite keeps the cap's own tests
def test_past_the_cap_every_format_gives_the_true_totals(
    many: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(_report(capsys, "--format", "json"))
    summary = document["summary"]
    assert (summary["errors"], summary["warnings"], summary["invalid"]) == (1501, 0, 1)
    assert len(document["files"][0]["diagnostics"]) == 1001  # 1,000 and the cap's line

    github = _report(capsys, "--format", "github").splitlines()
    assert github[-1] == SUMMARY_1500
    assert sum(line.startswith("::error ") for line in github) == 1000
    assert github[-2].startswith("::notice file=many.yaml,line=2001,col=12,")

    sarif = json.loads(_report(capsys, "--format", "sarif"))["runs"][0]
    assert (sarif["properties"]["errors"], sarif["properties"]["warnings"]) == (1501, 0)
    levels = [result["level"] for result in sarif["results"]]
    assert (levels.count("error"), levels.count("warning"), levels.count("note")) == (1000, 0, 1)

    markdown = _report(capsys, "--format", "markdown").splitlines()
    assert markdown[2] == SUMMARY_1500
    assert markdown[4] == (
        "GitHub shows the first 10 errors and 10 warnings of a step as annotations: this run "
        "has 1,501 errors, 1,000 in the job's log."
    )

    junit = _report(capsys, "--format", "junit")
    assert f"<system-out>{SUMMARY_1500}\n" in junit
    assert "500 more test cases with no diagnostic shown are not listed" in junit


@pytest.mark.slow  # 1,500 faulty test cases judged: the fast suite asks it of three, below
def test_within_the_cap_the_summary_has_no_count_of_what_is_shown(
    many: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _report(capsys, "--max-diagnostics", "0").splitlines()
    assert out[-1] == "Found 1,501 errors and 0 warnings in 1 of 1 file."


def test_with_no_cap_the_summary_has_no_count_of_what_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    cases = "".join(f"  - name: t{i}\n    turns: 3\n" for i in range(3))
    (tmp_path / "many.yaml").write_text("test_cases:\n" + cases, encoding="utf-8")
    capped = _report(capsys, "--max-diagnostics", "2").splitlines()
    assert capped[-1] == "Found 3 errors and 0 warnings in 1 of 1 file (2 of 3 errors shown)."
    out = _report(capsys, "--max-diagnostics", "0").splitlines()
    assert out[-1] == "Found 3 errors and 0 warnings in 1 of 1 file."
