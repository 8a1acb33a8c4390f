"""HMT130 and ``--platform``: the agent.yaml's own sections judged by the platform's models.

The fixtures under ``tests/fixtures/invalid/platform-models`` pin each message; these
tests pin what the option does, what is said without the platform, and that loading the
models neither imports the platform's runtime nor a code metric's grader.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt import validate_text
from holodeck_mt.app.cli import main
from holodeck_mt.contract import platform_models
from tests.conftest import ROOT, RunJson

AGENT = """\
name: support
model:
  provider: opnai
  name: gpt-4o
instructions: {inline: Answer.}
test_cases:
  - input: hi
"""


@pytest.fixture
def without_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    """The platform's models as if holodeck-ai were not installed."""
    monkeypatch.setitem(platform_models._MODELS, "agent", None)
    monkeypatch.setattr(platform_models, "absence", lambda: "holodeck-ai is not installed")


REQUIRED = "holodeck-mt: error: --platform required, but the platform's models do not import: "
#: What is said of a platform installed, its import failing (as simulated below).
BROKEN = (
    "holodeck-ai 0.7.1 is installed but cannot be imported: "
    "import of holodeck.models.agent halted; None in sys.modules"
)


@pytest.fixture
def broken_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    """holodeck-ai 0.7.1 installed, its models' import failing: the import attempted afresh."""
    import importlib.metadata

    monkeypatch.setattr(platform_models, "_MODELS", {})
    monkeypatch.setitem(sys.modules, "holodeck.models.agent", None)
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.7.1")


@pytest.fixture
def uninstalled_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    """holodeck-ai not installed: no distribution, no module."""
    import importlib.metadata

    def version(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(platform_models, "_MODELS", {})
    monkeypatch.setitem(sys.modules, "holodeck.models.agent", None)
    monkeypatch.setattr(importlib.metadata, "version", version)


def _write(tmp_path: Path, text: str, name: str = "agent.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_hmt130_reports_a_misspelt_provider_at_its_value(tmp_path: Path, run_json: RunJson) -> None:
    code, document = run_json(_write(tmp_path, AGENT))
    assert code == 1
    [d] = document["files"][0]["diagnostics"]
    assert (d["code"], d["path"], d["line"], d["column"]) == ("HMT130", "model.provider", 3, 13)
    assert d["hint"] == "did you mean 'openai'?"
    assert document["summary"]["unchecked_sections"] == []


def test_platform_off_checks_nothing_of_the_platform_and_says_what_it_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["validate", "--platform", "off", "--jobs", "1", _write(tmp_path, AGENT)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[-1] == (
        "Not checked: name, model, instructions (the platform's own sections; "
        "`--platform auto` checks them)."
    )


def test_without_the_platform_the_text_summary_names_the_sections_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], without_platform: None
) -> None:
    first = _write(tmp_path, AGENT)
    second = _write(tmp_path, AGENT.replace("support", "other"), "other.yaml")
    code = main(["validate", "--jobs", "1", first, second])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    notes = [line for line in lines if line.startswith("Not checked:")]
    assert notes == [
        "Not checked: name, model, instructions (the platform's own sections: holodeck-ai "
        "is not installed; `pip install holodeck-ai` checks them)."
    ]


def test_without_the_platform_json_names_the_unchecked_sections(
    tmp_path: Path, run_json: RunJson, without_platform: None
) -> None:
    code, document = run_json(_write(tmp_path, AGENT))
    assert code == 0
    assert document["version"] == 1
    assert document["summary"]["unchecked_sections"] == ["name", "model", "instructions"]
    assert document["summary"]["check_unchecked_with"] == "pip install holodeck-ai"
    assert document["summary"]["unchecked_because"] == "holodeck-ai is not installed"


def test_platform_required_exits_2_when_the_platform_does_not_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], without_platform: None
) -> None:
    code = main(["validate", "--platform", "required", _write(tmp_path, AGENT)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.endswith(
        "--platform required, but the platform's models do not import: holodeck-ai is not "
        "installed; install them with `pip install holodeck-ai` (or use --platform auto)\n"
    )


@pytest.mark.usefixtures("uninstalled_platform")
def test_a_platform_not_installed_is_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert platform_models.agent_model() is None
    assert platform_models.absence() == "holodeck-ai is not installed"
    assert main(["validate", "--jobs", "1", "--no-cache", _write(tmp_path, AGENT)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "Not checked: name, model, instructions (the platform's own sections: holodeck-ai "
        "is not installed; `pip install holodeck-ai` checks them)."
    )


@pytest.mark.usefixtures("broken_platform")
def test_a_platform_installed_but_not_importable_names_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], run_json: RunJson
) -> None:
    agent = _write(tmp_path, AGENT)
    assert main(["validate", "--jobs", "1", "--no-cache", agent]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"Not checked: name, model, instructions (the platform's own sections: {BROKEN})."
    )
    code, document = run_json("--no-cache", agent)
    assert (code, document["summary"]["unchecked_because"]) == (0, BROKEN)
    assert document["summary"]["check_unchecked_with"] is None
    assert main(["validate", "--platform", "required", "--no-cache", agent]) == 2
    assert capsys.readouterr().err == (f"{REQUIRED}{BROKEN} (or use --platform auto)\n")


@pytest.mark.slow
def test_a_platform_whose_dependency_is_missing_names_the_module(tmp_path: Path) -> None:
    """A holodeck-ai installed with --no-deps, pydantic missing: a stand-in package on a
    temporary path, ahead of the real one, its models' import failing as it would."""
    site = tmp_path / "site"
    (site / "holodeck" / "models").mkdir(parents=True)
    (site / "holodeck" / "__init__.py").write_text("", encoding="utf-8")
    (site / "holodeck" / "models" / "__init__.py").write_text("", encoding="utf-8")
    (site / "holodeck" / "models" / "agent.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'pydantic'\", name='pydantic')\n",
        encoding="utf-8",
    )
    info = site / "holodeck_ai-0.7.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: holodeck-ai\nVersion: 0.7.1\n", encoding="utf-8"
    )
    agent = _write(tmp_path, AGENT)
    env = {**os.environ, "PYTHONPATH": str(site)}
    said = "holodeck-ai 0.7.1 is installed but cannot be imported: No module named 'pydantic'"
    for options, code, stream, line in (
        (
            [],
            0,
            "stdout",
            f"Not checked: name, model, instructions (the platform's own sections: {said}).",
        ),
        (
            ["--platform", "required"],
            2,
            "stderr",
            f"{REQUIRED}{said} (or use --platform auto)",
        ),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "holodeck_mt", "validate", "--no-cache", *options, agent],
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == code, done.stdout + done.stderr
        assert getattr(done, stream).splitlines()[-1] == line


def test_platform_required_validates_when_the_platform_imports(tmp_path: Path) -> None:
    if platform_models.agent_model() is None:
        pytest.skip("holodeck-ai is not importable here")
    assert main(["validate", "--platform", "required", _write(tmp_path, AGENT)]) == 1


def test_hmt130_never_tells_a_fault_of_the_test_cases_the_schema_told() -> None:
    text = AGENT.replace("opnai", "openai").replace("input: hi", "input: 12")
    codes = [d.code for d in validate_text(text, path="agent.yaml").diagnostics]
    assert codes == ["HMT102"]


def test_a_document_without_model_and_instructions_is_judged_as_test_cases() -> None:
    """The contract's examples: test cases and evaluations only, nothing asked for."""
    assert validate_text("name: a\ntest_cases:\n  - input: hi\n").diagnostics == []


def test_an_unknown_top_level_key_is_told_once_by_the_schema() -> None:
    text = AGENT.replace("opnai", "openai") + "modle: {}\n"
    codes = [d.code for d in validate_text(text, path="agent.yaml").diagnostics]
    assert codes == ["HMT100"]


class _Grader(types.ModuleType):
    """A grader module already imported: each name looked up on it is recorded, as the
    platform's resolver looks up the grader's function once it imported the module."""

    def __init__(self) -> None:
        super().__init__("grader_mod")
        self.looked_up: list[str] = []

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("__"):
            self.looked_up.append(name)
        raise AttributeError(name)


def test_a_code_metric_grader_is_never_imported_while_the_models_judge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grader = _Grader()
    monkeypatch.setitem(sys.modules, "grader_mod", grader)
    text = (
        "name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: x}\n"
        "test_cases:\n  - input: hi\n"
        "evaluations:\n  metrics:\n    - type: code\n      grader: grader_mod:grade\n"
    )
    result = validate_text(text, path="agent.yaml", base_dir=tmp_path)
    assert [d.code for d in result.diagnostics if d.severity == "error"] == []
    assert grader.looked_up == []


@pytest.mark.slow
def test_loading_the_models_imports_neither_the_runtime_nor_the_evaluators() -> None:
    """In a fresh process: the modules the models bring in, and nothing of the runtime."""
    if platform_models.agent_model() is None:
        pytest.skip("holodeck-ai is not importable here")
    probe = (
        "import json, sys\n"
        "from holodeck_mt import validate_text\n"
        "before = set(sys.modules)\n"
        f"validate_text({AGENT!r}, path='agent.yaml')\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    loaded = json.loads(done.stdout)
    assert any(m.startswith("holodeck.models") for m in loaded)
    for runtime in ("holodeck.lib.evaluators", "deepeval", "semantic_kernel", "holodeck.chat"):
        assert not any(m == runtime or m.startswith(runtime + ".") for m in loaded), runtime


@pytest.mark.slow
def test_a_test_cases_file_alone_never_imports_the_platform() -> None:
    probe = (
        "import sys\nfrom holodeck_mt import validate_text\n"
        "validate_text('- input: hi\\n', path='cases.yaml')\n"
        "print('holodeck' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "False"
