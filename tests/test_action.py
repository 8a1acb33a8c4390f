"""The GitHub Action (action.yml): its structure, and its steps run here as a runner runs them.

Each `run:` step is run with bash as GitHub runs a composite step (`bash --noprofile --norc
-eo pipefail`), in a scratch git repository, with `GITHUB_ACTION_PATH`, `GITHUB_OUTPUT` and
`RUNNER_TEMP` set and each `${{ ... }}` of its `env:` evaluated from the inputs, the steps'
outputs and the `github` context. The fast tests stand the checkout's interpreter in for the
install step; the slow one runs the install step itself (pip install of this checkout).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from holodeck_mt.urls import SLUG
from tests.conftest import ROOT, SAMPLES

ACTION = ROOT / "action.yml"
_EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")
BROKEN = "test_cases:\n  - name: a\n    turns: []\n"
WARNS = "test_cases:\n  - name: a\n    input: hi\n  - name: a\n    input: ho\n"


def _action() -> dict[str, Any]:
    action: dict[str, Any] = YAML(typ="safe").load(ACTION.read_text(encoding="utf-8"))
    return action


@dataclass
class Runner:
    """Runs the action's steps one by one, like a runner (only what the action uses)."""

    workspace: Path
    temp: Path
    inputs: dict[str, str]
    env: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)

    def value(self, expression: str) -> str:
        """The value of one `${{ ... }}`: `inputs.X`, `steps.ID.outputs.X`, `github.X`."""
        parts = expression.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            defaults = {k: str(v.get("default", "")) for k, v in _action()["inputs"].items()}
            return self.inputs.get(parts[1], defaults[parts[1]])
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return self.outputs.get(parts[1], {}).get(parts[3], "")
        if expression == "github.action_repository":
            return self.env.get("ACTION_REPOSITORY_CONTEXT", SLUG)
        raise AssertionError(
            f"the action uses an expression this runner does not know: {expression}"
        )

    def run(self, step: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        output = self.temp / f"output-{len(self.outputs)}"
        output.write_text("", encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env |= {
            "GITHUB_ACTION_PATH": str(ROOT),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_WORKSPACE": str(self.workspace),
            "RUNNER_TEMP": str(self.temp),
        }
        env |= self.env
        for name, text in step.get("env", {}).items():
            env[name] = _EXPRESSION.sub(lambda m: self.value(m.group(1)), str(text))
        script = self.temp / "step.sh"
        script.write_text(step["run"], encoding="utf-8")
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=self.workspace,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if "id" in step:
            lines = output.read_text(encoding="utf-8").splitlines()
            self.outputs[step["id"]] = dict(line.split("=", 1) for line in lines if "=" in line)
        return done

    def validate(self, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
        """The steps after the install, with ``python`` (this checkout's) installed."""
        install, *rest = _action()["runs"]["steps"]
        self.outputs[install["id"]] = {"python": python}
        done = None
        for step in rest:
            done = self.run(step)
        assert done is not None
        return done


def _repository(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True, capture_output=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _runner(tmp_path: Path, files: dict[str, str], **inputs: str) -> Runner:
    workspace = _repository(tmp_path / "repo", files)
    (tmp_path / "temp").mkdir()
    return Runner(workspace, tmp_path / "temp", inputs)


def shadowed_python(folder: Path, shadow: dict[str, str]) -> str:
    """A virtual environment's python that imports this checkout's packages, and the modules
    of ``shadow`` (path: text) before them: the action runs python with -I, which ignores
    PYTHONPATH."""
    venv.EnvBuilder(symlinks=True).create(folder)
    (site,) = (folder / "lib").glob("python*/site-packages")
    for name, text in shadow.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    ours = sysconfig.get_paths()["purelib"]
    (site / "zz-checkout.pth").write_text(f"import site; site.addsitedir({ours!r})\n", "utf-8")
    return str(folder / "bin" / "python")


# --- structure ------------------------------------------------------------------------------


def test_action_is_a_composite_action_with_its_inputs() -> None:
    action = _action()
    assert {"name", "description", "runs"} <= set(action)
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {
        "paths",
        "sarif-file",
        "strict",
        "version",
        "platform",
        "args",
        "summary",
    }
    assert action["inputs"]["paths"]["default"] == "."
    for name, spec in action["inputs"].items():
        assert spec.get("description"), name
        assert spec.get("required") is False, name


def test_every_composite_step_names_its_shell_and_every_input_is_used() -> None:
    action = _action()
    steps = action["runs"]["steps"]
    assert all(step.get("shell") == "bash" for step in steps if "run" in step)
    text = ACTION.read_text(encoding="utf-8")
    for name in action["inputs"]:
        assert f"${{{{ inputs.{name} }}}}" in text, f"input {name!r} is never used"


def test_inputs_reach_the_scripts_through_env_only() -> None:
    for step in _action()["runs"]["steps"]:
        assert not _EXPRESSION.search(step["run"]), f"{step['name']}: ${{{{ }}}} in a script"
        for value in step.get("env", {}).values():
            assert _EXPRESSION.fullmatch(str(value)), value


def test_every_python_the_action_starts_is_isolated_from_the_checkout() -> None:
    """The working folder is the checkout: each interpreter runs with -I, so that no module
    of it (yaml.py, pip/, holodeck_mt/) is imported (tests/hostile/test_checkout_not_run.py
    runs them over such a checkout)."""
    runs = "\n".join(step["run"] for step in _action()["runs"]["steps"])
    started = re.findall(r'"\$(\w+)"((?: -\w+)*) -[mc] ', runs)
    assert {name for name, _ in started} == {"base", "python", "HOLODECK_MT_PYTHON"}
    for name, flags in started:
        assert "-I" in flags.split(), name
    assert "python -" not in runs and "python3 -" not in runs


def test_the_install_step_installs_the_actions_own_checkout_by_default() -> None:
    install = _action()["runs"]["steps"][0]
    assert install["id"] == "install"
    assert 'source="$GITHUB_ACTION_PATH"' in install["run"]
    assert '-- "$source"' in install["run"]


# --- the steps, run ---------------------------------------------------------------------------


@pytest.mark.slow
def test_a_broken_repository_fails_the_step_with_error_annotations(tmp_path: Path) -> None:
    runner = _runner(tmp_path, {"agents/agent.yaml": BROKEN})
    done = runner.validate()
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [line for line in done.stdout.splitlines() if line.startswith("::error ")]
    assert errors, done.stdout
    assert errors[0].startswith("::error file=agents/agent.yaml,line=3,")
    assert "HMT105" in errors[0]


@pytest.mark.slow
def test_a_clean_repository_passes(tmp_path: Path) -> None:
    runner = _runner(tmp_path, {"agent.yaml": "test_cases:\n  - input: hi\n"})
    done = runner.validate()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "::error" not in done.stdout


@pytest.mark.slow
def test_paths_input_limits_the_run_to_the_named_folders(tmp_path: Path) -> None:
    files = {"good/agent.yaml": "test_cases:\n  - input: hi\n", "bad/agent.yaml": BROKEN}
    assert _runner(tmp_path / "a", files, paths="good").validate().returncode == 0
    several = _runner(tmp_path / "b", files, paths="good\n  bad ").validate()
    assert several.returncode == 1
    assert "file=bad/agent.yaml" in several.stdout


@pytest.mark.slow
def test_a_path_is_data_never_a_command_or_a_glob(tmp_path: Path) -> None:
    hostile = '$(touch pwned) `touch pwned2` * "; touch pwned3'
    done = _runner(tmp_path, {"agent.yaml": "test_cases: []\n"}, paths=hostile).validate()
    assert done.returncode == 2, done.stdout + done.stderr
    assert not list((tmp_path / "repo").glob("pwned*"))


@pytest.mark.slow
def test_strict_input_makes_warnings_fail(tmp_path: Path) -> None:
    assert _runner(tmp_path / "a", {"agent.yaml": WARNS}).validate().returncode == 0
    strict = _runner(tmp_path / "b", {"agent.yaml": WARNS}, strict="true").validate()
    assert strict.returncode == 1
    assert "::error " in strict.stdout
    wrong = _runner(tmp_path / "c", {"agent.yaml": WARNS}, strict="maybe").validate()
    assert wrong.returncode == 2
    assert "input strict must be 'true' or 'false'" in wrong.stdout


@pytest.mark.slow
def test_sarif_file_input_writes_a_report_and_keeps_the_verdict(tmp_path: Path) -> None:
    runner = _runner(tmp_path, {"agent.yaml": BROKEN}, **{"sarif-file": "holodeck-mt.sarif"})
    done = runner.validate()
    assert done.returncode == 1
    report = (tmp_path / "repo" / "holodeck-mt.sarif").read_text(encoding="utf-8")
    assert '"ruleId": "HMT105"' in report


@pytest.mark.slow
def test_the_real_samples_pass(tmp_path: Path) -> None:
    if not SAMPLES.is_dir():
        if os.environ.get("HOLODECK_MT_REQUIRE_SAMPLES") == "1":
            pytest.fail(f"HOLODECK_MT_REQUIRE_SAMPLES=1 but {SAMPLES} is missing")
        pytest.skip(f"the real samples are not beside the checkout ({SAMPLES})")
    runner = _runner(tmp_path, {})
    shutil.copytree(SAMPLES, runner.workspace / "samples")
    done = runner.validate()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "::error" not in done.stdout


@pytest.mark.slow
def test_the_install_step_pip_installs_the_checkout_and_the_action_runs_it(
    tmp_path: Path,
) -> None:
    """The install step for real, offline: its virtual environment made beforehand (the step
    keeps one it finds) sees this checkout's dependencies, and pip may not use an index."""
    runner = _runner(tmp_path, {"agent.yaml": BROKEN})
    home = runner.temp / "holodeck-mt-venv"
    venv.EnvBuilder(with_pip=True).create(home)
    (site,) = (home / "lib").glob("python*/site-packages")
    ours = sysconfig.get_paths()["purelib"]
    (site / "checkout-dependencies.pth").write_text(ours + "\n", encoding="utf-8")
    runner.env = {"PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0"}
    install, *rest = _action()["runs"]["steps"]
    done = runner.run(install)
    assert done.returncode == 0, done.stdout + done.stderr
    python = runner.outputs["install"]["python"]
    assert Path(python).parent.parent == home
    where = subprocess.run(
        [python, "-c", "import holodeck_mt; print(holodeck_mt.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(home), "the checkout was not installed"
    for step in rest:
        done = runner.run(step)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "::error file=agent.yaml,line=3," in done.stdout


# --- the platform, extra options, the summary, the version ----------------------------------


def _stub_install(runner: Runner) -> Path:
    """The install step's virtual environment, with a python that logs what it is asked."""
    log = runner.temp / "python.log"
    bin_dir = runner.temp / "holodeck-mt-venv" / "bin"
    bin_dir.mkdir(parents=True)
    stub = bin_dir / "python"
    stub.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\n', encoding="utf-8")
    stub.chmod(0o755)
    return log


def test_the_platform_version_is_the_one_the_verdicts_are_checked_against() -> None:
    oracle = re.search(
        r'^PLATFORM_VERSION = "([^"]+)"$', (ROOT / "tests" / "platform_oracle.py").read_text(), re.M
    )
    assert oracle is not None
    install = _action()["runs"]["steps"][0]["run"]
    assert f"platform={oracle.group(1)} ;;" in install
    assert f"holodeck-ai {oracle.group(1)}" in " ".join(
        _action()["inputs"]["platform"]["description"].split()
    )


@pytest.mark.parametrize(
    ("platform", "installed"),
    [("false", None), ("true", "holodeck-ai==0.7.1"), ("0.7.0", "holodeck-ai==0.7.0")],
)
@pytest.mark.slow
def test_the_platform_input_installs_holodeck_ai_without_its_runtime(
    tmp_path: Path, platform: str, installed: str | None
) -> None:
    runner = _runner(tmp_path, {}, platform=platform)
    log = _stub_install(runner)
    done = runner.run(_action()["runs"]["steps"][0])
    assert done.returncode == 0, done.stdout + done.stderr
    asked = log.read_text(encoding="utf-8")
    if installed is None:
        assert "holodeck-ai" not in asked
    else:
        assert f"--no-deps -- {installed}\n" in asked


@pytest.mark.slow
def test_a_platform_input_that_is_no_version_stops_the_install(tmp_path: Path) -> None:
    runner = _runner(tmp_path, {}, platform="0.7.1; rm -rf /")
    log = _stub_install(runner)
    done = runner.run(_action()["runs"]["steps"][0])
    assert done.returncode == 2
    assert "input platform must be 'true', 'false' or a holodeck-ai version" in done.stdout
    assert "holodeck-ai" not in log.read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("context", ["owner/holodeck-mt", ""])
def test_the_version_input_names_the_actions_repository_even_without_the_context(
    tmp_path: Path, context: str
) -> None:
    runner = _runner(tmp_path, {}, version="v1.2")
    log = _stub_install(runner)
    action_path = tmp_path / "_actions" / "owner" / "holodeck-mt" / "v1.2"
    action_path.mkdir(parents=True)
    runner.env = {"GITHUB_ACTION_PATH": str(action_path), "ACTION_REPOSITORY_CONTEXT": context}
    done = runner.run(_action()["runs"]["steps"][0])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "-- git+https://github.com/owner/holodeck-mt@v1.2\n" in log.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_args_input_passes_options(tmp_path: Path) -> None:
    assert _runner(tmp_path / "a", {"agent.yaml": BROKEN}).validate().returncode == 1
    ignored = _runner(tmp_path / "b", {"agent.yaml": BROKEN}, args="--ignore\n HMT105").validate()
    assert ignored.returncode == 0, ignored.stdout + ignored.stderr
    hostile = _runner(tmp_path / "c", {"agent.yaml": BROKEN}, args="$(touch pwned) --strict")
    assert hostile.validate().returncode == 2
    assert not list((tmp_path / "c" / "repo").glob("pwned*"))


@pytest.mark.slow
def test_the_platform_input_requires_the_platforms_models(tmp_path: Path) -> None:
    """Where holodeck-ai does not import, `platform` fails the step rather than leave the
    agent's own sections unchecked (the default run says which went unchecked)."""
    missing = {"holodeck/__init__.py": "raise ImportError('not installed')\n"}
    python = shadowed_python(tmp_path / "without-holodeck", missing)
    agent = "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: hi\n"
    done = _runner(tmp_path / "a", {"agent.yaml": agent}).validate(python)
    assert done.returncode == 0, done.stdout + done.stderr
    judged = _runner(tmp_path / "b", {"agent.yaml": agent}, platform="true")
    done = judged.validate(python)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "--platform required, but the platform's models do not import" in done.stderr


@pytest.mark.slow
def test_the_summary_has_the_counts_a_table_and_says_when_annotations_are_capped(
    tmp_path: Path,
) -> None:
    cases = "test_cases:\n" + "".join(f"  - name: t{i}\n    turns: 3\n" for i in range(12))
    runner = _runner(tmp_path, {"agent.yaml": cases})
    summary = tmp_path / "summary.md"
    runner.env = {"GITHUB_STEP_SUMMARY": str(summary)}
    done = runner.validate()
    assert done.returncode == 1
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("### holodeck-mt: failed\n")
    assert "Found 12 errors and 0 warnings in 1 of 1 file." in text
    assert "this run has 12 errors, all in the job's log." in text
    assert "| agent.yaml\\:3\\:12 | error | HMT102 wrong-type |" in text
    assert "| HMT102 wrong-type | error | 12 |" in text
    off = _runner(tmp_path / "off", {"agent.yaml": cases}, summary="false")
    off.env = {"GITHUB_STEP_SUMMARY": str(tmp_path / "off.md")}
    off.validate()
    assert not (tmp_path / "off.md").exists()


@pytest.mark.slow
def test_one_run_of_the_validator_writes_the_annotations_the_summary_and_the_sarif(
    tmp_path: Path,
) -> None:
    runner = _runner(
        tmp_path, {"a.yaml": BROKEN, "b/agent.yaml": BROKEN}, **{"sarif-file": "out.sarif"}
    )
    log = runner.temp / "runs.log"
    python = runner.temp / "python"
    python.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{sys.executable}" "$@"\n', "utf-8")
    python.chmod(0o755)
    summary = tmp_path / "summary.md"
    runner.env = {"GITHUB_STEP_SUMMARY": str(summary)}
    done = runner.validate(str(python))
    assert done.returncode == 1, done.stdout + done.stderr
    (run,) = log.read_text(encoding="utf-8").splitlines()
    assert run.startswith("-I -m holodeck_mt validate ")
    assert "::error file=a.yaml,line=3," in done.stdout
    assert "::error file=b/agent.yaml,line=3," in done.stdout
    sarif = json.loads((runner.workspace / "out.sarif").read_text(encoding="utf-8"))
    found = {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
        for r in sarif["runs"][0]["results"]
    }
    assert found == {("HMT105", "a.yaml"), ("HMT105", "b/agent.yaml")}
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("### holodeck-mt: failed\n")
    assert "| a.yaml | 1 | 0 |" in text and "| b/agent.yaml | 1 | 0 |" in text
    assert not list(runner.temp.glob("holodeck-mt-summary.*")), "the summary's file is left"


@pytest.mark.slow
def test_a_usage_error_fails_the_step_and_writes_no_summary(tmp_path: Path) -> None:
    runner = _runner(tmp_path, {"agent.yaml": BROKEN}, args="--select HMT999")
    summary = tmp_path / "summary.md"
    runner.env = {"GITHUB_STEP_SUMMARY": str(summary)}
    done = runner.validate()
    assert done.returncode == 2, done.stdout + done.stderr
    assert not summary.exists() or summary.read_text(encoding="utf-8") == ""
    assert not list(runner.temp.glob("holodeck-mt-summary.*"))
