"""The cache: a second run prints the same bytes in every format and platform mode, and
anything a result depends on, changed, makes the file validated afresh (holodeck_mt.app.cache)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from holodeck_mt import pipeline
from holodeck_mt.app import cache
from holodeck_mt.app.cli import main
from holodeck_mt.contract import platform_models, registry
from holodeck_mt.model import FileResult
from tests.timeouts import scaled

AGENT = """\
name: cached
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
      expected_tools: [subtract, subtract]
"""

Run = Callable[..., tuple[int, str]]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "agent.yaml").write_text(AGENT, encoding="utf-8")
    (tmp_path / "cases.yaml").write_text(CASES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GREETING", "hello")
    return tmp_path


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths validated afresh (not read from the cache), in order."""
    seen: list[str] = []
    real = pipeline.validate_file

    def counted(path: Any, **kwargs: Any) -> list[FileResult]:
        seen.append(str(path))
        return real(path, **kwargs)

    monkeypatch.setattr(pipeline, "validate_file", counted)
    return seen


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def go(*args: str) -> tuple[int, str]:
        code = main(["validate", "agent.yaml", "--jobs", "1", *args])
        return code, capsys.readouterr().out

    return go


def _entries() -> Iterator[Path]:
    root = Path(os.environ["HOLODECK_MT_CACHE_DIR"])
    return (p for p in root.rglob("*") if p.is_file()) if root.is_dir() else iter([])


def _with_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    if platform_models.agent_model() is None:
        pytest.skip("holodeck-ai is not importable here")


def _without_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(platform_models._MODELS, "agent", None)


MODES: dict[str, tuple[Callable[[pytest.MonkeyPatch], None], list[str]]] = {
    "with the platform": (_with_platform, []),
    "without the platform": (_without_platform, []),
    "--platform off": (lambda _: None, ["--platform", "off"]),
}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("form", ["text", "json", "sarif", "github", "junit"])
def test_a_second_run_prints_the_same_bytes_from_the_cache(
    project: Path,
    validations: list[str],
    run: Run,
    monkeypatch: pytest.MonkeyPatch,
    form: str,
    mode: str,
) -> None:
    prepare, args = MODES[mode]
    prepare(monkeypatch)
    first = run("--format", form, *args)
    second = run("--format", form, *args)
    assert first == second
    assert first[0] == 1  # the number for a string is an error
    assert validations == ["agent.yaml"]  # the second run validated nothing
    unchecked = mode != "with the platform"
    if form == "text":
        assert first[1].splitlines()[-1].startswith("Not checked: ") == unchecked
    if form == "json":
        sections = json.loads(first[1])["summary"]["unchecked_sections"]
        assert sections == (["name", "model", "instructions"] if unchecked else [])


def test_an_entry_written_without_the_platform_is_not_used_once_it_imports(
    project: Path, validations: list[str], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    _with_platform(monkeypatch)
    with monkeypatch.context() as patched:
        _without_platform(patched)
        assert "Not checked: " in run()[1]
    assert "Not checked: " not in run()[1]
    assert validations == ["agent.yaml", "agent.yaml"]


@pytest.mark.slow
def test_a_platform_that_no_longer_imports_is_another_entry(project: Path) -> None:
    """In a process of its own, which has not imported the platform when it reads the
    cache: a ``holodeck`` package that fails to import now shadows the platform's."""
    if platform_models.agent_model() is None:
        pytest.skip("holodeck-ai is not importable here")
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "holodeck_mt", "validate", "agent.yaml", "--jobs", "1"]

    def output() -> str:
        env = {**os.environ, "PYTHONPATH": str(root)}
        done = subprocess.run(command, env=env, capture_output=True, timeout=scaled(120))
        return done.stdout.decode()

    assert "Not checked: " not in output()
    (project / "holodeck").mkdir()
    (project / "holodeck" / "__init__.py").write_text("raise ImportError\n", encoding="utf-8")
    assert output().splitlines()[-1].startswith("Not checked: name, model, instructions")


def test_strict_applies_to_a_cached_result(project: Path, validations: list[str], run: Run) -> None:
    (project / "cases.yaml").write_text(CASES.replace("206588", "'206588'"), encoding="utf-8")
    assert run()[0] == 0
    code, out = run("--strict")
    assert code == 1 and "HMT203" in out
    assert validations == ["agent.yaml"]


def _change_the_file(project: Path) -> None:
    (project / "agent.yaml").write_text(AGENT.replace("cached", "renamed"), encoding="utf-8")


def _change_the_test_cases_file(project: Path) -> None:
    (project / "cases.yaml").write_text(CASES.replace("206588", "'206588'"), encoding="utf-8")


def _change_a_variable(project: Path) -> None:
    os.environ["GREETING"] = "good morning"


def _unset_a_variable(project: Path) -> None:
    del os.environ["GREETING"]


def _write_a_dotenv(project: Path) -> None:
    (project / ".env").write_text("GREETING=hi\n", encoding="utf-8")


def _write_the_users_dotenv(project: Path) -> None:
    (Path(os.environ["HOME"]) / ".holodeck").mkdir()
    (Path(os.environ["HOME"]) / ".holodeck" / ".env").write_text("X=1\n", encoding="utf-8")


def _write_a_configuration(project: Path) -> None:
    (project / ".holodeck-mt.toml").write_text("strict = false\n", encoding="utf-8")


def _link_the_test_cases_file_elsewhere(project: Path) -> None:
    (project / "other.yaml").write_text(CASES, encoding="utf-8")
    (project / "cases.yaml").unlink()
    (project / "cases.yaml").symlink_to(project / "other.yaml")


def _bump_the_version(project: Path) -> None:
    import holodeck_mt

    holodeck_mt.__version__ += ".post1"


def _another_platform(project: Path) -> None:
    installed = project.parent / f"{project.name}-site"
    (installed / "holodeck_ai-99.0.dist-info").mkdir(parents=True)
    sys.path.append(str(installed))  # sys.path under test


def _edit_a_schema_file(project: Path) -> None:
    copy = project.parent / f"{project.name}-schema"
    shutil.copytree(registry.schema_dir(), copy)
    target = next(iter(sorted(copy.glob("*.schema.json"))))
    document = json.loads(target.read_text(encoding="utf-8"))
    document["description"] = "edited"
    target.write_text(json.dumps(document), encoding="utf-8")
    registry.schema_dir = lambda: copy


CHANGES: dict[str, Callable[[Path], None]] = {
    "the file's bytes": _change_the_file,
    "the test_cases_file it names": _change_the_test_cases_file,
    "a ${NAME} variable's value": _change_a_variable,
    "a ${NAME} variable unset": _unset_a_variable,
    "a .env beside it": _write_a_dotenv,
    "the user's .env the platform reads": _write_the_users_dotenv,
    "a configuration file": _write_a_configuration,
    "where the test_cases_file leads": _link_the_test_cases_file_elsewhere,
    "the validator's version": _bump_the_version,
    "the platform's version": _another_platform,
    "a schema file's content": _edit_a_schema_file,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_changing_a_dependency_validates_the_file_afresh(
    project: Path,
    validations: list[str],
    run: Run,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
    change: str,
) -> None:
    import holodeck_mt

    monkeypatch.setattr(holodeck_mt, "__version__", holodeck_mt.__version__)
    monkeypatch.setattr(registry, "schema_dir", registry.schema_dir)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.setenv("GREETING", "hello")
    cache._tool_state.cache_clear()
    run()
    CHANGES[change](project)
    cache._tool_state.cache_clear()
    run()
    cache._tool_state.cache_clear()
    assert validations == ["agent.yaml", "agent.yaml"], change


def test_a_variable_a_dotenv_value_expands_is_a_dependency_too(
    project: Path, validations: list[str], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GREETING")
    (project / ".env").write_text("GREETING=${HMT_CACHE_BASE} there\n", encoding="utf-8")
    monkeypatch.setenv("HMT_CACHE_BASE", "hello")
    run()
    run()
    monkeypatch.setenv("HMT_CACHE_BASE", "good morning")
    run()
    assert validations == ["agent.yaml", "agent.yaml"]


def test_turning_the_dotenv_files_off_is_a_dependency_too(
    project: Path, validations: list[str], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GREETING")
    (project / ".env").write_text("GREETING=hi\n", encoding="utf-8")
    run()
    monkeypatch.setenv("PYTHON_DOTENV_DISABLED", "1")
    run()
    assert validations == ["agent.yaml", "agent.yaml"]


def test_the_schema_files_keyed_are_the_ones_the_validator_reads(
    project: Path, validations: list[str], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key reads the registry's own folder: no second copy of where schemas live."""
    run()
    _edit_a_schema_file(project)
    monkeypatch.setattr(registry, "schema_dir", registry.schema_dir)
    cache._tool_state.cache_clear()
    run()
    cache._tool_state.cache_clear()
    assert validations == ["agent.yaml", "agent.yaml"]


@pytest.mark.parametrize(
    "args",
    [["--max-diagnostics", "1"], ["--allow-outside-paths"], ["--by-content"], ["--format", "json"]],
)
def test_other_options_are_other_entries(
    project: Path, validations: list[str], run: Run, args: list[str]
) -> None:
    run()
    run(*args)
    expected = ["agent.yaml"] * (1 if args in (["--by-content"], ["--format", "json"]) else 2)
    assert validations == expected


@pytest.mark.parametrize("flag", ["--import-graders", "--check-files", "--no-cache"])
def test_runs_that_cannot_be_cached_store_nothing(
    project: Path, validations: list[str], run: Run, flag: str
) -> None:
    run(flag)
    run(flag)
    assert validations == ["agent.yaml", "agent.yaml"]
    assert list(_entries()) == []


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


CORRUPTIONS: dict[str, Callable[[bytes], bytes]] = {
    "truncated": lambda data: data[: len(data) // 2],
    "not JSON": lambda data: b"\x80\x81 garbage",
    "empty": lambda data: b"",
    "a byte of the MAC changed": lambda data: _flip(data, 3),
    "a byte of the content changed": lambda data: _flip(data, len(data) - 3),
    "oversized": lambda data: data + b" " * (cache.MAX_ENTRY_BYTES + 1),
    "nested too deep": lambda data: b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_corrupt_entry_is_ignored(
    project: Path, validations: list[str], run: Run, corruption: str
) -> None:
    first = run("--format", "json")
    (entry,) = _entries()
    entry.write_bytes(CORRUPTIONS[corruption](entry.read_bytes()))
    assert run("--format", "json") == first
    assert validations == ["agent.yaml", "agent.yaml"], corruption


@pytest.mark.slow
def test_concurrent_runs_share_the_cache(
    project: Path, validations: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    for i in range(6):
        (project / f"agent-{i}.yaml").write_text(AGENT, encoding="utf-8")
    files = [f"agent-{i}.yaml" for i in range(6)]
    outputs = []
    for _ in range(2):
        main(["validate", *files, "--jobs", "3", "--format", "json"])
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert len(list(_entries())) == 6
    assert not [p for p in Path(os.environ["HOLODECK_MT_CACHE_DIR"]).rglob("*.tmp")]


def test_the_default_cache_folder_is_never_inside_the_repository(
    project: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / ".git").mkdir()
    monkeypatch.delenv("HOLODECK_MT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / ".cache"))
    monkeypatch.setenv("HOME", str(project))
    assert cache.find_holding_tree() == str(project) and cache.secret() is None
    run()
    assert not (project / ".cache").exists()
    outside = project.parent / f"{project.name}-user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(outside))
    assert cache.user_folder() == str(outside / "holodeck-mt")
    run()
    assert [p.name for p in outside.rglob("*") if p.is_file()].count(cache.SECRET) == 1
    assert len([p for p in outside.rglob("*") if p.is_file()]) == 2  # the key, an entry
    assert sorted(p.name for p in project.iterdir()) == [".git", "agent.yaml", "cases.yaml"]


def test_the_cache_folder_is_the_one_asked_for(
    project: Path,
    run: Run,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    asked = tmp_path_factory.mktemp("my-cache")  # outside the tree judged
    monkeypatch.setenv("HOLODECK_MT_CACHE_DIR", str(asked))
    run()
    assert [p for p in asked.rglob("*") if p.is_file()] != []


def test_a_file_name_that_is_not_utf8_is_cached_too(
    project: Path, validations: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = os.fsdecode(b"caf\xe9\xff")  # a lone surrogate in the name, as argv gives it
    os.mkdir(folder)
    inline = AGENT.replace("test_cases_file: cases.yaml\n", "test_cases:\n") + CASES
    (project / folder / "agent.yaml").write_text(inline, encoding="utf-8")
    outputs = []
    for _ in range(2):
        main(["validate", f"{folder}/agent.yaml", "--jobs", "1", "--format", "json"])
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert '"code": "HMT203"' in outputs[0]
    assert len(validations) == 1


def test_a_configurations_cache_dir_is_refused_with_why(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A repository's own file chose where the cache was kept, inside the tree judged: a pull
    request could commit it. The key is refused in one line that says why, never ignored."""
    (project / ".holodeck-mt.toml").write_text('cache-dir = ".results"\n', encoding="utf-8")
    assert main(["validate", "agent.yaml", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "'cache-dir' is no longer read: the cache is never kept in a tree it judges" in err
    assert not (project / ".results").exists()


def test_a_cache_folder_named_inside_the_repository_is_not_used(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".git").mkdir(exist_ok=True)
    monkeypatch.setenv("HOLODECK_MT_CACHE_DIR", str(project / ".results"))
    for _ in range(2):
        assert main(["validate", "agent.yaml", "--jobs", "1"]) == 1
        err = capsys.readouterr().err
        assert err == f"holodeck-mt: no cache this run: the cache's folder lies in '{project}'\n"
    assert not (project / ".results").exists()


def test_results_too_large_for_an_entry_are_never_encoded_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "K" * 400_000  # named by 100 diagnostics: 40 MB of JSON, over the entry's limit
    text = f"test_cases:\n  - input: hi\n    ? &k {key}\n    : 1\n"
    (tmp_path / "big.yaml").write_text(text + "  - input: hi\n    ? *k\n    : 1\n" * 99)
    monkeypatch.chdir(tmp_path)
    encoded: list[int] = []

    def dumps(value: Any, **options: Any) -> str:
        encoded.append(len(done := json.dumps(value, **options)))
        return done

    monkeypatch.setattr(cache, "json", SimpleNamespace(dumps=dumps, loads=json.loads))
    assert main(["validate", "big.yaml", "--jobs", "1"]) == 1
    assert capsys.readouterr().out.count("error[HMT100]") == 100
    assert list(_entries()) == []
    assert max(encoded, default=0) <= cache.MAX_ENTRY_BYTES
