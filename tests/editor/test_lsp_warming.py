"""The sample the server validates at start-up goes through every stage a fault can come from.

What a first validation pays once (the schema's validators, the modules that word, place
and range a fault) is paid on the sample, before the editor's first document: the sample
must have faults of the schema and of the rules, located in its text.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

from holodeck_mt.lsp import checking
from holodeck_mt.pipeline import validate_text


def test_the_start_up_sample_has_a_fault_of_each_stage() -> None:
    found = checking.warm()
    codes = {d.code for d in found}
    assert {"HMT100", "HMT102"} <= codes  # the schema's: a misspelt key, a number
    assert "HMT104" in codes  # a rule's: a regex that does not compile
    assert "HMT203" in codes  # a warning: a tool listed twice
    assert all(d.end_line is not None for d in found)  # ranged in the text


def test_the_start_up_sample_is_validated_as_the_cli_validates_it() -> None:
    expected = validate_text(checking.SAMPLE, path="agent.yaml").diagnostics
    assert [(d.code, d.line, d.column, d.message) for d in checking.warm()] == [
        (d.code, d.line, d.column, d.message) for d in expected
    ]
