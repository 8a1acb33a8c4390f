"""``holodeck-mt init-editor`` on a scratch repository: the exact files, merged, idempotent."""

from __future__ import annotations

import json
import shutil
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


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_the_schema_is_bound_to_the_exact_holodeck_files_and_yaml_1_1(tmp_path: Path) -> None:
    root = make_repository(tmp_path / "repo")
    assert _init(root) == 0
    assert _settings(root) == {
        "yaml.schemas": {"./.vscode/holodeck-mt.schema.json": HOLODECK_FILES},
        "yaml.yamlVersion": "1.1",
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
        "glspc.server.initializationOptions": {"trace": "off"},
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


def holodeck_template() -> Path:
    """The project template `holodeck init` writes (the test oracle's holodeck-ai release):
    its agent schema and the .vscode/settings.json binding it."""
    import importlib.util

    spec = importlib.util.find_spec("holodeck")
    if spec is None or spec.origin is None:
        pytest.skip("holodeck-ai is not installed (make .venv/.installed installs it)")
    return Path(spec.origin).parent / "templates" / "conversational"


def with_holodeck_schema(root: Path) -> Path:
    """``root`` set up as `holodeck init` leaves a project: its schema, bound by globs."""
    template = holodeck_template()
    (root / "schemas").mkdir(parents=True, exist_ok=True)
    shutil.copy(template / "schemas" / "agent.schema.json", root / "schemas")
    (root / ".vscode").mkdir(exist_ok=True)
    shutil.copy(template / ".vscode" / "settings.json", root / ".vscode")
    return root


HOLODECK_GLOBS = ["**/agent.yaml", "agents/**/*.yaml", "**/*agent*.yaml"]
COMPOSED = "./.vscode/holodeck-agent.schema.json"


def test_holodecks_agent_schema_is_rebound_composed_with_test_cases_left_to_ours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = with_holodeck_schema(make_repository(tmp_path / "repo"))
    assert _init(root) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "Written: .vscode/holodeck-mt.schema.json, .vscode/holodeck-agent.schema.json, "
        ".vscode/settings.json"
    )
    assert _settings(root) == {
        "yaml.schemas": {
            COMPOSED: HOLODECK_GLOBS,
            "./.vscode/holodeck-mt.schema.json": HOLODECK_FILES,
        },
        "yaml.validate": True,
        "yaml.yamlVersion": "1.1",
    }
    source = json.loads((root / "schemas" / "agent.schema.json").read_text(encoding="utf-8"))
    written = json.loads(
        (root / ".vscode" / "holodeck-agent.schema.json").read_text(encoding="utf-8")
    )
    assert written["x-holodeck-mt-source"] == "./schemas/agent.schema.json"
    agent = written["$defs"]["HoloDeckAgent"]
    assert agent["properties"]["test_cases"] is True
    assert agent["properties"]["test_cases_file"] is True
    assert agent["additionalProperties"] is False  # every other key still checked
    assert agent["properties"]["model"] == source["properties"]["model"]
    assert {k: v for k, v in written["$defs"].items() if k != "HoloDeckAgent"} == source["$defs"]
    # Again: nothing changes; `holodeck init` binding its schema once more: moved again.
    before = _snapshot(root)
    assert _init(root) == 0
    assert _snapshot(root) == before
    settings = _settings(root)
    bindings = settings["yaml.schemas"]
    assert isinstance(bindings, dict)
    bindings["./schemas/agent.schema.json"] = ["**/agent.yaml"]
    (root / ".vscode" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    assert _init(root) == 0
    assert _settings(root)["yaml.schemas"] == {
        COMPOSED: HOLODECK_GLOBS,
        "./.vscode/holodeck-mt.schema.json": HOLODECK_FILES,
    }


@pytest.mark.parametrize(
    "key",
    [
        "https://example.com/agent.schema.json",
        "../outside/agent.schema.json",
        "./schemas/other.schema.json",
        "./schemas/missing.schema.json",
    ],
)
def test_another_schema_binding_is_left_as_it_is(tmp_path: Path, key: str) -> None:
    root = make_repository(tmp_path / "repo")
    (tmp_path / "outside").mkdir()
    shutil.copy(holodeck_template() / "schemas" / "agent.schema.json", tmp_path / "outside")
    (root / "schemas").mkdir()
    (root / "schemas" / "other.schema.json").write_text('{"properties": {"model": {}}}')
    (root / ".vscode").mkdir()
    settings = {"yaml.schemas": {key: ["**/agent.yaml"]}}
    (root / ".vscode" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    assert _init(root) == 0
    assert _settings(root)["yaml.schemas"] == {
        key: ["**/agent.yaml"],
        "./.vscode/holodeck-mt.schema.json": HOLODECK_FILES,
    }
    assert not (root / ".vscode" / "holodeck-agent.schema.json").exists()
