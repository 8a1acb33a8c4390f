"""The compiled builder reads what the reference builder reads, or leaves the text to it.

For every fixture, golden input, example, real sample, generated corpus, hand-made edge
text and drawn document, and for each of the three position indexes, the compiled
builder either declines (returns None) or gives the reference builder's data (same
types, same key order), the same positions of every key and value, the same value ends
and the same scalar spans. It must not decline the common document: the generated
corpora and the real samples are all read by it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holodeck_mt.limits import Limits
from holodeck_mt.locate.locate import is_same
from holodeck_mt.read import loader
from holodeck_mt.read.builder import Builder
from tests.conftest import ROOT, sample_files
from tests.strategies import documents, emit
from tests.support import corpus as gen

pytestmark = pytest.mark.skipif(
    not loader.COMPILED, reason="the compiled builder is not built here"
)


DEPTHS = {"none": None, "top": 1, "all": sys.maxsize}

#: Texts at the edges of what the compiled builder takes: each is either read exactly
#: as the reference reads it, or declined.
EDGES = [
    "",
    "# only a comment\n",
    "---\n...\n",
    "a: 1\n---\nb: 2\n",
    "\ufeffa: 1\n",
    "a: 1\r\nb:\r\n  - x\r\n  - y\r\n",
    "a: 1\rb: 2\r",
    "a: 1\x85b: 2\u2028c: 3\u2029d: 4\n",
    "a:\tb\n",
    "a: 'x\ty'\nb: \"\t\"\n",
    "a: |\n  one\n  two\n\nb: >-\n  folded\n  text\n",
    "a: |+\n  keep\n\n\nb: |2\n    indented\n",
    "{a: [1, 2, {b: c}], d: []}\n",
    "[http://x?y=1, z]\n",
    "[!!str, x]\n",
    "a: &x 1\nb: *x\n",
    "base: &b {k: 1}\nother:\n  <<: *b\n  j: 2\n",
    "a: 1\na: 2\n",
    "1: x\n",
    "yes: x\n",
    "? [a]\n: b\n",
    "a: yes\nb: 0o17\nc: 017\nd: 1_000\ne: 1:30\nf: .inf\ng: ~\nh: 2024-01-02\n",
    "a: =\n",
    "a: !!int 3\n",
    "a: " + "9" * 5000 + "\n",
    "a: [\n",
    "a: b: c\n",
    "é: ü\nschlüssel: 値\n😀: x\n",
    "- - - - - deep\n",
    "plain: null\nnull_key_value:\nempty_flow: {}\n",
    "a: 'it''s'\nb: \"\\u00e9\\n\"\n",
    "x: " + "[" * 50 + "]" * 50 + "\n",
    "\ud800: x\n",
]


def yaml_texts(*, files: bool = True) -> Iterator[tuple[str, str]]:
    """Every YAML text the project knows (with ``files``), and generated corpora."""
    if files:
        folders = ("tests/fixtures", "tests/golden/inputs", "tests/fix/inputs", "examples")
        found = [p for folder in folders for p in (ROOT / folder).rglob("*.y*ml")]
        for path in [*sorted(found), *sample_files("*.y*ml")]:
            try:
                yield str(path), path.read_bytes().decode("utf-8")
            except UnicodeDecodeError:
                continue
    for seed in range(2):
        cases, _ = gen.corpus(30, errors=0, seed=seed)
        yield f"generated list {seed}", gen.dump(cases)
        yield f"generated agent {seed}", gen.dump(gen.agent_yaml(8, errors=0, seed=seed))


def _walk(data: Any) -> Iterator[tuple[tuple[Any, ...], Any]]:
    pending: list[tuple[tuple[Any, ...], Any]] = [((), data)]
    while pending:
        path, node = pending.pop()
        if isinstance(node, (dict, list)):
            yield path, node
            items = node.items() if isinstance(node, dict) else enumerate(node)
            pending.extend(((*path, k), v) for k, v in items)


def _positions(built: Builder) -> dict[tuple[Any, ...], tuple[Any, Any, Any]] | None:
    """Every collection's key positions, value positions and value ends, by path."""
    positions = built.positions
    if positions is None:
        return None
    table: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {(): (positions.root, None, None)}
    for path, node in _walk(built.result):
        found = (
            positions.keys.get(id(node)),
            positions.values.get(id(node)),
            positions.value_ends.get(id(node)),
        )
        if found != (None, None, None):
            table[path] = found
    return table


def _reference(text: str, depth: int | None) -> Builder | None:
    built = Builder(Limits(), depth, text)
    try:
        built.result = built.stream(loader.libyaml(text).get_event)
    except Exception:  # a text the reference refuses: the compiled builder must decline
        return None
    return built


def _agrees(text: str) -> bool:
    """Whether the compiled builder read ``text`` (for some index) and matched the
    reference every time; AssertionError when it read it otherwise."""
    read = False
    for name, depth in DEPTHS.items():
        fast = loader.build_compiled(text, Limits(), depth)
        if fast is None:
            continue
        read = True
        reference = _reference(text, depth)
        assert reference is not None, f"{name}: the reference refuses a text compiled read"
        assert not reference.diagnostics, f"{name}: compiled read a text with diagnostics"
        assert not reference.dialect and not reference.has_non_json and not reference.flow_differs
        assert is_same(fast.result, reference.result), f"{name}: data differs"
        assert fast.spans == reference.spans, f"{name}: spans differ"
        assert _positions(fast) == _positions(reference), f"{name}: positions differ"
    return read


@pytest.mark.parametrize("text", EDGES, ids=range(len(EDGES)))
def test_compiled_builder_reads_edge_texts_as_the_reference_or_declines(text: str) -> None:
    _agrees(text)


def test_compiled_builder_declines_what_only_the_reference_reports() -> None:
    declined = [
        "a: &x 1\nb: *x\n",
        "a: 1\na: 2\n",
        "1: x\n",
        "a: yes\n",
        "a: !!int 3\n",
        "a: [\n",
        "a: 1\n---\nb: 2\n",
        "",
        "a: 2024-01-02\n",
        "[http://x?y=1, z]\n",
        "\ud800: x\n",
    ]
    for text in declined:
        for depth in DEPTHS.values():
            assert loader.build_compiled(text, Limits(), depth) is None, text


def test_compiled_builder_stops_at_the_depth_limit() -> None:
    deep = "a:\n" + "".join("  " * i + "- \n" for i in range(1, 8))
    assert loader.build_compiled(deep, Limits(max_depth=3), None) is None
    assert loader.build_compiled(deep, Limits(), None) is not None


@pytest.mark.slow
def test_compiled_builder_matches_the_reference_on_every_known_text() -> None:
    read = declined = 0
    for label, text in yaml_texts():
        try:
            if _agrees(text):
                read += 1
            else:
                declined += 1
        except AssertionError as e:
            raise AssertionError(f"{label}: {e}") from None
    assert read > declined, (read, declined)


def test_compiled_builder_reads_the_generated_corpora() -> None:
    for label, text in yaml_texts(files=False):
        assert _agrees(text), f"{label}: declined"


@pytest.mark.slow  # sixty drawn documents, each built three times by both builders
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from(["\n", "\r\n"]))
def test_compiled_builder_matches_the_reference_on_drawn_documents(data: Any, newline: str) -> None:
    text = emit(data).text.replace("\n", newline)
    assert _agrees(text)


def _modules_after_validate(path: Path) -> set[str]:
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write(' '.join(sorted(sys.modules))))\n"
        "from holodeck_mt.app.entry import main\nraise SystemExit(main())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "validate", str(path), "--no-cache", "--format", "json"],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    return set(done.stderr.decode().split())


@pytest.mark.slow
def test_a_file_the_compiled_builder_reads_never_imports_pyyaml(tmp_path: Path) -> None:
    clean = tmp_path / "cases.yaml"
    clean.write_text("- name: greeting\n  input: hello\n  ground_truth: hi there\n")
    assert "yaml" not in _modules_after_validate(clean)
    broken = tmp_path / "broken.yaml"
    broken.write_text("- name: [unclosed\n")
    assert "yaml" in _modules_after_validate(broken)  # the reference reads what it declines
