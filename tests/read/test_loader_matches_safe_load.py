"""The loader reads YAML exactly as the platform does: ``yaml.safe_load`` (PyYAML, YAML 1.1).

For every fixture, example, real sample and a generated corpus that mixes in the
YAML 1.1 scalar families: where ``safe_load`` loads a text, the loader yields the
same data (types and values) and no load error; where ``safe_load`` raises, the
loader reports an error, at the line PyYAML names when it names one. The only
differences allowed are the documented deviations, which are errors here:
duplicate keys (HMT002), YAML that is not JSON-shaped (HMT003: non-string keys,
``!!set``...), and the safety limits (HMT004). Each comparison runs with both builders.
"""

from __future__ import annotations

import datetime
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from holodeck_mt.read import loader
from holodeck_mt.read.scalars import YamlScalar
from holodeck_mt.text.positions import line_column
from tests.conftest import sample_files

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
#: Codes of the deliberate deviations: the platform loads the text, the validator refuses it.
DEVIATIONS = {"HMT002", "HMT003", "HMT004"}
#: Codes that say the file does not load at all.
LOAD_FAILURES = {"HMT001", "HMT005", "HMT007"}


def _normal(value: Any) -> Any:
    """A comparable form that keeps types apart (True is not 1, 1 is not 1.0)."""
    if isinstance(value, dict):
        return ("map", sorted((repr(k), _normal(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("seq", [_normal(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    if isinstance(value, (datetime.date, datetime.datetime)):
        return ("timestamp",)
    if isinstance(value, bytes):
        return ("binary",)
    if isinstance(value, YamlScalar):
        return ("timestamp",) if value.kind == "timestamp" else ("binary",)
    return (type(value).__name__, value)


def _platform(text: str) -> tuple[bool, Any]:
    """(True, data) when safe_load loads the text; (False, lines) when it raises.

    The lines are those PyYAML names: where it stopped, and where the construct
    it was reading started (an unclosed bracket is reported where it opened).
    """
    try:
        return True, yaml.safe_load(text)
    except yaml.MarkedYAMLError as e:
        marks = (e.problem_mark, e.context_mark)
        return False, {m.line + 1 for m in marks if m is not None} or None
    except yaml.reader.ReaderError as e:
        return False, {line_column(text, e.position)[0]}
    except (ArithmeticError, ValueError, LookupError, AttributeError, TypeError, yaml.YAMLError):
        return False, None  # a constructor failed: no line named


def check_same_reading(text: str) -> None:
    loads, found = _platform(text)
    doc = loader.load(text)
    codes = {d.code for d in doc.diagnostics}
    errors = [(d.code, d.line) for d in doc.diagnostics if d.severity == "error"]
    if not loads:
        assert errors, f"safe_load raises (line {found}) but the loader reports no error:\n{text!r}"
        if found is not None and not codes & DEVIATIONS:
            lines = {line for _, line in errors}
            assert found & lines, f"safe_load fails at line {found}, we at {errors}:\n{text!r}"
        return
    if codes & DEVIATIONS:
        return  # a deviation reported: an error, and the data may differ
    assert not codes & LOAD_FAILURES, f"safe_load loads it, we say {errors}:\n{text!r}"
    if found is None:
        return  # an empty stream: HMT006
    assert doc.loaded, text
    assert _normal(doc.data) == _normal(found), f"different data for:\n{text!r}"


# --- the files of the repository and the real samples -----------------------------


def _files() -> list[Path]:
    found = [
        *ROOT.glob("tests/fixtures/**/*.yaml"),
        *ROOT.glob("examples/**/*.yaml"),
        *ROOT.glob("docs/examples/*.yaml"),
    ]
    found += sample_files("*.yaml")
    return sorted(found)


FILES = _files()


@pytest.fixture(params=["compiled", "pure"], autouse=True)
def builder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each comparison runs with either builder: the compiled one where it is built, and
    the pure-Python reference it falls back to."""
    if request.param == "pure":
        monkeypatch.setattr(loader, "_FAST", None)
    elif not loader.COMPILED:
        pytest.skip("the compiled builder is not built here")
    return str(request.param)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(p.parents[2])) for p in FILES])
def test_every_file_reads_as_safe_load_reads_it(path: Path) -> None:
    text, problem = loader.decode(path.read_bytes())
    if text is None:
        assert problem is not None and problem.code == "HMT005"
        return
    check_same_reading(text)


# --- a generated corpus ---------------------------------------------------------

#: Plain scalars of every YAML 1.1 family, and look-alikes that are strings to it.
SCALARS = [
    *[
        "yes",
        "Yes",
        "YES",
        "no",
        "No",
        "NO",
        "on",
        "On",
        "ON",
        "off",
        "Off",
        "OFF",
        "y",
        "n",
        "Y",
        "N",
        "true",
        "True",
        "TRUE",
        "false",
        "FALSE",
    ],
    *["yEs", "oN", "nULL", "tRUE"],
    *[
        "1_000",
        "0b101",
        "0b_",
        "0x1F",
        "0x_",
        "0x1_f",
        "017",
        "09",
        "0_",
        "00",
        "-0",
        "+1",
        "1:30",
        "-1:30",
        "1:60",
        "01:30",
        "190:20:30",
    ],
    *[
        "1e3",
        "5e-1",
        "1E3",
        "1.0e3",
        "1.0e+3",
        "1.e+3",
        ".5",
        "-.5",
        "+.5",
        "1.",
        "-1.",
        "0o17",
        "1:30.5",
        "1_0.5",
        "._5",
    ],
    *[".inf", "-.inf", "+.inf", ".Inf", ".NaN", ".nan", "-.nan", ".NAN"],
    *["=", "<<", "~", "null", "Null", "NULL"],
    *["2009-12-31", "2009-1-31", "2009-13-45", "2024-02-30", "2024-02-29"],
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 +25",
    "2001-12-14 21:59:43",
    *["ns:tool", "a:b", "https://x.org/a.pdf", "hello", "0.5", "206588", "-3", "12e03"],
    *["'yes'", '"1e3"', "'='", '"<<"', "''", '""', "! 12", "! '017'", "!!str 1:30"],
    *["!!int '12'", "!!int 0o17", "!!int abc", "!!float 1e3", "!!float x", "!!bool y"],
    *["!!float inf:5", "!!float -43e601:6", "!!float nan:1", "!!float 1.5:30.25"],
    "!!float 1" + ":1" * 200,
    "1" + ":1" * 200 + ".5",
    *["!!bool 'ON'", "!!null x", "!!timestamp 2020-1-1", "!!timestamp x", "!!binary aGk="],
    *["!!merge x", "!!value x", "!!str", "!", "|\n    text\n", ">-\n    folded\n"],
    *["|#x\n    text\n", "|-2\n      two\n", "'a\tb'", '"a\\tb"', "a\tb", "b\t", "x # c\tc"],
    "1" * 4001,
]
KEYS = ["a", "b", "key", "<<", "!!merge <<", "=", "yes", "1", "'q'", "ns:k", "? c"]
BREAKS = ["\n", "\n", "\n", "\r\n", "\r"]


def _value(rng: random.Random, depth: int, anchors: list[str]) -> str:
    roll = rng.random()
    if depth < 2 and roll < 0.15:
        items = [rng.choice(SCALARS).split("\n")[0] for _ in range(rng.randint(0, 3))]
        return "[" + ", ".join(i for i in items if i) + "]"
    if depth < 2 and roll < 0.25:
        pairs = [f"{rng.choice(KEYS[:4])}: {rng.choice(SCALARS[:60])}" for _ in range(2)]
        return "{" + ", ".join(pairs) + "}"
    if anchors and roll < 0.32:
        return "*" + rng.choice(anchors)
    if roll < 0.38:
        name = f"a{len(anchors)}"
        anchors.append(name)
        return f"&{name} {{k{len(anchors)}: {rng.choice(SCALARS[:40])}}}"
    return rng.choice(SCALARS)


def _document(rng: random.Random) -> str:
    anchors: list[str] = []
    lines = []
    if rng.random() < 0.1:
        lines.append("# a comment\twith a tab")
    for _ in range(rng.randint(1, 5)):
        key = rng.choice(KEYS)
        value = _value(rng, 0, anchors)
        if key.startswith("?"):
            lines.append(f"{key}\n: {value}")
        elif rng.random() < 0.2:
            lines.append(f"{key}:\n  - {value}\n  - {rng.choice(SCALARS)}")
        else:
            lines.append(f"{key}: {value}")
    if rng.random() < 0.05:
        lines.insert(rng.randrange(len(lines) + 1), "\ufeffbom: here")
    if rng.random() < 0.05:
        lines.append("---\nsecond: doc")
    text = "\n".join(lines) + "\n"
    return text.replace("\n", rng.choice(BREAKS))


def generated(count: int, seed: int = 0) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        yield _document(rng)


def test_a_generated_corpus_of_yaml_1_1_scalar_families_reads_as_safe_load_reads_it() -> None:
    for text in generated(3000):
        check_same_reading(text)
