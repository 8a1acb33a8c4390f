"""``.env`` files read as the ``holodeck`` command reads them (holodeck_mt/read/substitution.py).

The command loads ``./.env`` then ``~/.holodeck/.env`` with python-dotenv's
``load_dotenv(override=False)``: values expanded (``${A}``, ``${A:-x}``), the environment
never overridden. The variables the validator sees are compared with those python-dotenv
itself sets in a child process on the same files; the fixtures of ``tests/fixtures/dotenv``
pin what a user reads.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.read import substitution
from tests.conftest import FIXTURES, RunJson, fixture_header
from tests.timeouts import scaled

#: What ``holodeck`` runs at start (holodeck/cli/main.py), python-dotenv's own calls.
LOAD_AS_THE_COMMAND_DOES = """
import json, os
from pathlib import Path
from dotenv import load_dotenv
before = dict(os.environ)
project_env = Path.cwd() / ".env"
if project_env.exists():
    load_dotenv(project_env, override=False)
user_env = Path.home() / ".holodeck" / ".env"
if user_env.exists():
    load_dotenv(user_env, override=False)
print(json.dumps({"before": before, "after": dict(os.environ)}))
"""


@dataclass(frozen=True)
class Files:
    project: str | None
    user: str | None = None
    environ: dict[str, str] = field(default_factory=dict)


CASES = {
    "chain": Files("BASE_T=0.2\nAGENT_T=${BASE_T}\nAPI_BASE=https://${HOST}/v1\n"),
    "defaults": Files("A=${MISSING:-fallback}\nB=${BASE:-9}\nBASE=1\nC=${BASE:-9}\nD=${NONE:-}\n"),
    "the environment": Files(
        "HOST=file.example\nURL=https://${HOST}/\nOWN=${HOME_ONLY}\n",
        environ={"HOST": "env.example", "HOME_ONLY": "from-env"},
    ),
    "a later line": Files("A=${B}\nB=1\nC=${B}\n"),
    "the other file": Files(
        "P=${U}\nSHARED=project\n",
        user="U=user\nQ=${SHARED}-${U}\nSHARED=user\nR=${P:-unset}\n",
    ),
    "only the user file": Files(None, user="ONLY=${ONLY_ENV}x\n", environ={"ONLY_ENV": "e"}),
    "quotes and export": Files(
        "S='${A}'\nD=\"${A}\"\nA=a\nexport E=${A}\nQ=\"multi\nline ${A}\"\nT='x\\'y'\n"
    ),
    "bare keys and comments": Files(
        "# a comment ${A}\nBARE\nR=${BARE:-d}\nEMPTY=\nE2=${EMPTY:-d}\nX=1 # note\n"
    ),
    "duplicates and line breaks": Files("A=1\r\nA=2\r\nB=${A}\rC=${A}${A}\n"),
    "odd references": Files("A=${}\nB=${A:B}\nC=$A\nD=${A\nE=${ A }\nF=\\${A}\n"),
    "lines python-dotenv cannot parse": Files("A=1\n=2\n'x\nB=${A}\nC='open\n"),
    "disabled from the project file": Files("PYTHON_DOTENV_DISABLED=1\nA=1\n", user="B=2\n"),
    "disabled in the environment": Files(
        "A=1\n", user="B=2\n", environ={"PYTHON_DOTENV_DISABLED": "true"}
    ),
    "a byte order mark": Files("\ufeffA=1\nB=${A}\n"),
}


def _write(root: Path, files: Files) -> tuple[Path, Path]:
    work, home = root / "work", root / "home"
    (home / ".holodeck").mkdir(parents=True)
    work.mkdir()
    if files.project is not None:
        (work / ".env").write_bytes(files.project.encode("utf-8"))
    if files.user is not None:
        (home / ".holodeck" / ".env").write_bytes(files.user.encode("utf-8"))
    return work, home


def _as_the_command_loads(work: Path, home: Path, environ: dict[str, str]) -> dict[str, Any]:
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), **environ}
    done = subprocess.run(
        [sys.executable, "-c", LOAD_AS_THE_COMMAND_DOES],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=scaled(60),
        check=True,
    )
    loaded: dict[str, Any] = json.loads(done.stdout)
    return loaded


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_the_variables_are_those_python_dotenv_sets(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = CASES[name]
    work, home = _write(tmp_path, files)
    loaded = _as_the_command_loads(work, home, files.environ)
    monkeypatch.setenv("HOME", str(home))  # where ``~`` is, for this process too
    found = substitution.environment(work, loaded["before"])
    assert found.variables == loaded["after"]
    assert found.refused == ()


def test_the_working_directory_is_the_default_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work, home = _write(tmp_path, Files("A=1\nB=${A}2\n"))
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    found = substitution.environment(environ={})
    assert found.variables == {"A": "1", "B": "12"}


def test_nothing_is_read_into_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work, home = _write(tmp_path, Files("HMT_DOTENV_ONLY=1\n", user="HMT_DOTENV_USER=2\n"))
    monkeypatch.setenv("HOME", str(home))
    before = dict(os.environ)
    assert substitution.environment(work).variables["HMT_DOTENV_ONLY"] == "1"
    assert dict(os.environ) == before


# --- the fixtures: what a user reads ------------------------------------------------------------

CASE_FOLDERS = sorted(p for p in (FIXTURES / "dotenv").iterdir() if p.is_dir())


def _checkout(case: Path, tmp_path: Path) -> Path:
    """The case's folder copied, its ``repo/dotenv`` made ``repo/.env`` (a regular file),
    or ``repo/dotenv.link`` made a link of the target it names."""
    root = tmp_path / case.name
    shutil.copytree(case, root)
    repo = root / "repo"
    if (repo / "dotenv").exists():
        (repo / "dotenv").rename(repo / ".env")
    if (repo / "dotenv.link").exists():
        target = (repo / "dotenv.link").read_text(encoding="utf-8").strip()
        (repo / "dotenv.link").unlink()
        (repo / ".env").symlink_to(target)
    return repo


@pytest.mark.parametrize("case", CASE_FOLDERS, ids=lambda p: p.name)
def test_each_dotenv_fixture_reports_exactly_its_expected_diagnostics(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_json: RunJson
) -> None:
    repo = _checkout(case, tmp_path)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("AGENT_T", "BASE_T", "GREETING", "HMT_FIXTURE_INNER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("HMT_FIXTURE_NOT_SET_ANYWHERE", raising=False)
    _, expected = fixture_header(repo / "agent.yaml")
    code, document = run_json("agent.yaml")
    [found] = document["files"]
    shown = [
        (d["code"], d["test_case"], d["test_case_index"], d["path"], d["line"])
        for d in found["diagnostics"]
    ]
    wanted = [
        (e["code"], e["test_case"], e["test_case_index"], e["path"], e["line"]) for e in expected
    ]
    assert Counter(shown) == Counter(wanted)
    messages = {(d["message"], d["hint"]) for d in found["diagnostics"]}
    for e in expected:
        if "message" in e:
            assert (e["message"], e.get("hint")) in messages
    errors = any(d["severity"] == "error" for d in found["diagnostics"])
    assert code == (1 if errors else 0)


def test_a_variable_only_the_agents_folders_dotenv_sets_is_said_to_be_read_from_where_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_json: RunJson
) -> None:
    """`sub/.env` sets it, `./.env` does not: the hint says which `.env` the command reads."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / ".env").write_text("OTHER=1\n", encoding="utf-8")
    (tmp_path / "sub" / ".env").write_text("AGENT_T=0.5\n", encoding="utf-8")
    agent = "name: a\nmodel: {provider: openai, name: gpt-4o, temperature: ${AGENT_T}}\n"
    (tmp_path / "sub" / "agent.yaml").write_text(
        agent + "instructions: {inline: hi}\ntest_cases:\n  - input: hello\n", encoding="utf-8"
    )
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("AGENT_T", raising=False)
    monkeypatch.chdir(tmp_path)
    code, document = run_json("sub/agent.yaml")
    [diagnostic] = document["files"][0]["diagnostics"]
    assert (code, diagnostic["code"], diagnostic["line"]) == (0, "HMT213", 2)
    assert diagnostic["hint"] == (
        "`holodeck test` reads ./.env where it runs (the working folder), not the .env in this "
        "file's folder, which sets AGENT_T: set it in ./.env, or run from this file's folder, "
        "or remove ${AGENT_T}"
    )
    monkeypatch.chdir(tmp_path / "sub")  # run from there, the command reads sub/.env
    code, document = run_json("agent.yaml")
    assert (code, document["files"][0]["diagnostics"]) == (0, [])
