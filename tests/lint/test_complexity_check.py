"""The complexity ceiling (scripts/complexity_check.py, run on the package by `make lint`):
15 and 60 lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import complexity_check as cc


def _branches(name: str, count: int) -> str:
    """A function of cyclomatic complexity ``count + 1``, on few lines."""
    body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(count))
    return f"def {name}(x: int) -> int:\n{body}    return -1\n"


def _lines(name: str, count: int) -> str:
    """A straight function of ``count`` lines, its ``def`` included."""
    body = "".join(f"    x += {i}\n" for i in range(count - 2))
    return f"def {name}(x: int) -> int:\n{body}    return x\n"


def _run(tmp_path: Path, source: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "module.py"
    path.write_text(source, encoding="utf-8")
    code = cc.main([str(path)])
    return code, capsys.readouterr().out


def test_a_function_at_the_ceiling_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _branches("fifteen", 14) + "\n\n" + _lines("sixty", 60)
    assert _run(tmp_path, source, capsys) == (0, "")


def test_one_branch_or_one_line_past_it_fails_naming_the_function(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _branches("sixteen", 15) + "\n\n" + _lines("sixty_one", 61)
    code, out = _run(tmp_path, source, capsys)
    assert code == 1
    assert "module.py:1: sixteen has a complexity of 16 (at most 15)" in out
    assert "sixty_one has 61 lines (at most 60)" in out


def test_a_closure_and_a_method_count_on_their_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inner = "".join("    " + line + "\n" for line in _branches("inner", 16).splitlines())
    method = "".join("    " + line + "\n" for line in _lines("method", 61).splitlines())
    source = f"def outer() -> None:\n{inner}\n\nclass C:\n{method}"
    code, out = _run(tmp_path, source, capsys)
    assert code == 1
    assert "outer.inner has a complexity of 17" in out
    assert "method has 61 lines" in out
