"""The catalogue of codes is complete, and says truly where each code is produced.

Every code written in the package is catalogued in holodeck_mt/codes.py, and each
catalogued code names exactly the modules that produce it (``where``): a code moved
to another module, or produced by a new one, is a change of the catalogue too. That
each code is produced at all is pinned by the fixture corpus (a fixture per code).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from holodeck_mt.codes import CODES
from holodeck_mt.schema_walk import CODES as CODES_KEYWORD
from holodeck_mt.schema_walk import subschemas
from holodeck_mt.schemas import schema_files

PACKAGE = Path(__file__).resolve().parent.parent / "holodeck_mt"
_LITERAL = re.compile(r"""["'](HMT\d{3})["']""")


def _written() -> dict[str, set[str]]:
    """Each code written as a string in the package, with the modules that write it."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module == "codes.py":
            continue
        for code in _LITERAL.findall(path.read_text(encoding="utf-8")):
            found[code].add(module)
    return found


def test_every_code_written_in_the_package_is_catalogued() -> None:
    assert sorted(set(_written()) - set(CODES)) == []


def test_each_code_names_the_modules_that_produce_it() -> None:
    written = _written()
    wrong = {
        code.code: (sorted(code.where), sorted(written.get(code.code, set())))
        for code in CODES.values()
        if set(code.where) != written.get(code.code, set())
    }
    assert wrong == {}


def test_a_code_the_schema_gives_a_node_is_produced_by_the_schema_mapping() -> None:
    for schema in schema_files().values():
        for _, node in subschemas(schema):
            for code in node.get(CODES_KEYWORD, {}).values():
                assert "schema_errors.py" in CODES[code].where
