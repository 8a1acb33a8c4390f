"""A pull request against the cache (holodeck_mt.app.cache): an entry it forges is never
trusted, its committed links lead no write out of the cache folder, a FIFO in place of an
entry or of the key does not hang the run, the key stays private and outside the
repository, and a file the first run read, deleted, is never replayed as valid."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt import pipeline
from holodeck_mt.app import cache
from holodeck_mt.app.cli import main
from holodeck_mt.contract import platform_models
from holodeck_mt.model import FileResult
from tests.hostile.test_hostile import ROOT
from tests.timeouts import scaled

#: A test case whose input is a number: HMT102 at line 4, an error.
BROKEN = "name: broken\ntest_cases:\n  - name: first\n    input: 1\n"


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout, with the entries' folder and the user's cache folder (the key's) outside
    it; the tests stand in for an attacker who reached the entries all the same."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "agent.yaml").write_text(BROKEN, encoding="utf-8")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("HOLODECK_MT_CACHE_DIR", str(tmp_path / "entries"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return repo


def _validate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["validate", "agent.yaml", "--jobs", "1", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def _reported(code: int, document: dict[str, Any]) -> None:
    """The broken file's error, as a run without the cache reports it."""
    assert code == 1
    [file] = document["files"]
    [found] = file["diagnostics"]
    assert (file["path"], found["code"], found["line"]) == ("agent.yaml", "HMT102", 4)
    assert found["test_case"] == "first" and found["pointer"] == "/test_cases/0/input"
    assert "string" in found["message"]


def _entry(repo: Path) -> Path:
    [entry] = [p for p in (repo.parent / "entries").rglob("*") if p.is_file()]
    return entry


def _no_diagnostics(content: bytes) -> bytes:
    """The entry's content as an attacker wants it: the file valid."""
    payload = json.loads(content.partition(b"\n")[2])
    for result in payload["results"]:
        result["diagnostics"], result["quoted"] = [], []
    return json.dumps(payload, separators=(",", ":")).encode()


def _signed(mac: bytes | str, payload: bytes) -> bytes:
    return (mac.encode() if isinstance(mac, str) else mac) + b"\n" + payload


FORGERIES: dict[str, Callable[[str, bytes, bytes], bytes]] = {
    "the MAC stripped": lambda name, mac, payload: payload,
    "the MAC left empty": lambda name, mac, payload: _signed(b"", payload),
    "the genuine MAC kept": lambda name, mac, payload: _signed(mac, payload),
    "a plain hash for a MAC": lambda name, mac, payload: _signed(
        hashlib.sha256(payload).hexdigest(), payload
    ),
    "a MAC under another key": lambda name, mac, payload: _signed(
        cache._mac(os.urandom(cache.SECRET_BYTES), name.encode(), payload), payload
    ),
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_a_forged_entry_is_not_trusted_and_the_error_is_reported(
    repository: Path, capsys: pytest.CaptureFixture[str], forgery: str
) -> None:
    _reported(*_validate(capsys))
    entry = _entry(repository)
    genuine = entry.read_bytes()
    forged = FORGERIES[forgery](entry.name, genuine.partition(b"\n")[0], _no_diagnostics(genuine))
    entry.write_bytes(forged)
    _reported(*_validate(capsys))
    assert _validate(capsys, "--no-cache") == _validate(capsys)


def test_an_entry_made_under_a_key_committed_to_the_repository_is_not_trusted(
    repository: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attacker commits a key where a CI's cache folder lies in the checkout, and an
    entry made and signed with it: the key is never read there, so neither is trusted."""
    inside = repository / ".cache" / "holodeck-mt"
    inside.mkdir(parents=True)
    key = os.urandom(cache.SECRET_BYTES)
    (inside / cache.SECRET).write_bytes(key)
    (inside / cache.SECRET).chmod(0o600)
    with monkeypatch.context() as patched:  # the attacker's own run, with their key
        patched.setattr(cache, "secret", lambda: key)
        _reported(*_validate(capsys))
    entry = _entry(repository)
    payload = _no_diagnostics(entry.read_bytes())
    entry.write_bytes(cache._mac(key, entry.name.encode(), payload).encode() + b"\n" + payload)
    monkeypatch.setenv("XDG_CACHE_HOME", str(repository / ".cache"))
    assert cache.secret() is None
    _reported(*_validate(capsys))
    monkeypatch.setenv("XDG_CACHE_HOME", str(repository / "elsewhere"))
    monkeypatch.setenv("HOME", str(repository))
    assert cache.secret() is None
    _reported(*_validate(capsys))


def test_a_cache_folder_in_the_checkout_with_committed_links_is_not_used(
    repository: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (repository / ".hmt").mkdir()
    for prefix in range(256):
        (repository / ".hmt" / f"{prefix:02x}").symlink_to(outside, target_is_directory=True)
    (repository / ".out").symlink_to(outside, target_is_directory=True)
    for folder in (".hmt", ".out"):  # a folder in the tree, and a link in it leading out
        monkeypatch.setenv("HOLODECK_MT_CACHE_DIR", str(repository / folder))
        for _ in range(2):
            _reported(*_validate(capsys))
    assert list(outside.iterdir()) == []
    assert all(p.is_symlink() for p in (repository / ".hmt").iterdir())


def _subprocess_validate(cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "holodeck_mt", "validate", "agent.yaml", "--format", "json"]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=scaled(120))


@pytest.mark.parametrize("which", ["an entry", "the key"])
def test_a_fifo_in_place_of_a_cache_file_does_not_hang_the_run(
    repository: Path, tmp_path: Path, which: str
) -> None:
    done = _subprocess_validate(repository)  # the entry, named as the next run names it
    _reported(done.returncode, json.loads(done.stdout))
    key = tmp_path / "user-cache" / "holodeck-mt" / cache.SECRET
    target = _entry(repository) if which == "an entry" else key
    target.unlink()
    os.mkfifo(target)
    done = _subprocess_validate(repository)  # a hang fails on the timeout
    _reported(done.returncode, json.loads(done.stdout))
    assert stat.S_ISFIFO(key.lstat().st_mode) == (which == "the key")


def test_the_key_is_private_and_outside_the_repository(
    repository: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _reported(*_validate(capsys))
    key = tmp_path / "user-cache" / "holodeck-mt" / cache.SECRET
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and key.stat().st_size == 32
    assert [p for p in repository.rglob("*") if p.name == cache.SECRET] == []
    assert _entry(repository).stat().st_size > 0  # the entries are outside it too


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_a_key_others_may_read_is_not_used(
    repository: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: int
) -> None:
    folder = tmp_path / "user-cache" / "holodeck-mt"
    folder.mkdir(parents=True)
    (folder / cache.SECRET).write_bytes(os.urandom(cache.SECRET_BYTES))
    (folder / cache.SECRET).chmod(mode)
    _reported(*_validate(capsys))
    assert not (tmp_path / "entries").exists()  # no key, no cache


AGENT = "name: a\ntest_cases_file: cases.yaml\n"
CASES = "- name: first\n  input: hi\n"


def test_a_deleted_test_cases_file_is_not_replayed_as_valid(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repository / "agent.yaml").write_text(AGENT, encoding="utf-8")
    (repository / "cases.yaml").write_text(CASES, encoding="utf-8")
    assert _validate(capsys)[0] == 0
    (repository / "cases.yaml").unlink()
    code, document = _validate(capsys)
    assert code == 1
    assert document == _validate(capsys, "--no-cache")[1]
    [found] = document["files"][0]["diagnostics"]
    assert found["line"] == 2 and "cases.yaml" in found["message"]


def test_a_deleted_file_the_platform_read_is_validated_again(
    repository: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file recorded in ``FileResult.reads`` is part of what an entry depends on."""
    prompt = repository / "prompt.md"
    prompt.write_text("You help.\n", encoding="utf-8")
    validated: list[str] = []
    real = pipeline.validate_file

    def reading(path: Any, **kwargs: Any) -> list[FileResult]:
        validated.append(str(path))
        results = real(path, **kwargs)
        results[0].reads.append(str(prompt))
        return results

    monkeypatch.setattr(pipeline, "validate_file", reading)
    first = _validate(capsys)
    assert _validate(capsys) == first and len(validated) == 1
    prompt.unlink()
    assert _validate(capsys) == first and len(validated) == 2


PLATFORM_AGENT = """\
name: a
model: {provider: anthropic, name: claude-sonnet-4-5}
instructions: {inline: x}
claude:
  agents:
    helper:
      description: helps
      prompt_file: prompt.md
test_cases:
  - input: hi
"""


def test_a_deleted_prompt_file_is_not_replayed_as_valid(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if platform_models.agent_model() is None:
        pytest.skip("holodeck-ai is not importable here")
    (repository / "agent.yaml").write_text(PLATFORM_AGENT, encoding="utf-8")
    (repository / "prompt.md").write_text("You help.\n", encoding="utf-8")
    if not pipeline.validate_file("agent.yaml")[0].reads:
        pytest.skip("the platform's models do not record the files they read yet")
    assert _validate(capsys)[0] == 0
    (repository / "prompt.md").unlink()
    code, document = _validate(capsys)
    assert code == 1 and document == _validate(capsys, "--no-cache")[1]
    assert "prompt" in document["files"][0]["diagnostics"][0]["message"]


def _in_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str) -> Path:
    """A checkout holding the user's cache folder (``HOME`` or ``XDG_CACHE_HOME`` in it, as
    CI containers set them), the run started elsewhere: the repository's file by its path."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "agent.yaml").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    monkeypatch.delenv("HOLODECK_MT_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv(variable, str(repo if variable == "HOME" else repo / ".cache"))
    return repo


@pytest.mark.parametrize("variable", ["HOME", "XDG_CACHE_HOME"])
def test_a_key_and_entry_committed_in_the_cache_folder_change_no_verdict(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str,
) -> None:
    repo = _in_checkout(tmp_path, monkeypatch, variable)
    agent = str(repo / "agent.yaml")

    def validate() -> tuple[int, dict[str, Any], str]:
        code = main(["validate", agent, "--jobs", "1", "--format", "json"])
        captured = capsys.readouterr()
        return code, json.loads(captured.out), captured.err

    with monkeypatch.context() as patched:  # the attacker's run, the folder taken as it was
        patched.setattr(cache, "find_holding_tree", lambda judged=(): None)
        assert validate()[0] == 1
        folder = repo / ".cache" / "holodeck-mt"
        key = (folder / cache.SECRET).read_bytes()
        [entry] = [p for p in folder.rglob("*") if p.is_file() and p.name != cache.SECRET]
        payload = _no_diagnostics(entry.read_bytes())
        entry.write_bytes(_signed(cache._mac(key, entry.name.encode(), payload), payload))
        assert validate()[0] == 0  # committed so, they would turn the file valid
    notice = f"holodeck-mt: no cache this run: the cache's folder lies in '{repo}'\n"
    for _ in range(2):
        code, document, err = validate()
        [found] = document["files"][0]["diagnostics"]
        assert (code, found["code"], found["line"]) == (1, "HMT102", 4)
        assert err == notice


def test_a_cache_folder_in_the_folder_of_a_file_judged_outside_a_repository_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _in_checkout(tmp_path, monkeypatch, "XDG_CACHE_HOME")
    (repo / ".git").rmdir()
    assert main(["validate", str(repo / "agent.yaml"), "--jobs", "1", "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["files"][0]["diagnostics"][0]["code"] == "HMT102"
    assert captured.err == f"holodeck-mt: no cache this run: the cache's folder lies in '{repo}'\n"
    assert not (repo / ".cache").exists()


def test_a_cache_folder_outside_every_tree_judged_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _in_checkout(tmp_path, monkeypatch, "XDG_CACHE_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "elsewhere" / ".cache"))
    assert main(["validate", str(repo / "agent.yaml"), "--jobs", "1"]) == 1
    assert capsys.readouterr().err == ""
    assert (tmp_path / "elsewhere" / ".cache" / "holodeck-mt" / cache.SECRET).is_file()
