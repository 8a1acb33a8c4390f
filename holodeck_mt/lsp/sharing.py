"""How the server shares the editor with the YAML language server: who reports what.

By default every diagnostic is published. With ``holodeck-mt.schemaDiagnostics: false``
(:mod:`holodeck_mt.lsp.settings`, docs/editors.md) what the YAML language server reports
too, in its own words (YAML syntax, the schema's keywords), is left to it: the server
publishes only what the schema cannot say, every code outside the set below. Quick fixes
are offered either way, for every fixable diagnostic.
"""

from __future__ import annotations

from holodeck_mt.model import Diagnostic
from holodeck_mt.rules.registry import REGISTRY

#: Codes the YAML language server reports too (``yaml_server`` in the registry): YAML
#: syntax, duplicate keys, and the schema's keywords (unknown and missing keys, types,
#: values, the test case's, matcher's, file's and metric's shapes).
SHOWN_BY_YAML_SERVER = frozenset(entry.code for entry in REGISTRY if entry.yaml_server)
#: `test_cases` beside `test_cases_file` is the schema's (a refused key, located on it);
#: a file that cannot be read is not (located on the value).
_BOTH_SET = "HMT110"


def shown_by_yaml_server(diagnostic: Diagnostic, key_column: int | None) -> bool:
    """Whether the YAML language server reports this diagnostic already."""
    if diagnostic.code in SHOWN_BY_YAML_SERVER:
        return True
    return diagnostic.code == _BOTH_SET and diagnostic.column == key_column


def published(
    diagnostics: list[Diagnostic], *, schema_diagnostics: bool, text: str
) -> list[Diagnostic]:
    """The diagnostics the server publishes for a document."""
    if schema_diagnostics:
        return diagnostics
    return [d for d in diagnostics if not shown_by_yaml_server(d, _key_column(text, d))]


def _key_column(text: str, diagnostic: Diagnostic) -> int | None:
    """The column of the first key on the diagnostic's line (HMT110 only)."""
    if diagnostic.code != _BOTH_SET:
        return None
    lines = text.splitlines()
    if not 1 <= diagnostic.line <= len(lines):
        return None
    line = lines[diagnostic.line - 1]
    return len(line) - len(line.lstrip()) + 1
