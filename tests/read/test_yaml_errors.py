"""YAML syntax errors are told from the parser's problem, context and the source alone.

The fixtures under tests/fixtures/invalid/loading pin each slip's message and hint
through the CLI; here the same translation is fed PyYAML's own libyaml errors, so
that it holds whichever binding of libyaml the loader reads with.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from holodeck_mt.read import loader
from holodeck_mt.read.yaml_errors import explain, show_line
from tests.conftest import FIXTURES

SLIPS = sorted(
    p
    for p in (FIXTURES / "invalid" / "loading").glob("*.yaml")
    if '"HMT001"' in p.read_text(encoding="utf-8", errors="replace")
)


def test_every_slip_has_a_fixture() -> None:
    names = {p.stem for p in SLIPS}
    assert {
        "tab-in-indentation",
        "backslash-escape-in-double-quotes",
        "key-indented-too-little",
        "key-indented-too-far",
        "list-item-misindented",
        "unclosed-quote",
        "unclosed-bracket",
    } <= names


@pytest.mark.parametrize("path", SLIPS, ids=lambda p: p.stem)
def test_pyyamls_libyaml_error_is_told_as_the_loader_tells_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    with pytest.raises(yaml.MarkedYAMLError) as raised:
        yaml.load(text, Loader=yaml.CSafeLoader)
    e = raised.value
    pm, cm = e.problem_mark, e.context_mark
    said = explain(
        text,
        e.problem,
        (pm.line, pm.column) if pm else None,
        e.context,
        (cm.line, cm.column) if cm else None,
    )
    (reported,) = loader.load(text).diagnostics
    assert (said.message, said.hint, said.line, said.column) == (
        reported.message,
        reported.hint,
        reported.line,
        reported.column,
    )
    assert "cannot start any token" not in said.message
    assert "did not find expected" not in said.message


def test_an_error_no_rule_knows_keeps_the_parsers_words() -> None:
    said = explain("a: b\n", "found something odd", (0, 3), "while reading", (0, 0))
    assert (
        said.message == "YAML syntax error: found something odd (while reading started at line 1)"
    )
    assert said.hint is None
    assert (said.line, said.column) == (1, 4)


def test_a_line_in_a_message_shows_tabs_and_control_characters_escaped() -> None:
    assert show_line("\tkey: \x1b[31mred") == '"\\tkey: \\x1b[31mred"'
    assert len(show_line("x" * 500)) <= 62
