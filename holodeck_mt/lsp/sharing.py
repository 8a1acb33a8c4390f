"""How the server shares the editor with the YAML language server: with
``holodeck-mt.schemaDiagnostics: false`` (docs/editors.md) what that server reports too is
left to it; quick fixes are offered either way.
"""

from __future__ import annotations

from typing import Any

from holodeck_mt.model import Diagnostic
from holodeck_mt.rules.registry import REGISTRY

#: Codes the YAML language server reports too (``yaml_server`` in the registry).
SHOWN_BY_YAML_SERVER = frozenset(entry.code for entry in REGISTRY if entry.yaml_server)
#: `test_cases` beside `test_cases_file` is the schema's (a refused key, located on it);
#: a file that cannot be read is not (located on the value).
_BOTH_SET = "HMT110"
SECTION = "holodeck-mt"
SCHEMA_DIAGNOSTICS = "schemaDiagnostics"
DEFAULT_SCHEMA_DIAGNOSTICS = True


def is_shown_by_yaml_server(diagnostic: Diagnostic, text: str) -> bool:
    """Whether the YAML language server reports this diagnostic of ``text`` too."""
    if diagnostic.code in SHOWN_BY_YAML_SERVER:
        return True
    lines = text.splitlines() if diagnostic.code == _BOTH_SET else []
    if not 1 <= diagnostic.line <= len(lines):
        return False
    line = lines[diagnostic.line - 1]  # located on its line's first key: the schema's
    return diagnostic.column == len(line) - len(line.lstrip()) + 1


def schema_diagnostics(settings: Any, current: bool) -> bool:
    """The ``schemaDiagnostics`` value ``settings`` sets, else ``current``."""
    if not isinstance(settings, dict):
        return current
    section = settings.get(SECTION)
    for candidate in (
        settings.get(SCHEMA_DIAGNOSTICS),
        settings.get(f"{SECTION}.{SCHEMA_DIAGNOSTICS}"),
        section.get(SCHEMA_DIAGNOSTICS) if isinstance(section, dict) else None,
    ):
        if isinstance(candidate, bool):
            return candidate
    return current
