"""Every output a user sees of one file, given the variables its ``${NAME}`` references
read: each validate format, ``--statistics``, ``explain`` (text and JSON), ``fix --diff``
and the language server's diagnostics, all in this process."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from unittest import mock

import yaml
from hypothesis import assume
from hypothesis import strategies as st

from holodeck_mt.app.cli import main
from holodeck_mt.lsp import checking

FORMATS = ("text", "json", "github", "sarif", "junit", "markdown")
HEAD = """\
name: a
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer.}
test_cases:
"""


@contextlib.contextmanager
def _in(folder: Path, variables: Mapping[str, str]) -> Iterator[None]:
    here = Path.cwd()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("HMT_")}
    with mock.patch.dict(os.environ, {**environ, **variables, "HOME": str(folder)}, clear=True):
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(here)


def _run(argv: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return f"{code}\n{out.getvalue()}\n{err.getvalue()}"


def outputs(folder: Path, text: str, variables: Mapping[str, str]) -> dict[str, str]:
    """What each output shows of ``text`` (written to ``folder/agent.yaml``), by its name."""
    path = folder / "agent.yaml"
    path.write_text(text)
    shown: dict[str, str] = {}
    with _in(folder, variables):
        for fmt in FORMATS:
            shown[fmt] = _run(["validate", "agent.yaml", "--format", fmt, "--no-cache", "-j", "1"])
        for fmt in ("text", "json"):
            argv = ["validate", "agent.yaml", "--statistics", "--format", fmt, "--no-cache"]
            shown[f"statistics-{fmt}"] = _run([*argv, "-j", "1"])
            shown[f"explain-{fmt}"] = _run(["explain", "agent.yaml", "--format", fmt])
        shown["fix"] = _run(["fix", "--diff", "--unsafe-fixes", "agent.yaml"])
        found = checking.diagnose(path, text, [folder]) or []
        shown["lsp"] = json.dumps([d.to_json() for d in found], sort_keys=True)
        with contextlib.suppress(ImportError):  # the [lsp] extra
            from holodeck_mt.lsp.positions import UTF16, Lines
            from holodeck_mt.lsp.server import to_lsp

            lines = Lines(text, UTF16)
            shown["lsp-wire"] = repr([to_lsp(d, lines) for d in found])
    assert path.read_text() == text  # nothing written
    return shown


#: Letters forming no YAML keyword and no key of the schema; literals in the files are
#: lowercase, so no substituted value equals one.
LETTERS = "BCDHIJKMPQVW"
DIGITS = "0123456789"
SPECIAL = ", -"
FILES = (
    HEAD + "  - name: case-${HMT_A}\n    input: ${HMT_B}\n    ground_truth: ${HMT_C}\n"
    "    files: [${HMT_A}]\n",
    HEAD + "  - name: ${HMT_B}\n    input: q\n    ground_truth: g\n"
    "    expected_tools: [${HMT_A}, {name: t, args: {${HMT_C}: 1}}]\n",
    HEAD + "  - name: x\n    turns:\n      - input: ${HMT_A}\n        ground_truth: ${HMT_B}\n"
    "        ${HMT_C}: 1\n  - {name: y, input: q, ground_truth: 3}\n",
    HEAD + '  - name: "${HMT_A}"\n    input: q-${HMT_B}\n    ground_truth: g\n'
    "    evaluations: [{metric: ${HMT_C}, threshold: 0.5}]\n",
    HEAD.replace("test_cases:", "evaluations:\n  metrics:\n")
    + "    - {type: standard, metric: numeric, absolute_tolerance: 0.5}\n"
    "test_cases:\n  - name: ${HMT_A}\n    input: q\n    ground_truth: '2'\n"
    "    evaluations: [{type: standard, metric: numeric, absolute_tolerance: 0.1}]\n"
    "  - {name: n-${HMT_B}, input: q, ground_truth: '0.2', case-${HMT_C}: 1}\n",
)


def shape(text: str) -> object:
    """The structure of types ``yaml.safe_load`` reads, or that it fails."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return "fails"

    def of(node: object) -> object:
        if isinstance(node, dict):
            return [(of(k), of(v)) for k, v in node.items()]
        if isinstance(node, list):
            return [of(item) for item in node]
        return type(node).__name__

    return of(data)


#: A value: letters, digits and the characters YAML reads alike in both twins.
_value = st.text(alphabet=LETTERS + DIGITS + SPECIAL, min_size=1, max_size=12).filter(
    lambda v: v.strip(" ") == v and v.strip("-,") == v
)


@st.composite
def twins(draw: st.DrawFn) -> tuple[str, dict[str, str], dict[str, str]]:
    """A file and two sets of values for its references, the second the first with each
    letter and digit swapped for another (one table for all: equal values stay equal)."""
    text = draw(st.sampled_from(FILES))
    letters = draw(st.permutations(LETTERS))
    digits = draw(st.permutations(DIGITS))
    table = str.maketrans(LETTERS + DIGITS, "".join(letters) + "".join(digits))
    one = {name: draw(_value) for name in ("HMT_A", "HMT_B", "HMT_C")}
    two = {name: value.translate(table) for name, value in one.items()}
    return text, one, two


def substituted(text: str, variables: dict[str, str]) -> str:
    """``text`` as the platform parses it."""
    for name, value in variables.items():
        text = text.replace("${" + name + "}", value)
    return text


def same_outputs(text: str, one: dict[str, str], two: dict[str, str]) -> None:
    """Every output of ``text`` is the same, byte for byte, with ``one`` and ``two`` (when
    YAML reads both the same way)."""
    assume(one != two)
    assume(shape(substituted(text, one)) == shape(substituted(text, two)))
    with tempfile.TemporaryDirectory() as folder:
        first = outputs(Path(folder), text, one)
        second = outputs(Path(folder), text, two)
    for name in first:
        assert first[name] == second[name], name
