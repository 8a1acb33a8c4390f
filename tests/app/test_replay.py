"""The run cache: a repeated run prints the same bytes and exit code without starting the
command line, and anything the run looked at, changed, makes it run again
(holodeck_mt.app.replay)."""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from holodeck_mt.app import cli, entry, file_states, replay, tool_state
from tests.conftest import ROOT

AGENT = """\
name: replayed
model: {provider: openai, name: gpt-4o}
instructions: {inline: "${GREETING} from the desk"}
test_cases_file: cases.yaml
"""

CASES = """\
- name: first
  turns:
    - input: what was the revenue?
      ground_truth: 206588
    - input: and the year before?
      ground_truth: '181001'
"""

FORMATS = ["text", "json", "sarif", "github", "junit"]

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository (its ``.git`` ends every search upward) with an agent.yaml and its
    test-cases file; a home folder of its own; files settled as soon as written."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "agent.yaml").write_text(AGENT, encoding="utf-8")
    (root / "cases.yaml").write_text(CASES, encoding="utf-8")
    (tmp_path / "home").mkdir()
    Path(os.environ["HOLODECK_MT_CACHE_DIR"]).mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GREETING", "hello")
    monkeypatch.setattr(file_states, "SETTLED_NS", 0)
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The argument lists the command line was started with (a replayed run starts none)."""
    seen: list[list[str]] = []
    real = cli.main

    def counted(argv: list[str], **kwargs: replay.Run | None) -> int:
        seen.append(list(argv))
        return real(argv, **kwargs)

    monkeypatch.setattr(cli, "main", counted)
    return seen


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def go(*args: str) -> tuple[int, str]:
        code = entry.main(["validate", *(args or ["agent.yaml"]), "--jobs", "1"])
        return code, capsys.readouterr().out

    return go


def _entries() -> Iterator[Path]:
    return (Path(os.environ["HOLODECK_MT_CACHE_DIR"]) / "runs").rglob("*.json")


@pytest.mark.parametrize("form", FORMATS)
def test_a_repeated_run_prints_the_same_report_and_exit_code_without_running(
    project: Path, started: list[list[str]], run: Run, form: str
) -> None:
    uncached = run("agent.yaml", "--format", form, "--no-cache")
    first = run("agent.yaml", "--format", form)
    again = run("agent.yaml", "--format", form)
    assert uncached == first == again
    assert first[0] == 1  # the number for a string is an error
    assert len(started) == 2  # the third run started no command line
    assert len(list(_entries())) == 1
    assert list((Path(os.environ["HOLODECK_MT_CACHE_DIR"]) / "runs").rglob("*.tmp")) == []


def test_a_touched_file_is_served_by_the_result_cache_then_replayed_again(
    project: Path, started: list[list[str]], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from holodeck_mt import pipeline

    validated: list[str] = []
    real = pipeline.validate_file

    def counted(path: str, **kwargs: object) -> list[pipeline.FileResult]:
        validated.append(path)
        return real(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "validate_file", counted)
    first = run()
    os.utime(project / "cases.yaml", ns=(1, 1))
    assert run() == first == run()
    assert len(started) == 2  # its times changed: not replayed, then replayed again
    assert validated == ["agent.yaml"]  # the second run reused the file's results


def _edit_the_file(project: Path) -> None:  # same size: only the content tells
    (project / "agent.yaml").write_text(AGENT.replace("replayed", "replayer"), encoding="utf-8")


def _edit_the_test_cases_file(project: Path) -> None:
    (project / "cases.yaml").write_text(CASES.replace("206588", "206589"), encoding="utf-8")


def _link_the_test_cases_file_elsewhere(project: Path) -> None:
    (project / "other.yaml").write_text(CASES, encoding="utf-8")
    (project / "cases.yaml").unlink()
    (project / "cases.yaml").symlink_to(project / "other.yaml")


def _set_another_variable(project: Path) -> None:
    os.environ["UNRELATED"] = "any variable may change a report"


def _write_a_dotenv(project: Path) -> None:
    (project / ".env").write_text("GREETING=hi\n", encoding="utf-8")


def _write_the_users_dotenv(project: Path) -> None:
    home = Path(os.environ["HOME"]) / ".holodeck"
    home.mkdir()
    (home / ".env").write_text("OTHER=1\n", encoding="utf-8")


def _write_a_configuration(project: Path) -> None:
    (project / ".holodeck-mt.toml").write_text('ignore = ["HMT2"]\n', encoding="utf-8")


def _write_a_pyproject_with_the_table(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.holodeck-mt]\nstrict = true\n", encoding="utf-8")


def _move_the_repository_root(project: Path) -> None:
    (project / ".git").rmdir()


def _bump_the_validator(project: Path) -> None:
    import holodeck_mt

    holodeck_mt.__version__ += ".post1"
    tool_state.forget()


CHANGES: dict[str, Callable[[Path], None]] = {
    "the file's bytes": _edit_the_file,
    "the test_cases_file it names": _edit_the_test_cases_file,
    "where the test_cases_file leads": _link_the_test_cases_file_elsewhere,
    "any environment variable": _set_another_variable,
    "a .env in the working folder": _write_a_dotenv,
    "the user's ~/.holodeck/.env": _write_the_users_dotenv,
    "a configuration file": _write_a_configuration,
    "a pyproject.toml with the table": _write_a_pyproject_with_the_table,
    "the repository's root": _move_the_repository_root,
    "the validator": _bump_the_validator,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_changing_what_the_run_looked_at_runs_it_again(
    project: Path,
    started: list[list[str]],
    run: Run,
    monkeypatch: pytest.MonkeyPatch,
    change: str,
) -> None:
    import holodeck_mt

    monkeypatch.setattr(holodeck_mt, "__version__", holodeck_mt.__version__)
    monkeypatch.delenv("UNRELATED", raising=False)
    run()
    CHANGES[change](project)
    code, out = run()
    tool_state.forget()
    assert len(started) == 2, change
    assert (code, out) == run("agent.yaml", "--no-cache"), change


def test_an_agent_yaml_above_a_named_test_cases_file_runs_it_again(
    project: Path, started: list[list[str]], run: Run
) -> None:
    (project / "agent.yaml").unlink()
    (project / "data").mkdir()
    (project / "data" / "cases.yaml").write_text(CASES, encoding="utf-8")
    first = run("data/cases.yaml")
    (project / "agent.yaml").write_text(
        AGENT.replace("cases.yaml", "data/cases.yaml"), encoding="utf-8"
    )
    second = run("data/cases.yaml")
    assert len(started) == 2
    assert second != first


@pytest.mark.parametrize("added", ["a YAML file", "a folder with an agent.yaml"])
def test_a_file_added_to_a_searched_folder_runs_it_again(
    project: Path, started: list[list[str]], run: Run, added: str
) -> None:
    first = run(".")
    if added == "a YAML file":
        (project / "more.yaml").write_text(CASES, encoding="utf-8")
    else:
        (project / "other").mkdir()
        (project / "other" / "agent.yaml").write_text(AGENT, encoding="utf-8")
    second = run(".")
    assert len(started) == 2
    assert second != first


def test_other_arguments_are_another_run(project: Path, started: list[list[str]], run: Run) -> None:
    run()
    run("agent.yaml", "--max-diagnostics", "1")
    run("agent.yaml", "--max-diagnostics", "1")
    assert len(started) == 2


@pytest.mark.parametrize(
    "args", [["--no-cache"], ["--no-c"], ["--import-graders"], ["--check-files"]]
)
def test_runs_the_result_cache_does_not_serve_are_not_kept(
    project: Path, started: list[list[str]], run: Run, args: list[str]
) -> None:
    run("agent.yaml", *args)
    run("agent.yaml", *args)
    assert len(started) == 2
    assert list(_entries()) == []


def test_a_run_with_a_usage_problem_is_not_kept(
    project: Path, started: list[list[str]], run: Run
) -> None:
    assert run("agent.yaml", "missing.yaml")[0] == 2
    assert run("agent.yaml", "missing.yaml")[0] == 2
    assert list(_entries()) == []


def test_a_configurations_cache_dir_keeps_no_run(
    project: Path, started: list[list[str]], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HOLODECK_MT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(project.parent / "user-cache"))
    (project / ".holodeck-mt.toml").write_text('cache-dir = ".results"\n', encoding="utf-8")
    run()
    run()
    assert len(started) == 2
    assert not (project.parent / "user-cache").exists()


def test_a_file_changed_just_before_the_run_is_not_trusted_on_its_times(
    project: Path, started: list[list[str]], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(file_states, "SETTLED_NS", 3600 * 10**9)  # an hour: nothing settled
    run()
    run()
    assert len(started) == 2
    assert list(_entries()) == []


def _planted(entry: dict[str, object]) -> dict[str, object]:
    """The report swapped for one that repaints the terminal, with its hash to match."""
    output = "\x1b[2J\x1b]0;owned\x07all good\n"
    return {**entry, "output": output, "digest": replay._digest(output), "code": 0}


CORRUPTIONS: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda data: data[: len(data) // 2],
    "not JSON": lambda data: b"\x80\x81 garbage",
    "empty": lambda data: b"",
    "another key": lambda data: data.replace(b'"key":"', b'"key":"0'),
    "another format": lambda data: data.replace(b'"format":1', b'"format":0'),
    "a report that does not hash to its hash": lambda data: data.replace(b"HMT", b"XYZ", 1),
    "a state with a field too many": lambda data: data.replace(b'"file","/', b'"file",0,"/', 1),
    "a planted report with a terminal escape": lambda data: json.dumps(
        _planted(json.loads(data))
    ).encode(),
    "an exit code the run cannot have": lambda data: data.replace(b'"code":1', b'"code":2'),
    "an exit code that is not a number": lambda data: data.replace(b'"code":1', b'"code":true'),
    "a state of the wrong shape": lambda data: data.replace(b'"states":[[', b'"states":[[7,'),
    "a state of another kind": lambda data: data.replace(b'"absent"', b'"present"', 1),
    "oversized": lambda data: data + b" " * (replay.MAX_ENTRY_BYTES + 1),
    "nested too deep": lambda data: b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_corrupt_run_entry_is_ignored(
    project: Path, started: list[list[str]], run: Run, corruption: str
) -> None:
    first = run()
    (kept,) = _entries()
    kept.write_bytes(CORRUPTIONS[corruption](kept.read_bytes()))
    assert run() == first
    assert len(started) == 2, corruption


def _probed(monkeypatch: pytest.MonkeyPatch) -> tuple[set[str], set[str]]:
    """Every path the process looks at (stats, lists) and opens from now on (absolute)."""
    looked: set[str] = set()
    opened: set[str] = set()
    calls = [(os, name, looked) for name in ("stat", "lstat", "scandir", "listdir", "readlink")]
    for module, name, seen in [*calls, (os, "open", opened), (builtins, "open", opened)]:
        real = getattr(module, name)

        def probe(
            path: object = ".",
            *args: object,
            _real: object = real,
            _seen: set[str] = seen,
            **kw: object,
        ) -> object:
            if isinstance(path, (str, os.PathLike)):
                _seen.add(os.path.abspath(os.fsdecode(path)))
            return _real(path, *args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(module, name, probe)
    return looked, opened


@pytest.mark.parametrize("args", [["agent.yaml"], ["."], ["cases.yaml"]])
def test_every_path_a_run_looks_at_is_recorded_with_it(
    project: Path, run: Run, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    (project / "sub").mkdir()
    (project / "sub" / "notes.yaml").write_text("title: not a test case\n", encoding="utf-8")
    (project / "sub" / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    (project / ".holodeck-mt.toml").write_text('ignore = ["HMT221"]\n', encoding="utf-8")
    (project / ".env").write_text("OTHER=1\n", encoding="utf-8")
    with monkeypatch.context() as patched:
        looked, opened = _probed(patched)
        cli.main(["validate", *args, "--jobs", "1", "--no-cache"])
    run(*args)
    (kept,) = _entries()
    states = json.loads(kept.read_bytes())["states"]
    recorded = {state[0] for state in states}
    contents = {state[0] for state in states if state[1] in ("file", "absent")}
    listed = {state[0] for state in states if state[1] == "listing"}
    # The validator itself (its package, Python, the installed distributions) is in the
    # run's key; the folders above a recorded path are those a path lookup walks.
    tool = {os.path.dirname(tool_state.schema_dir()), sys.prefix, sys.base_prefix, *sys.path}
    tool = {os.path.abspath(p) for p in tool if p} - {"/"}
    above = {str(p) for r in recorded | tool for p in Path(r).parents}
    unrecorded = [
        path
        for path in looked
        if path not in recorded | above
        and os.path.dirname(path) not in listed
        and not path.startswith(tuple(tool))
    ]
    unread = [path for path in opened if path not in contents and not path.startswith(tuple(tool))]
    assert (unrecorded, unread) == ([], [])


def _python(args: list[str], cwd: Path, prelude: str = "") -> tuple[int, bytes, set[str]]:
    """``holodeck-mt`` in a process of its own (``prelude`` run first): its exit code,
    its stdout and the modules it had imported when it ended."""
    code = (
        f"import atexit, sys\n{prelude}\n"
        "atexit.register(lambda: sys.stderr.write(' '.join(sorted(sys.modules))))\n"
        "from holodeck_mt.app.entry import main\nraise SystemExit(main())"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, env=env, check=False
    )
    return done.returncode, done.stdout, set(done.stderr.decode().split())


@pytest.mark.parametrize("form", ["text", "json", "sarif", "github"])
def test_a_replayed_run_writes_the_same_bytes_and_imports_nothing_of_the_validator(
    project: Path, form: str
) -> None:
    args = ["validate", "agent.yaml", "--jobs", "1", "--format", form]
    code, uncached, _ = _python([*args, "--no-cache"], project)
    settle = "from holodeck_mt.app import file_states\nfile_states.SETTLED_NS = 0"
    assert _python(args, project, settle)[:2] == (code, uncached)
    replayed_code, replayed, imported = _python(args, project)
    assert (replayed_code, replayed) == (code, uncached)
    assert code == 1
    heavy = {"holodeck_mt.app.cli", "holodeck_mt.pipeline", "holodeck_mt.model", "yaml", "typing"}
    assert imported & heavy == set()
