"""holodeck-mt.schemaDiagnostics as editors spell it; anything else keeps the current value."""

from __future__ import annotations

from typing import Any

import pytest

from holodeck_mt.lsp import sharing


@pytest.mark.parametrize(
    "sent",
    [
        {"schemaDiagnostics": False},
        {"holodeck-mt.schemaDiagnostics": False},
        {"holodeck-mt": {"schemaDiagnostics": False}},
    ],
    ids=["flat", "dotted", "nested"],
)
def test_each_spelling_turns_the_schemas_diagnostics_off(sent: dict[str, Any]) -> None:
    assert sharing.schema_diagnostics(sent, True) is False


@pytest.mark.parametrize(
    "sent",
    [None, [], "false", {"schemaDiagnostics": "false"}, {"schemaDiagnostics": 0}, {"x": 1}],
)
def test_anything_else_keeps_the_current_value(sent: Any) -> None:
    assert sharing.schema_diagnostics(sent, True) is True
    assert sharing.schema_diagnostics(sent, False) is False


def test_every_diagnostic_is_the_default() -> None:
    assert sharing.DEFAULT_SCHEMA_DIAGNOSTICS is True
