"""``holodeck-mt init-editor`` on a scratch repository: the exact files, merged, idempotent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.contract.registry import bundle_path
from holodeck_mt.urls import BUNDLE_URL
from tests.app.test_discovery import HOLODECK_FILES, make_repository
from tests.conftest import RunJson


def _init(root: Path, *args: str) -> int:
    return main(["init-editor", str(root), *args])


def _settings(root: Path) -> dict[str, object]:
    settings: dict[str, object] = json.loads(
        (root / ".vscode" / "settings.json").read_text(encoding="utf-8")
    )
    return settings


#: holodeck-mt lsp leaves the schema's faults to yaml-language-server in VS Code.
BESIDE_THE_YAML_SERVER = {
    "holodeck-mt.schemaDiagnostics": False,
    "glspc.server.initializationOptions": {"schemaDiagnostics": False},
}


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_the_schema_is_bound_to_the_exact_holodeck_files_and_yaml_1_1(tmp_path: Path) -> None:
    root = make_repository(tmp_path / "repo")
    assert _init(root) == 0
    assert _settings(root) == {
        "yaml.schemas": {"./.vscode/holodeck-mt.schema.json": HOLODECK_FILES},
        "yaml.yamlVersion": "1.1",
        **BESIDE_THE_YAML_SERVER,
    }
    assert (root / ".vscode" / "holodeck-mt.schema.json").read_bytes() == (
        bundle_path().read_bytes()
    )


def test_running_it_again_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repository(tmp_path / "repo")
    assert _init(root) == 0
    before = _snapshot(root)
    capsys.readouterr()
    assert _init(root) == 0
    assert _snapshot(root) == before
    assert capsys.readouterr().out.splitlines()[-1] == "Nothing to change."


def test_a_new_test_case_file_is_bound_on_the_next_run(tmp_path: Path) -> None:
    root = make_repository(tmp_path / "repo")
    assert _init(root) == 0
    (root / "evals").mkdir()
    (root / "evals" / "smoke.yml").write_text("- input: hi\n", encoding="utf-8")
    assert _init(root) == 0
    bound = _settings(root)["yaml.schemas"]
    assert isinstance(bound, dict)
    assert bound["./.vscode/holodeck-mt.schema.json"] == sorted(
        [*HOLODECK_FILES, "evals/smoke.yml"]
    )


def test_existing_settings_are_kept(tmp_path: Path) -> None:
    root = make_repository(tmp_path / "repo")
    (root / ".vscode").mkdir()
    existing = {
        "editor.tabSize": 2,
        "yaml.schemas": {"https://json.schemastore.org/github-workflow.json": ".github/*.yml"},
        "yaml.yamlVersion": "1.2",
        "glspc.server.initializationOptions": {"trace": "off"},
    }
    (root / ".vscode" / "settings.json").write_text(json.dumps(existing), encoding="utf-8")
    assert _init(root) == 0
    assert _settings(root) == {
        "editor.tabSize": 2,
        "yaml.schemas": {
            "https://json.schemastore.org/github-workflow.json": ".github/*.yml",
            "./.vscode/holodeck-mt.schema.json": HOLODECK_FILES,
        },
        "yaml.yamlVersion": "1.1",
        "holodeck-mt.schemaDiagnostics": False,
        "glspc.server.initializationOptions": {"trace": "off", "schemaDiagnostics": False},
    }


def test_settings_with_comments_are_left_alone_with_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repository(tmp_path / "repo")
    (root / ".vscode").mkdir()
    text = '{\n  // the team\'s settings\n  "editor.tabSize": 2\n}\n'
    (root / ".vscode" / "settings.json").write_text(text, encoding="utf-8")
    assert _init(root) == 2
    assert (root / ".vscode" / "settings.json").read_text(encoding="utf-8") == text
    assert "comments" in capsys.readouterr().err


def test_a_schema_url_is_bound_as_given(tmp_path: Path) -> None:
    root = make_repository(tmp_path / "repo")
    url = BUNDLE_URL
    assert _init(root, "--schema", url) == 0
    assert _settings(root)["yaml.schemas"] == {url: HOLODECK_FILES}
    assert not (root / ".vscode" / "holodeck-mt.schema.json").exists()


def test_modeline_puts_the_schema_on_each_files_first_line_once(
    tmp_path: Path, run_json: RunJson, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_repository(tmp_path / "repo")
    _, before = run_json(str(root))
    (root / "data" / "extra.yaml").write_bytes(
        b"\xef\xbb\xbf" + (root / "data" / "extra.yaml").read_bytes().replace(b"\n", b"\r\n")
    )
    assert _init(root, "--modeline") == 0
    first = (root / "agents" / "finance" / "data" / "convfinqa.yaml").read_text(encoding="utf-8")
    assert first.splitlines()[0] == (
        "# yaml-language-server: $schema=../../../.vscode/holodeck-mt.schema.json"
    )
    extra = (root / "data" / "extra.yaml").read_bytes()
    assert extra.startswith(
        b"\xef\xbb\xbf# yaml-language-server: $schema=../.vscode/holodeck-mt.schema.json\r\n- "
    )
    assert "yaml.schemas" not in _settings(root)
    assert _settings(root)["yaml.yamlVersion"] == "1.1"
    snapshot = _snapshot(root)
    assert _init(root, "--modeline") == 0
    assert _snapshot(root) == snapshot
    capsys.readouterr()
    # Each file still validates to the same faults, one line further down.
    _, after = run_json(str(root))
    shifted = sorted(
        (f["path"], d["code"], d["line"] - 1) for f in after["files"] for d in f["diagnostics"]
    )
    assert shifted == sorted(
        (f["path"], d["code"], d["line"]) for f in before["files"] for d in f["diagnostics"]
    )


def test_a_path_that_is_not_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    assert _init(tmp_path / "missing") == 2


def test_a_folder_without_holodeck_files_is_a_usage_error_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ci.yml").write_text("on: push\njobs: {}\n", encoding="utf-8")
    assert _init(tmp_path) == 2
    assert "no agent.yaml, agent.yml or YAML file holding test cases" in capsys.readouterr().err
    assert not (tmp_path / ".vscode").exists()
