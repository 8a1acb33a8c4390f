"""``holodeck-mt fix``: the safe fixes by default, the rest with --unsafe-fixes, a diff with --diff.

Golden-tested (tests/fix/inputs -> tests/fix/expected, ``make goldens`` regenerates them) on
files with comments, CRLF line endings, flow and block styles, anchors and every fixable
code. A fix changes the fixed characters and nothing else.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from holodeck_mt import validate_text
from holodeck_mt.app.cli import main
from holodeck_mt.fix import engine as fixes
from tests.conftest import LONG, SAMPLES
from tests.support import update_fix_goldens as goldens

CASES = goldens.cases()


@pytest.mark.parametrize(
    ("source", "mode", "expected"), CASES, ids=[f"{s.stem}-{m}" for s, m, _ in CASES]
)
def test_fix_writes_the_golden_bytes(source: Path, mode: str, expected: Path) -> None:
    assert goldens.fixed(source, mode) == expected.read_bytes()


@pytest.mark.parametrize("source", sorted(goldens.INPUTS.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_fixed_file_reports_none_of_the_fixed_codes(source: Path) -> None:
    text = source.read_bytes().decode("utf-8")
    before = validate_text(text).diagnostics
    fixed = goldens.fixed(source, "unsafe").decode("utf-8")
    fixed_codes = {f.diagnostic.code for f in fixes.fixes(text, before)}
    after = validate_text(fixed).diagnostics
    assert fixed_codes
    assert [d for d in after if d.code in fixed_codes] == []
    assert fixes.fixes(fixed, after) == []


def test_every_fixable_code_is_in_the_goldens() -> None:
    codes = set()
    for source in goldens.INPUTS.glob("*.yaml"):
        text = source.read_bytes().decode("utf-8")
        codes |= {f.diagnostic.code for f in fixes.fixes(text, validate_text(text).diagnostics)}
    assert codes == {
        "HMT100",
        "HMT102",
        "HMT103",
        "HMT200",
        "HMT203",
        "HMT204",
        "HMT210",
        "HMT211",
    }


def test_crlf_line_endings_stay_crlf() -> None:
    fixed = goldens.fixed(goldens.INPUTS / "crlf.yaml", "unsafe")
    assert fixed.count(b"\r\n") == fixed.count(b"\n") > 0


def _copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copyfile(goldens.INPUTS / name, target)
    return target


def test_diff_prints_the_change_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = _copy(tmp_path, "block-style.yaml")
    before = target.read_bytes()
    assert main(["fix", "--diff", str(target)]) == 1
    out, err = capsys.readouterr()
    assert target.read_bytes() == before
    assert out.startswith(f"--- a/{target}\n+++ b/{target}\n")
    assert "-        ground_truth: 206588.10" in out
    assert '+        ground_truth: "206588.10"' in out
    assert '+        ground_truth: "181001"' not in out  # an unsafe fix is not in the safe diff
    assert err.startswith("Would fix 5 problems in 1 file. 6 unsafe fixes not applied")


def test_safe_fixes_leave_unsafe_ones_and_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = _copy(tmp_path, "block-style.yaml")
    assert main(["fix", str(target)]) == 1  # the misspelt key is still an error
    err = capsys.readouterr().err
    assert "Fixed 5 problems in 1 file. 6 unsafe fixes not applied" in err
    assert main(["fix", "--unsafe-fixes", str(target)]) == 0
    fixed = target.read_text(encoding="utf-8")
    after = validate_text(fixed).diagnostics
    assert [d for d in after if d.severity == "error"] == []
    assert fixes.fixes(fixed, after) == []


def test_a_file_with_nothing_to_fix_is_not_rewritten(tmp_path: Path) -> None:
    target = tmp_path / "cases.yaml"
    target.write_bytes(b"- input: q  # fine\r\n  ground_truth: a\r\n")
    stamp = target.stat().st_mtime_ns
    assert main(["fix", "--unsafe-fixes", str(target)]) == 0
    assert target.stat().st_mtime_ns == stamp


def test_a_byte_order_mark_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "cases.yaml"
    target.write_bytes(b"\xef\xbb\xbf- input: q\n  ground_truth: 12\n")
    assert main(["fix", str(target)]) == 0
    assert target.read_bytes() == b'\xef\xbb\xbf- input: q\n  ground_truth: "12"\n'


def test_the_test_cases_file_an_agent_names_is_fixed_too(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text("name: a\ntest_cases_file: cases.yaml\n")
    (tmp_path / "cases.yaml").write_text("- input: q\n  ground_truth: 12\n")
    assert main(["fix", str(tmp_path)]) == 0
    assert (tmp_path / "cases.yaml").read_text() == '- input: q\n  ground_truth: "12"\n'


def test_a_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["fix", str(tmp_path / "nowhere.yaml")]) == 2


@pytest.mark.usefixtures("samples")
@pytest.mark.parametrize(
    "every", [pytest.param(False, id="short"), pytest.param(True, id="all", marks=pytest.mark.slow)]
)
def test_the_real_samples_pass_through_fix_byte_for_byte(tmp_path: Path, every: bool) -> None:
    """Fix changes no byte of the samples: in the fast suite, of those holding no file past
    :data:`tests.conftest.LONG` (the slow suite fixes them all)."""
    copy = tmp_path / "samples"
    shutil.copytree(SAMPLES, copy)
    if not every:
        long = {p.relative_to(copy).parts[0] for p in copy.rglob("*") if p.stat().st_size > LONG}
        for sample in long:
            shutil.rmtree(copy / sample)
    assert main(["fix", "--unsafe-fixes", str(copy)]) == 0
    files = sorted(p.relative_to(copy) for p in copy.rglob("*") if p.is_file())
    assert files
    for relative in files:
        assert (copy / relative).read_bytes() == (SAMPLES / relative).read_bytes(), relative


def test_a_key_the_platform_ignores_is_removed_only_with_unsafe_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "agent.yaml").write_text("name: a\ntest_cases_file: cases.yaml\n")
    cases = tmp_path / "cases.yaml"
    written = "notes: drafted by hand  # old\ntest_cases:\n  - input: q\n"
    cases.write_text(written)
    assert main(["fix", str(tmp_path / "agent.yaml")]) == 0
    assert cases.read_text() == written
    assert "1 unsafe fix not applied" in capsys.readouterr().err
    assert main(["fix", "--unsafe-fixes", str(tmp_path / "agent.yaml")]) == 0
    assert cases.read_text() == "test_cases:\n  - input: q\n"
