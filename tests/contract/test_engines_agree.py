"""Both ways to reach the diagnostics give the same ones, byte for byte.

``HOLODECK_MT_ENGINE=python`` walks every document with Python jsonschema; the
default lets the compiled validator settle valid documents and pick the invalid
test cases, and only those go through jsonschema (``holodeck_mt.contract.compiled``).
Whatever path was taken, the user sees the same codes, paths, lines, messages,
hints and exit code: on every fixture and example, on generated corpora with
planted faults, and on generated documents with random damage.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holodeck_mt.app.cli import main
from holodeck_mt.contract import compiled as fast_path
from holodeck_mt.contract import registry
from holodeck_mt.contract.walker import ANNOTATIONS
from holodeck_mt.pipeline import validate_text
from holodeck_mt.rules.registry import RULES
from tests.conftest import SAMPLES
from tests.support import corpus as gen

#: The run-time lints: a valid file may well trigger them.
RUNTIME_LINTS = {rule.code for rule in RULES if rule.runs == "runtime"}

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = (ROOT / "tests" / "fixtures", ROOT / "tests" / "hostile", ROOT / "examples", SAMPLES)


def _yaml_files() -> list[Path]:
    found: list[Path] = []
    for folder in FOLDERS:
        if folder.is_dir():
            found += sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml"))
    return found


YAML_FILES = _yaml_files()


def _options(path: Path) -> list[str]:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[:10]:
        if line.startswith("# options:"):
            return line.split(":", 1)[1].split()
    return []


def _cli(monkeypatch: pytest.MonkeyPatch, engine: str, *args: str) -> tuple[int, str]:
    monkeypatch.setenv(fast_path.ENGINE_VARIABLE, engine)
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["validate", *args, "--format", "json", "--jobs", "1"])
    return code, out.getvalue()


def _diagnostics(text: str, engine: str, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.setenv(fast_path.ENGINE_VARIABLE, engine)
    return [d.to_json() for d in validate_text(text, path="doc.yaml").diagnostics]


def test_the_compiled_path_is_installed_and_on_by_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(fast_path.ENGINE_VARIABLE, raising=False)
    assert fast_path._fast() is not None
    monkeypatch.setenv(fast_path.ENGINE_VARIABLE, "python")
    assert fast_path._fast() is None


def test_the_fixture_corpus_is_not_empty() -> None:
    assert len(YAML_FILES) >= 50


def _id(path: Path) -> str:
    """A file's test id: its path from the checkout's parent, or from the samples' folder
    (``$HOLODECK_MT_SAMPLES`` may be anywhere)."""
    for base, shown in ((ROOT.parent, ""), (SAMPLES, "samples/")):
        if path.is_relative_to(base):
            return shown + str(path.relative_to(base))
    return str(path)


@pytest.mark.parametrize("path", YAML_FILES, ids=_id)
def test_every_fixture_gets_the_same_diagnostics_from_both_engines(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    args = [*_options(path), str(path)]
    assert _cli(monkeypatch, "auto", *args) == _cli(monkeypatch, "python", *args)


def _corpora() -> Iterator[tuple[str, str]]:
    for seed in range(3):
        count = 6 * len(gen.FAULT_KINDS)
        cases, planted = gen.corpus(count, errors=2 * len(gen.FAULT_KINDS), seed=seed)
        assert planted
        yield f"list-{seed}", gen.dump(cases)
        yield f"agent-{seed}", gen.dump(gen.agent_yaml(12, errors=4, seed=seed))
    yield "clean", gen.dump(gen.corpus(30, seed=7)[0])


@pytest.mark.parametrize(("name", "text"), list(_corpora()), ids=lambda v: str(v)[:12])
def test_generated_corpora_with_planted_faults_get_the_same_diagnostics(
    name: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _diagnostics(text, "auto", monkeypatch)
    slow = _diagnostics(text, "python", monkeypatch)
    assert fast == slow
    # Run-time lints may fire on the clean corpus: it is valid, not necessarily sensible.
    faults = [d for d in fast if d["code"] not in RUNTIME_LINTS]
    assert bool(faults) == (name != "clean")


# --- random damage -------------------------------------------------------------

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "standard", "geval", "rag", "code", "${X}", "${X}\n", "a:b", "é:b"]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["name", "input", "turns", "fuzzy", "regex", "type", "x"]),
            inner,
            max_size=3,
        ),
    ),
    max_leaves=8,
)


def _nodes(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _nodes(value, (*path, i))


def _damage(data: Any, rng: random.Random, value: Any, how: int) -> Any:
    """Replace, delete or add beside one node chosen by ``rng``."""
    paths = [p for p in _nodes(data) if p]
    path = rng.choice(paths)
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if how == 0:
        parent[last] = value
    elif how == 1:
        del parent[last]
    elif isinstance(parent, dict):
        parent[rng.choice(["x_extra", "turns", "input", "regex", "type"])] = value
    else:
        parent.append(value)
    return data


_BASE = gen.corpus(4, seed=11)[0]


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    value=_VALUES,
    how=st.integers(min_value=0, max_value=2),
    as_agent=st.booleans(),
)
def test_randomly_damaged_documents_get_the_same_diagnostics(
    seed: int, value: Any, how: int, as_agent: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    cases = json.loads(json.dumps(_BASE))
    data: Any = {"name": "agent", "model": {"provider": "openai", "name": "m"}, "test_cases": cases}
    data = _damage(data if as_agent else cases, rng, value, how)
    # JSON is YAML: every value, NaN and huge integers included, reaches the loader.
    text = json.dumps(data, allow_nan=True).replace("NaN", ".nan").replace("Infinity", ".inf")
    assert _diagnostics(text, "auto", monkeypatch) == _diagnostics(text, "python", monkeypatch)


# --- without jsonschema-rs ------------------------------------------------------


def test_without_the_compiled_validator_the_python_path_gives_the_same_diagnostics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = gen.dump(gen.corpus(20, errors=5, seed=3)[0])
    expected = _diagnostics(text, "auto", monkeypatch)
    monkeypatch.setitem(sys.modules, "jsonschema_rs", None)  # import fails
    fast_path._compile.cache_clear()
    try:
        assert fast_path._fast() is None
        assert _diagnostics(text, "auto", monkeypatch) == expected
    finally:
        monkeypatch.undo()
        fast_path._compile.cache_clear()


def test_a_valid_run_never_imports_jsonschema() -> None:
    example = ROOT / "examples" / "convfinqa"
    code = (
        "import sys\n"
        "from holodeck_mt.app.cli import main\n"
        f"status = main(['validate', {str(example)!r}, '--format', 'json', '--jobs', '1'])\n"
        "loaded = sorted(m for m in ('jsonschema', 'referencing') if m in sys.modules)\n"
        "print(status, loaded, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stderr.strip() == "0 []"


def test_a_folder_validated_on_several_processes_reads_as_on_one(tmp_path: Path) -> None:
    for i in range(12):
        folder = tmp_path / f"agent-{i:02d}"
        folder.mkdir()
        errors = 1 if i % 4 == 0 else 0
        (folder / "agent.yaml").write_text(gen.dump(gen.agent_yaml(3, errors=errors, seed=i)))

    def run(jobs: str) -> tuple[int, str]:
        command = [sys.executable, "-m", "holodeck_mt", "validate", str(tmp_path)]
        done = subprocess.run(
            [*command, "--format", "json", "--jobs", jobs],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        return done.returncode, done.stdout

    one, several = run("1"), run("4")
    assert one == several
    assert one[0] == 1 and json.loads(one[1])["summary"]["files"] == 12


def test_the_test_case_list_constrains_only_its_items_and_length() -> None:
    """Then judging a shortened list says what the schema says of the whole one."""
    definition = registry.schema_files()[registry.BASE_URI + "test-case.schema.json"]
    held = set(definition["$defs"]["TestCases"]) - ANNOTATIONS
    assert held <= {"type", "items", "minItems", "maxItems"}
