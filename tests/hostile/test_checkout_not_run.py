"""Nothing a checkout commits is imported or run by the Action, the pre-commit hook or the
commands the docs give for CI.

The working folder is the checkout, and Python puts the working folder first on ``sys.path``
for ``-m`` and ``-c``: a committed ``yaml.py`` would run inside the validator, a committed
``holodeck_mt/`` would replace it (a broken file passing). Every interpreter is started with
``-I`` or is the ``holodeck-mt`` console script, whose ``sys.path`` starts at its own folder.
Each module planted here writes a mark and exits 0 if imported: no mark may appear, and the
broken file must still fail.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from holodeck_mt import __version__
from holodeck_mt.app.cli import main
from tests.conftest import ROOT
from tests.docs_pages import pages
from tests.test_action import BROKEN, Runner, _action, _runner

#: The modules a checkout could plant where the tools look first: the validator and what it
#: imports, pip and venv (the install), the platform's models, and start-up hooks.
PLANTED = (
    "yaml.py",
    "jsonschema/__init__.py",
    "holodeck_mt/__init__.py",
    "holodeck_mt/__main__.py",
    "holodeck/__init__.py",
    "pip/__init__.py",
    "pip/__main__.py",
    "venv/__init__.py",
    "venv/__main__.py",
    "sitecustomize.py",
    "usercustomize.py",
)


def _planted(marks: Path) -> dict[str, str]:
    """Each planted module: if imported, it leaves a mark named after it and exits 0."""
    return {
        name: f"open({str(marks / name.replace('/', '.'))!r}, 'w').close()\nraise SystemExit(0)\n"
        for name in PLANTED
    }


def _checkout(tmp_path: Path, **inputs: str) -> tuple[Runner, Path]:
    marks = tmp_path / "marks"
    marks.mkdir()
    files = {**_planted(marks), "agent.yaml": BROKEN, "data/cases.yaml": BROKEN}
    return _runner(tmp_path, files, **inputs), marks


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


# --- the Action -------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_actions_steps_import_nothing_from_the_checkout(tmp_path: Path) -> None:
    """Every step as GitHub runs it, the install included: the virtual environment made,
    pip run, the version checked, the validator run once for every report. The python3 on
    PATH is the real one; it only logs its arguments and, once the venv is made, lets it
    see this checkout's dependencies (no package index here)."""
    runner, marks = _checkout(tmp_path, **{"sarif-file": "out.sarif"})
    home = runner.temp / "holodeck-mt-venv"
    tools, log = tmp_path / "bin", tmp_path / "python3.log"
    tools.mkdir()
    python3 = tools / "python3"
    python3.write_text(
        f'#!/bin/sh\necho "$*" >> "{log}"\n"{sys.executable}" "$@" || exit $?\n'
        f'for site in "{home}"/lib/python*/site-packages; do\n'
        f'  if [ -d "$site" ]; then echo "{sysconfig.get_paths()["purelib"]}" '
        '> "$site/checkout-dependencies.pth"; fi\ndone\n',
        encoding="utf-8",
    )
    python3.chmod(0o755)
    summary = tmp_path / "summary.md"
    runner.env = {
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    install, *rest = _action()["runs"]["steps"]
    done = runner.run(install)
    assert done.returncode == 0, done.stdout + done.stderr
    assert log.read_text(encoding="utf-8").startswith(f"-I -m venv {home}\n")
    assert f"holodeck-mt {__version__}" in done.stdout  # the installed package, not the planted
    assert Path(runner.outputs["install"]["python"]).is_relative_to(home)
    for step in rest:
        done = runner.run(step)
    assert sorted(p.name for p in marks.iterdir()) == []
    assert done.returncode == 1, done.stdout + done.stderr
    assert "::error file=agent.yaml,line=3," in done.stdout
    assert "::error file=data/cases.yaml,line=3," in done.stdout
    assert '"ruleId": "HMT105"' in (runner.workspace / "out.sarif").read_text(encoding="utf-8")
    assert summary.read_text(encoding="utf-8").startswith("### holodeck-mt: failed\n")


@pytest.mark.slow
def test_the_validate_step_imports_nothing_from_the_checkout(tmp_path: Path) -> None:
    runner, marks = _checkout(tmp_path)
    done = runner.validate()
    assert sorted(p.name for p in marks.iterdir()) == []
    assert done.returncode == 1, done.stdout + done.stderr
    assert "::error file=agent.yaml,line=3," in done.stdout


def test_every_python_the_action_starts_is_isolated() -> None:
    runs = "\n".join(step["run"] for step in _action()["runs"]["steps"])
    started = re.findall(r'"\$(\w+)"((?: -\w+)*) -[mc] ', runs)
    assert len(started) >= 6
    assert all("-I" in flags.split() for _, flags in started), started


# --- the pre-commit hook ----------------------------------------------------------------------


def _hook_command() -> list[str]:
    (hook,) = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    command, *args = hook["entry"].split()
    scripts = (ROOT / "pyproject.toml").read_text("utf-8").split("[project.scripts]\n", 1)[1]
    assert scripts.startswith(f"{command} = "), "the hook's entry is not our console script"
    return [str(Path(sysconfig.get_path("scripts")) / command), *args]


@pytest.mark.slow
def test_the_hooks_console_script_imports_nothing_from_the_checkout(tmp_path: Path) -> None:
    """pre-commit runs the entry in its own environment, as installed there: the console
    script, whose sys.path starts at its own folder, never the working one."""
    runner, marks = _checkout(tmp_path)
    files = ["agent.yaml", "data/cases.yaml", "yaml.py"]
    done = subprocess.run(
        [*_hook_command(), *files],
        cwd=runner.workspace,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert sorted(p.name for p in marks.iterdir()) == []
    assert done.returncode == 1, done.stdout + done.stderr
    assert "agent.yaml:3:12: error[HMT105]" in done.stdout
    assert "data/cases.yaml:3:12: error[HMT105]" in done.stdout


# --- the docs ---------------------------------------------------------------------------------


def test_every_python_the_docs_start_keeps_the_checkout_off_sys_path() -> None:
    """A command a page gives for the validator runs python with -I, or the console script."""
    started = [
        (name, flags)
        for name, text in pages().items()
        for flags in re.findall(r"\bpython3?((?: -\w+)*) -[mc] holodeck_mt\b", text)
    ]
    assert started, "no page starts python -m holodeck_mt: this test looks for nothing"
    for name, flags in started:
        assert "-I" in flags.split() or "-P" in flags.split(), (name, flags)


# --- the reports ------------------------------------------------------------------------------


def test_a_report_is_never_written_through_a_link_out_of_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout, outside = tmp_path / "checkout", tmp_path / "outside"
    checkout.mkdir()
    outside.mkdir()
    (outside / "kept").write_text("kept\n", encoding="utf-8")
    (checkout / "agent.yaml").write_text(BROKEN, encoding="utf-8")
    (checkout / "reports").symlink_to(outside)
    (checkout / "holodeck-mt.sarif").symlink_to(outside / "kept")
    monkeypatch.chdir(checkout)
    for report in ("sarif:reports/out.sarif", "sarif:holodeck-mt.sarif"):
        assert main(["validate", "--no-cache", "--report", report, "agent.yaml"]) == 2
        path = report.split(":", 1)[1]
        assert (
            f"cannot write '{path}': the path is a link that leaves the repository tree"
            in capsys.readouterr().err
        )
    assert main(["validate", "--no-cache", "-o", "reports/out.txt", "agent.yaml"]) == 2
    assert sorted(p.name for p in outside.iterdir()) == ["kept"]
    assert (outside / "kept").read_text(encoding="utf-8") == "kept\n"
    # A path outside the tree that the command line names is the user's own choice.
    assert main(["validate", "--no-cache", "--report", f"sarif:{outside}/r.sarif", "."]) == 1
    assert (outside / "r.sarif").is_file()


@pytest.mark.slow
@pytest.mark.skipif(sys.version_info < (3, 11), reason="PYTHONSAFEPATH is read from 3.11 on")
def test_spawned_workers_import_nothing_from_the_checkout(tmp_path: Path) -> None:
    """Where workers are spawned (macOS, Windows), each starts as `python -c ...`, which puts
    the working folder first on sys.path before it imports multiprocessing: the console
    script's workers are started with PYTHONSAFEPATH, so a planted `multiprocessing/` is not
    imported. Spawning is forced here, as those systems do."""
    runner, marks = _checkout(tmp_path)
    planted = runner.workspace / "multiprocessing" / "__init__.py"
    planted.parent.mkdir()
    planted.write_text(f"open({str(marks / 'multiprocessing')!r}, 'w').close()\n", "utf-8")
    driver = tmp_path / "driver" / "run.py"  # a script, as the console script is
    driver.parent.mkdir()
    driver.write_text(
        "import multiprocessing, sys\n"
        "from holodeck_mt.app import cli\n"
        "if __name__ == '__main__':\n"
        "    multiprocessing.set_start_method('spawn', force=True)\n"
        "    cli._FORK = False\n"
        "    sys.exit(cli.main(sys.argv[1:]))\n",
        encoding="utf-8",
    )
    args = ["validate", "--no-cache", "-j", "2", "agent.yaml", "data/cases.yaml"]
    done = subprocess.run(
        [sys.executable, str(driver), *args],
        cwd=runner.workspace,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert sorted(p.name for p in marks.iterdir()) == []
    assert done.returncode == 1, done.stdout + done.stderr
    assert "data/cases.yaml:3:12: error[HMT105]" in done.stdout
