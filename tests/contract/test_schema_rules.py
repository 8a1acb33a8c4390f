"""Each rule of contract sections 2-4 and each metric-field bound, pinned by the schema alone.

Every file under fixtures/invalid/schema/ breaks exactly one rule and must be rejected
by the draft 2020-12 schema with no Python post-pass; every valid fixture, every
committed contract example and every real sample must be accepted by it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.contract import registry as schemas
from holodeck_mt.read import loader
from tests.conftest import SAMPLES, sample_files, slow_if_long

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
INVALID = sorted((TESTS / "fixtures/invalid/schema").glob("*.yaml"))
VALID = sorted((TESTS / "fixtures/valid").glob("*.yaml"))
CONTRACT_EXAMPLES = sorted((REPO / "examples/contract").glob("*.yaml"))

#: The keys of a single-turn test case that a multi-turn one must not carry: the schema
#: names them on the multi-turn test case only to refuse them (hidden from completion).
_SINGLE_TURN_KEYS = {
    key
    for key, prop in schemas.schema_files()[schemas.BASE_URI + "test-case.schema.json"]["$defs"][
        "MultiTurnTestCase"
    ]["properties"].items()
    if prop.get("doNotSuggest")
}


def _load(path: Path) -> Any:
    document = loader.load(path.read_text(encoding="utf-8"))
    assert document.loaded and not document.diagnostics, document.diagnostics
    return document.data


def _root(path: Path) -> str:
    """Test-cases files (named so, or under a data/ folder) against their own root."""
    if path.name.startswith("test-cases-file") or path.parent.name == "data":
        return schemas.TEST_CASES_FILE
    return schemas.DOCUMENT


def _errors(path: Path) -> list[str]:
    validator = schemas.validator(_root(path))
    return [f"{e.json_path}: {e.message}" for e in validator.iter_errors(_load(path))]


def _expects(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        json.loads(line[len("# expect: ") :]) for line in lines if line.startswith("# expect: ")
    ]


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def test_every_rule_has_an_invalid_fixture() -> None:
    assert len(INVALID) >= 45


@pytest.mark.parametrize("fixture", INVALID, ids=_ids(INVALID))
def test_schema_alone_rejects(fixture: Path) -> None:
    assert _errors(fixture), f"{fixture.name} breaks a rule, but the schema accepts it"


@pytest.mark.parametrize("fixture", VALID, ids=_ids(VALID))
def test_valid_fixture_is_accepted_by_the_schema(fixture: Path) -> None:
    assert _errors(fixture) == []


@pytest.mark.parametrize("example", CONTRACT_EXAMPLES, ids=_ids(CONTRACT_EXAMPLES))
def test_contract_example_is_accepted_by_the_schema(example: Path) -> None:
    assert _errors(example) == []


def _sample_files() -> list[Any]:
    agents = sample_files("agent.yaml")
    data = [p for p in sample_files("*.yaml") if p.parent.name == "data"]
    return [
        pytest.param(
            p,
            id=str(p.relative_to(SAMPLES)),
            marks=slow_if_long(p.stat().st_size),
        )
        for p in agents + data
    ]


@pytest.mark.usefixtures("samples")
@pytest.mark.parametrize("sample", _sample_files())
def test_real_sample_is_accepted_by_the_schema(sample: Path) -> None:
    assert _errors(sample) == []


# --- the `# expect:` lines are exact ------------------------------------------------

_PATH_PART = re.compile(r'\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]')


def _parts(path: str) -> tuple[str | int, ...]:
    """``turns[1].args.a`` -> ("turns", 1, "args", "a"): the CLI's path format, parsed."""
    parts: list[str | int] = []
    pos = 0
    while pos < len(path):
        match = _PATH_PART.match(path, pos)
        assert match, f"not a CLI path: {path!r}"
        key, index, quoted = match.groups()
        parts.append(int(index) if index is not None else key if key is not None else quoted)
        pos = match.end()
    return tuple(parts)


def _at_key(code: str, data: Any, parts: tuple[str | int, ...]) -> bool:
    """Whether the CLI locates this diagnostic at the key (else at the value)."""
    if code in ("HMT100", "HMT110"):
        return True
    if code == "HMT105":
        return bool(parts) and parts[-1] in _SINGLE_TURN_KEYS
    if code == "HMT106":  # a key beside a matcher key, not the matcher mapping itself
        parent = data
        for part in parts[:-1]:
            parent = parent[part]
        return isinstance(parent, dict) and bool({"fuzzy", "regex"} & parent.keys())
    return False


@pytest.mark.parametrize("fixture", INVALID, ids=_ids(INVALID))
def test_expect_lines_name_the_faulty_test_case_path_and_line(fixture: Path) -> None:
    document = loader.load(fixture.read_text(encoding="utf-8"))
    assert document.positions is not None
    data = document.data
    expects = _expects(fixture)
    assert len(expects) == 1, "one fault per fixture"
    for expect in expects:
        located = {"code", "test_case", "test_case_index", "path", "line"}
        assert located <= set(expect) <= located | {"message", "hint"}
        index = expect["test_case_index"]
        parts = _parts(expect["path"])
        if index is None:
            assert expect["test_case"] is None
            full = parts
        else:
            cases = data if isinstance(data, list) else data["test_cases"]
            case = cases[index]
            name = case.get("name") if isinstance(case, dict) else None
            assert expect["test_case"] == (name if isinstance(name, str) and name else None)
            full = ((index,) if isinstance(data, list) else ("test_cases", index)) + parts
        if _at_key(expect["code"], data, full):
            line = document.positions.key(data, full)[0]
        else:
            line = document.positions.value(data, full)[0]
        assert expect["line"] == line
