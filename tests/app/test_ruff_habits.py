"""More of what users bring from ruff: a command's own usage line on a usage error, and a
``[tool.holodeck-mt]`` table pasted into ``.holodeck-mt.toml`` refused with the way out."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_mt.app.cli import main

BROKEN = "test_cases:\n  - name: a\n    turns: 3\n"


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
