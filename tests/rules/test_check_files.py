"""--check-files (HMT112, HMT120), in process: what each attached file's entry reports.

tests/hostile/test_path_confinement.py runs the same rules through a child process,
as CI does; these run the validator in the test's own process, so that every entry's
code, path, line, message and hint is pinned where a changed message would show.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.conftest import RunJson

OUTSIDE_HINT = "keep attached files inside the repository (--allow-outside-paths allows others)"
NOT_FOUND_HINT = "paths are relative to the agent.yaml's folder"


def _agent(folder: Path, *paths: str) -> str:
    """An agent.yaml in ``folder`` whose one test case attaches ``paths`` (lines 6, 8, ...)."""
    entries = "".join(f"      - path: {p}\n        type: text\n" for p in paths)
    agent = folder / "agent.yaml"
    agent.write_text(
        f"name: a\ntest_cases:\n  - name: t\n    input: hi\n    files:\n{entries}",
        encoding="utf-8",
    )
    return str(agent)


def _seen(document: dict[str, Any]) -> list[tuple[str, str, str, int, str, str | None]]:
    """(code, test case, path, line, message, hint) of each diagnostic, in order."""
    return [
        (d["code"], d["test_case"], d["path"], d["line"], d["message"], d["hint"])
        for f in document["files"]
        for d in f["diagnostics"]
    ]


def test_check_files_reports_each_entry_after_one_it_skips_or_refuses(
    tmp_path: Path, run_json: RunJson
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (tmp_path / "secret.txt").write_text("outside\n", encoding="utf-8")
    (repo / "folder").mkdir()
    os.mkfifo(repo / "pipe.txt")
    (repo / "present.txt").write_text("here\n", encoding="utf-8")
    agent = _agent(
        repo,
        "3",  # not a string: the schema's fault, skipped by this check
        "../secret.txt",
        '"nul\\0byte.txt"',
        "missing.txt",
        "folder",
        "present.txt",
        "pipe.txt",
    )
    code, document = run_json(agent, "--check-files")
    assert code == 1
    assert _seen(document) == [
        (
            "HMT102",
            "t",
            "files[0].path",
            6,
            "`path` must be a string, got integer 3",
            'quote it: path: "3"',
        ),
        (
            "HMT120",
            "t",
            "files[1].path",
            8,
            "file '../secret.txt' leaves the repository tree",
            OUTSIDE_HINT,
        ),
        (
            "HMT112",
            "t",
            "files[2].path",
            10,
            "file 'nul\x00byte.txt' cannot be checked (embedded null byte)",
            None,
        ),
        (
            "HMT112",
            "t",
            "files[3].path",
            12,
            f"file 'missing.txt' not found (looked for {repo / 'missing.txt'})",
            NOT_FOUND_HINT,
        ),
        ("HMT112", "t", "files[4].path", 14, "'folder' is a folder, not a file", None),
        ("HMT112", "t", "files[6].path", 18, "'pipe.txt' is not a regular file", None),
    ]


def test_check_files_names_the_system_reason_a_path_cannot_be_checked(
    tmp_path: Path, run_json: RunJson
) -> None:
    long_name = "n" * 300  # longer than a file name may be: the system's reason, not errno's
    code, document = run_json(_agent(tmp_path, long_name, "missing.txt"), "--check-files")
    assert code == 1
    assert [(c, p, m) for c, _, p, _, m, _ in _seen(document)] == [
        ("HMT112", "files[0].path", f"file '{'n' * 59}…' cannot be checked (File name too long)"),
        (
            "HMT112",
            "files[1].path",
            f"file 'missing.txt' not found (looked for {tmp_path / 'missing.txt'})",
        ),
    ]


def test_check_files_clips_the_path_it_looked_for_at_200_characters(
    tmp_path: Path, run_json: RunJson
) -> None:
    deep = "d" * 120 + "/" + "e" * 120 + ".txt"
    _, document = run_json(_agent(tmp_path, deep), "--check-files")
    (found,) = _seen(document)
    looked_for = str(tmp_path / deep)[:199] + "…"
    assert found[4] == f"file '{deep[:59]}…' not found (looked for {looked_for})"
    assert found[5] == NOT_FOUND_HINT


def test_allow_outside_paths_lets_check_files_stat_a_file_beside_the_tree(
    tmp_path: Path, run_json: RunJson
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (tmp_path / "beside.txt").write_text("beside\n", encoding="utf-8")
    agent = _agent(repo, "../beside.txt", "../gone.txt")
    code, document = run_json(agent, "--check-files", "--allow-outside-paths")
    assert code == 1
    assert [(c, p, m) for c, _, p, _, m, _ in _seen(document)] == [
        (
            "HMT112",
            "files[1].path",
            f"file '../gone.txt' not found (looked for {repo / '../gone.txt'})",
        )
    ]
