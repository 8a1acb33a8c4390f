"""The server's one setting, ``holodeck-mt.schemaDiagnostics``, in each of the three
spellings editors send (docs/editors.md); any other value keeps the server's."""

from __future__ import annotations

from typing import Any

SECTION = "holodeck-mt"
SCHEMA_DIAGNOSTICS = "schemaDiagnostics"
#: Every diagnostic is published unless the editor says otherwise.
DEFAULT_SCHEMA_DIAGNOSTICS = True


def schema_diagnostics(settings: Any, current: bool) -> bool:
    """The ``schemaDiagnostics`` value ``settings`` sets, else ``current``."""
    if not isinstance(settings, dict):
        return current
    for candidate in (
        settings.get(SCHEMA_DIAGNOSTICS),
        settings.get(f"{SECTION}.{SCHEMA_DIAGNOSTICS}"),
        _nested(settings.get(SECTION)),
    ):
        if isinstance(candidate, bool):
            return candidate
    return current


def _nested(section: Any) -> Any:
    return section.get(SCHEMA_DIAGNOSTICS) if isinstance(section, dict) else None
