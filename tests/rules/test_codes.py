"""The catalogue of codes is complete, and says truly where each code is produced.

Every code written in the package is catalogued in holodeck_mt/codes.py, and each
catalogued code names the modules that produce it (``where``): every module that
passes it to ``Fault``/``make``, and no module that does not write it. A code moved
to another module, or produced by a new one, is a change of the catalogue too. That
each code is produced at all is pinned by the fixture corpus (a fixture per code).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from holodeck_mt.codes import CODES
from holodeck_mt.contract.registry import schema_files
from holodeck_mt.contract.walker import CODES as CODES_KEYWORD
from holodeck_mt.contract.walker import subschemas

PACKAGE = Path(__file__).resolve().parents[2] / "holodeck_mt"
_LITERAL = re.compile(r"""["'](HMT\d{3})["']""")
_CODE = re.compile(r"HMT\d{3}")


def _modules() -> Iterator[tuple[str, str]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module != "codes.py":
            yield module, path.read_text(encoding="utf-8")


def _written() -> dict[str, set[str]]:
    """Each code written as a string in the package, with the modules that write it."""
    found: dict[str, set[str]] = defaultdict(set)
    for module, source in _modules():
        for code in _LITERAL.findall(source):
            found[code].add(module)
    return found


def _produced() -> dict[str, set[str]]:
    """Each code passed to a call as its first argument or as ``code=`` (``Fault("HMT104",
    ...)``, ``make(...)``), with the modules that do so: the modules that surely produce it."""
    found: dict[str, set[str]] = defaultdict(set)
    for module, source in _modules():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call):
                values = node.args[:1] + [k.value for k in node.keywords if k.arg == "code"]
                for value in values:
                    if isinstance(value, ast.Constant) and _CODE.fullmatch(str(value.value)):
                        found[str(value.value)].add(module)
    return found


def test_every_code_written_in_the_package_is_catalogued() -> None:
    assert sorted(set(_written()) - set(CODES)) == []


def test_each_live_code_names_where_it_is_produced() -> None:
    assert [c.code for c in CODES.values() if not c.retired and not c.where] == []


def test_each_code_names_only_modules_that_write_it() -> None:
    written = _written()
    wrong = {c.code: c.where for c in CODES.values() if not set(c.where) <= written[c.code]}
    assert wrong == {}


def test_each_code_names_every_module_that_produces_it() -> None:
    produced = _produced()
    missing = {code: sorted(modules - set(CODES[code].where)) for code, modules in produced.items()}
    assert {code: modules for code, modules in missing.items() if modules} == {}


def test_a_code_the_schema_gives_a_node_is_produced_by_the_schema_mapping() -> None:
    for schema in schema_files().values():
        for _, node in subschemas(schema):
            for code in node.get(CODES_KEYWORD, {}).values():
                assert "contract/messages.py" in CODES[code].where
