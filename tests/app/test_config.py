"""The configuration file: found from each file's folder up to the repository's root.

``.holodeck-mt.toml``, or ``[tool.holodeck-mt]`` in ``pyproject.toml``; keys ``select``,
``ignore``, ``per-file-ignores``, ``strict``, ``exclude``, ``platform``;
``--config PATH`` names one, ``--isolated`` reads none. An unknown key or code is a
usage error, one line naming the file and the key.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from tests.app.test_selection import WARNINGS
from tests.conftest import RunJson


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository (``.git``) with a test-cases file in ``sub/``, run from its root."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "sub").mkdir()
    (root / "sub" / "cases.yaml").write_text(WARNINGS, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _codes(run_json: RunJson, *args: str) -> tuple[int, list[str]]:
    code, document = run_json(*args)
    return code, sorted(d["code"] for f in document["files"] for d in f["diagnostics"])


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["validate", *args]) == 2
    error = capsys.readouterr().err
    assert len(error.splitlines()) == 1, error
    return error


def test_a_config_at_the_repository_root_applies_below_it(repo: Path, run_json: RunJson) -> None:
    (repo / ".holodeck-mt.toml").write_text('ignore = ["HMT201", "HMT206"]\n', encoding="utf-8")
    assert _codes(run_json, "sub/cases.yaml") == (0, ["HMT204"])
    assert _codes(run_json, "sub") == (0, ["HMT204"])


def test_pyproject_without_the_table_is_passed_over(repo: Path, run_json: RunJson) -> None:
    (repo / "pyproject.toml").write_text('[tool.holodeck-mt]\nselect = ["HMT204"]\n', "utf-8")
    (repo / "sub" / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    assert _codes(run_json, "sub/cases.yaml") == (0, ["HMT204"])


def test_the_nearest_config_wins_and_its_own_file_before_pyproject(
    repo: Path, run_json: RunJson
) -> None:
    (repo / ".holodeck-mt.toml").write_text('select = ["HMT201"]\n', encoding="utf-8")
    (repo / "sub" / "pyproject.toml").write_text(
        '[tool.holodeck-mt]\nselect = ["HMT204"]\n', encoding="utf-8"
    )
    assert _codes(run_json, "sub/cases.yaml") == (0, ["HMT204"])
    (repo / "sub" / ".holodeck-mt.toml").write_text('select = ["HMT206"]\n', encoding="utf-8")
    assert _codes(run_json, "sub/cases.yaml") == (0, ["HMT206"])


def test_a_config_above_the_repository_root_is_never_read(repo: Path, run_json: RunJson) -> None:
    (repo.parent / ".holodeck-mt.toml").write_text('select = ["HMT204"]\n', encoding="utf-8")
    assert _codes(run_json, "sub/cases.yaml") == (0, ["HMT201", "HMT204", "HMT206"])


def test_a_config_linked_from_outside_the_repository_is_not_read(
    repo: Path, run_json: RunJson
) -> None:
    outside = repo.parent / "elsewhere.toml"
    outside.write_text('select = ["HMT204"]\n', encoding="utf-8")
    os.symlink(outside, repo / ".holodeck-mt.toml")
    assert _codes(run_json, "sub/cases.yaml") == (0, ["HMT201", "HMT204", "HMT206"])


def test_the_command_line_replaces_select_and_adds_to_ignore(repo: Path, run_json: RunJson) -> None:
    (repo / ".holodeck-mt.toml").write_text(
        'select = ["HMT201"]\nignore = ["HMT206"]\n', encoding="utf-8"
    )
    assert _codes(run_json, "--select", "HMT2", "sub/cases.yaml") == (0, ["HMT201", "HMT204"])
    assert _codes(run_json, "--select", "HMT2", "--ignore", "HMT204", "sub/cases.yaml") == (
        0,
        ["HMT201"],
    )


def test_isolated_and_config_choose_the_file(repo: Path, run_json: RunJson) -> None:
    (repo / ".holodeck-mt.toml").write_text('select = ["HMT201"]\n', encoding="utf-8")
    other = repo / "other.toml"
    other.write_text('select = ["HMT206"]\n', encoding="utf-8")
    assert _codes(run_json, "--isolated", "sub/cases.yaml") == (0, ["HMT201", "HMT204", "HMT206"])
    assert _codes(run_json, "--config", str(other), "sub/cases.yaml") == (0, ["HMT206"])


def test_per_file_ignores_match_globs_relative_to_the_config(repo: Path, run_json: RunJson) -> None:
    (repo / ".holodeck-mt.toml").write_text(
        '[per-file-ignores]\n"sub/*.yaml" = ["HMT201"]\n"*.yml" = ["HMT2"]\n', encoding="utf-8"
    )
    (repo / "sub" / "more.yml").write_text(WARNINGS, encoding="utf-8")
    code, document = run_json("sub/cases.yaml", "sub/more.yml")
    found = {
        Path(f["path"]).name: sorted(d["code"] for d in f["diagnostics"]) for f in document["files"]
    }
    assert (code, found) == (0, {"cases.yaml": ["HMT204", "HMT206"], "more.yml": []})


def test_strict_in_the_config_fails_on_warnings(repo: Path, run_json: RunJson) -> None:
    (repo / "pyproject.toml").write_text("[tool.holodeck-mt]\nstrict = true\n", encoding="utf-8")
    assert _codes(run_json, "sub/cases.yaml")[0] == 1


def test_exclude_skips_files_a_folder_search_finds_not_files_named(
    repo: Path, run_json: RunJson
) -> None:
    (repo / ".holodeck-mt.toml").write_text(
        'exclude = ["sub/*"]\nplatform = "off"\n', encoding="utf-8"
    )
    code, document = run_json(".")
    assert (code, document["files"]) == (0, [])
    assert len(run_json("sub/cases.yaml")[1]["files"]) == 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('selct = ["HMT201"]\n', "unknown key 'selct'"),
        ('ignore = ["HMT999"]\n', "'ignore': unknown code 'HMT999'"),
        ("strict = 1\n", "'strict' must be true or false"),
        ('platform = "sometimes"\n', "'platform' must be one of auto, off, required"),
        ("select = 3\n", "'select' must be a list of strings"),
        ('[per-file-ignores]\n"*.yaml" = ["X1"]\n', "unknown code 'X1'"),
        ("select = [\n", "not valid TOML"),
        ("a = " + "[" * 100_000, "nested too deeply to read"),
    ],
)
def test_an_unusable_config_is_one_line_naming_the_file_and_key(
    repo: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    (repo / ".holodeck-mt.toml").write_text(text, encoding="utf-8")
    error = _error(capsys, "sub/cases.yaml")
    assert error.startswith("holodeck-mt: error: ") and ".holodeck-mt.toml" in error
    assert said in error


def test_a_pyproject_error_names_its_table(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "pyproject.toml").write_text('[tool.holodeck-mt]\nexclud = ["x"]\n', encoding="utf-8")
    error = _error(capsys, "sub/cases.yaml")
    assert "pyproject.toml: [tool.holodeck-mt]: unknown key 'exclud'" in error


def test_platform_and_strict_are_passed_on_to_the_options(repo: Path) -> None:
    from holodeck_mt.app.cli import build_parser
    from holodeck_mt.project.settings import JobSettings
    from holodeck_mt.rules import Options

    (repo / ".holodeck-mt.toml").write_text(
        'platform = "required"\nstrict = true\n', encoding="utf-8"
    )
    args = build_parser().parse_args(["validate", "sub/cases.yaml"])
    options = JobSettings(args, Options()).of("sub/cases.yaml")
    assert (options.platform, options.strict) == ("required", True)
