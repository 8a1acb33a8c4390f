"""Whatever an input quotes, the output stays small: every quote clipped, diagnostics capped.

A megabyte name aliased into thousands of faulty test cases must not become
gigabytes of output in any format.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from holodeck_mt.render import FORMATS
from tests.hostile.test_hostile import MAX_MESSAGE, diagnostics, run_cli

#: The longest quoted field a diagnostic carries (test case, path, pointer, message).
MAX_FIELD = MAX_MESSAGE


def _aliased_name(length: int, cases: int) -> str:
    """One long name, aliased into ``cases`` test cases that each hold a fault."""
    first = f"test_cases:\n  - name: &n {'N' * length}\n    input: 1\n"
    return first + "  - name: *n\n    input: 1\n" * (cases - 1)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_long_name_aliased_into_many_faulty_test_cases_gives_bounded_output(
    fmt: str, tmp_path: Path
) -> None:
    (tmp_path / "agent.yaml").write_text(_aliased_name(20_000, 300))
    code, out, err = run_cli("agent.yaml", "--format", fmt, cwd=tmp_path)
    assert code == 1, err
    assert "Traceback" not in err
    # 599 diagnostics (300 wrong types, 299 duplicate names): about 1 KB each at most.
    assert len(out) < 1_000_000


def test_every_quoted_json_field_is_clipped(tmp_path: Path) -> None:
    long = "k" * 100_000
    (tmp_path / "agent.yaml").write_text(
        f"? {long}\n: 1\n"  # an unknown top-level key (explicit: a long key)
        "test_cases:\n"
        f"  - name: {long}\n"
        "    input: hi\n"
        f"    expected_tools: [{long}, {long}]\n"  # HMT203
        "    evaluations:\n"
        f"      - metric: {long}\n"  # not a known metric
        "        absolute_tolerance: 0.1\n"
        f"  - name: {long}\n"  # HMT201
        "    input: hi\n"
        f"    ? {long}\n    : 1\n"  # an unknown key in a test case
    )
    code, out, err = run_cli("agent.yaml", "--format", "json", cwd=tmp_path)
    assert code == 1, err
    found = diagnostics(out)
    assert {"HMT201", "HMT203"} <= {d["code"] for d in found}
    for d in found:
        for key in ("message", "hint", "test_case", "path", "pointer"):
            assert len(d[key] or "") <= MAX_FIELD, (key, d["code"], len(d[key]))
    assert len(out) < 50_000


def test_ineffective_flag_and_grader_messages_quote_a_clipped_name(tmp_path: Path) -> None:
    long = "m" * 100_000
    (tmp_path / "agent.yaml").write_text(
        "evaluations:\n  metrics:\n"
        f"    - type: code\n      grader: {long}:{long}\n"
        "test_cases:\n  - input: hi\n"
    )
    _code, out, err = run_cli("agent.yaml", "--format", "json", "--import-graders", cwd=tmp_path)
    assert "Traceback" not in err
    assert [d["code"] for d in diagnostics(out)] == ["HMT111"]
    assert len(diagnostics(out)[0]["message"]) <= MAX_FIELD


def _faults(count: int) -> str:
    """``count`` wrong types (even), two per test case: at most 1,000 test cases."""
    return "test_cases:\n" + "  - input: 1\n    name: 2\n" * (count // 2)


def test_past_a_thousand_diagnostics_one_line_counts_the_rest(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text(_faults(1500))
    code, out, _ = run_cli("agent.yaml", "--format", "json", cwd=tmp_path)
    found = diagnostics(out)
    assert code == 1
    assert len(found) == 1001
    assert [d["code"] for d in found[:1000]] == ["HMT102"] * 1000
    last = found[-1]
    assert (last["code"], last["line"]) == ("HMT220", 1002)  # the 1,001st: test case #500
    assert "500 more diagnostics not shown" in last["message"]
    assert "--max-diagnostics 0" in last["hint"]


def test_max_diagnostics_0_shows_them_all(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text(_faults(1500))
    _, out, _ = run_cli("agent.yaml", "--format", "json", "--max-diagnostics", "0", cwd=tmp_path)
    assert [d["code"] for d in diagnostics(out)] == ["HMT102"] * 1500


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_cap_holds_in_every_format(fmt: str, tmp_path: Path) -> None:
    # 60 test cases: 50 examined (ten per diagnostic shown), 10 counted, not examined.
    (tmp_path / "agent.yaml").write_text(_faults(120))
    code, out, _ = run_cli("agent.yaml", "--format", fmt, "--max-diagnostics", "5", cwd=tmp_path)
    assert code == 1
    assert out.count("HMT102") <= 5 * 3  # a code may appear in a title and a rule list too
    assert "HMT220" in out
    if fmt == "json":  # 5 shown, a count of the rest, a count of test cases not examined
        document = json.loads(out)
        codes = [d["code"] for d in document["files"][0]["diagnostics"]]
        assert codes == ["HMT102"] * 5 + ["HMT220", "HMT220"]
        assert document["files"][0]["diagnostics"][-1]["message"].startswith(
            "10 more invalid test cases not examined"
        )
        assert (document["summary"]["errors"], document["summary"]["warnings"]) == (100, 0)


def test_junit_lists_a_bounded_number_of_test_cases(tmp_path: Path) -> None:
    (tmp_path / "cases.yaml").write_text("- input: 1\n" * 20_000)
    code, out, _ = run_cli("cases.yaml", "--format", "junit", cwd=tmp_path)
    assert code == 1
    assert out.count("<testcase ") <= 2_002
    assert "more test cases with no diagnostic shown are not listed" in out
