"""``fix`` writes the file it read, inside the tree, atomically, or leaves it alone.

A checkout is hostile and a file can change under the command: a link out of the
repository is never written through, a path is never written by its displayed name,
and a full disk, a read-only file or a concurrent edit ends with a one-line error
naming the file (exit 2), the original intact.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.fix import engine
from holodeck_mt.project import writes

FIXABLE = "- input: q\n  ground_truth: 12\n"
FIXED = '- input: q\n  ground_truth: "12"\n'


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_link_out_of_the_tree_is_never_written_through(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = repo.parent / "outside.yaml"
    outside.write_text(FIXABLE)
    (repo / "cases.yaml").symlink_to(outside)
    assert main(["fix", "cases.yaml"]) == 1
    assert outside.read_text() == FIXABLE
    assert "Fixed 0 problems in 0 files." in capsys.readouterr().err


def test_a_followed_file_is_written_at_its_real_path_not_its_shown_one(repo: Path) -> None:
    # link/../cases.yaml reads a/cases.yaml (the link is resolved first); the path shown
    # for it, normalised, is cases.yaml: a different file, which must stay as it is.
    (repo / "a" / "b").mkdir(parents=True)
    (repo / "link").symlink_to(repo / "a" / "b")
    (repo / "a" / "cases.yaml").write_text(FIXABLE)
    (repo / "cases.yaml").write_text("- input: other\n  ground_truth: kept\n")
    (repo / "agent.yaml").write_text("name: a\ntest_cases_file: link/../cases.yaml\n")
    assert main(["fix", "agent.yaml"]) == 0
    assert (repo / "a" / "cases.yaml").read_text() == FIXED
    assert (repo / "cases.yaml").read_text() == "- input: other\n  ground_truth: kept\n"


def test_a_full_disk_half_way_leaves_the_original_intact(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = repo / "cases.yaml"
    target.write_text(FIXABLE)

    def half_then_full(descriptor: int, chunk: memoryview) -> int:
        if len(chunk) > 1:
            return os.write(descriptor, chunk[: len(chunk) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    calls: list[int] = []

    def write(descriptor: int, chunk: memoryview) -> int:
        calls.append(len(chunk))
        if len(calls) == 1:
            return half_then_full(descriptor, chunk)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(writes, "_write_chunk", write)
    assert main(["fix", "cases.yaml"]) == 2
    err = capsys.readouterr().err
    assert target.read_text() == FIXABLE
    assert _leftovers(repo) == []
    lines = [line for line in err.splitlines() if line.startswith("holodeck-mt: error:")]
    assert lines == [
        "holodeck-mt: error: cannot write 'cases.yaml': No space left on device; it is unchanged"
    ] or (len(lines) == 1 and "No space left on device" in lines[0] and "cases.yaml" in lines[0])
    assert "Traceback" not in err


def test_a_read_only_file_is_left_alone_with_one_line(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = repo / "cases.yaml"
    target.write_text(FIXABLE)
    target.chmod(0o444)
    assert main(["fix", "cases.yaml"]) == 2
    err = capsys.readouterr().err
    assert target.read_text() == FIXABLE
    assert "cases.yaml" in err and "read-only" in err
    assert "Traceback" not in err


def test_a_permission_error_making_the_temporary_file_is_one_line(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = repo / "cases.yaml"
    target.write_text(FIXABLE)

    def refuse(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    assert main(["fix", "cases.yaml"]) == 2
    err = capsys.readouterr().err
    assert target.read_text() == FIXABLE
    assert "cannot write 'cases.yaml': Permission denied" in err


def test_a_file_edited_while_it_is_fixed_is_left_alone(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = repo / "cases.yaml"
    target.write_text(FIXABLE)
    edited = FIXABLE + "- input: typed meanwhile\n"
    fix_all = engine.fix_all

    def fix_while_someone_types(*args: object, **kwargs: object) -> engine.Outcome:
        target.write_text(edited)
        return fix_all(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "fix_all", fix_while_someone_types)
    assert main(["fix", "cases.yaml"]) == 2
    assert target.read_text() == edited
    assert "changed since it was read: it is left alone" in capsys.readouterr().err


def test_the_mode_of_a_fixed_file_is_kept(repo: Path) -> None:
    target = repo / "cases.yaml"
    target.write_text(FIXABLE)
    target.chmod(0o640)
    assert main(["fix", "cases.yaml"]) == 0
    assert target.read_text() == FIXED
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert _leftovers(repo) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_a_file_fixed_as_root_keeps_its_owner_and_group(repo: Path) -> None:
    target = repo / "cases.yaml"
    target.write_text(FIXABLE)
    os.chown(target, 12345, 23456)
    target.chmod(0o2640)  # set-group-id too: a change of owner would clear it
    assert main(["fix", "cases.yaml"]) == 0
    assert target.read_text() == FIXED
    status = target.stat()
    assert (status.st_uid, status.st_gid) == (12345, 23456)
    assert stat.S_IMODE(status.st_mode) == 0o2640
    assert _leftovers(repo) == []


def test_a_user_who_may_not_give_the_file_away_keeps_its_group(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = repo / "cases.yaml"
    target.write_text(FIXABLE)
    status = target.stat()
    given: list[tuple[int, int]] = []

    def fchown(descriptor: int, uid: int, gid: int) -> None:
        given.append((uid, gid))
        if uid != -1:
            raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(writes, "_snapshot", _owned_by(writes._snapshot, status.st_uid + 1))
    monkeypatch.setattr(os, "fchown", fchown, raising=False)
    assert main(["fix", "cases.yaml"]) == 0
    assert target.read_text() == FIXED
    assert given == [(status.st_uid + 1, status.st_gid), (-1, status.st_gid)]


def _owned_by(snapshot: Callable[..., writes.Snapshot], uid: int) -> Callable[..., object]:
    """``_snapshot`` as if the file belonged to another user."""

    def changed(*args: object) -> writes.Snapshot:
        found = snapshot(*args)
        return dataclasses.replace(found, owner=(uid, found.owner[1]))

    return changed


def test_a_file_with_an_undecodable_name_is_fixed_under_its_real_name(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = os.fsdecode(b"cases-\xff\x1b[31m.yaml")
    (repo / name).write_text(FIXABLE)
    assert main(["fix", "--diff", "."]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "--- a/cases-\\xff\\x1b[31m.yaml" in out
    assert main(["fix", "."]) == 0
    assert sorted(os.listdir(repo)) == [name]
    assert (repo / name).read_text() == FIXED


def test_a_diff_escapes_what_a_terminal_acts_on_and_writes_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = repo / "cases.yaml"
    text = "- input: q  # \u202egnp.exe\n  ground_truth: 12\n"
    target.write_text(text)
    assert main(["fix", "--diff", "cases.yaml"]) == 1
    out = capsys.readouterr().out
    assert "\u202e" not in out
    assert " - input: q  # \\u202egnp.exe\n" in out
    assert target.read_text() == text
