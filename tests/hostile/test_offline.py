"""Nothing leaves the machine: every fixture validates with sockets blocked."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import NoReturn

import pytest

from holodeck_mt.app import cli
from holodeck_mt.pipeline import validate_file
from holodeck_mt.selection import Options
from tests.hostile.cases import write

TESTS = Path(__file__).resolve().parents[1]
REGRESSIONS = Path(__file__).resolve().parent / "regressions"


class NetworkUsed(AssertionError):
    pass


def _refuse(*args: object, **kwargs: object) -> NoReturn:
    raise NetworkUsed(f"network access attempted: {args!r}")


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("socket", "create_connection", "getaddrinfo", "gethostbyname", "socketpair"):
        monkeypatch.setattr(socket, name, _refuse)


def _every_fixture(tmp_path: Path) -> list[Path]:
    files = [p for p in TESTS.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()]
    files = [p for p in files if "node_modules" not in p.parts]
    if REGRESSIONS.is_dir():
        files += sorted(p for p in REGRESSIONS.iterdir() if p.is_file())
    return sorted(files) + write(tmp_path / "hostile")


@pytest.mark.usefixtures("no_network")
def test_the_whole_fixture_suite_validates_with_sockets_blocked(tmp_path: Path) -> None:
    files = _every_fixture(tmp_path)
    assert len(files) > 50
    options = Options(check_files=True)
    for path in files:
        for result in validate_file(path, options=options):
            assert result.path
    with pytest.raises(NetworkUsed):
        socket.create_connection(("example.com", 80))


@pytest.mark.usefixtures("no_network")
def test_the_cli_over_every_fixture_stays_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _every_fixture(tmp_path)
    code = cli.main(["validate", *map(str, files), "--jobs", "1", "--format", "json"])
    captured = capsys.readouterr()
    # 2: only for the files named that are not HoloDeck's (tests/not_holodeck), said so.
    others = [line for line in captured.err.splitlines() if "not a HoloDeck agent.yaml" not in line]
    assert code in (0, 1) or (code == 2 and not others), others
    assert json.loads(captured.out)["summary"]["files"] > 50
    assert "network access attempted" not in captured.err
    assert "internal error" not in captured.err
