"""The server's one setting, ``holodeck-mt.schemaDiagnostics``, as editors send it.

By default the server publishes every diagnostic, as ``holodeck-mt validate`` reports
them: Neovim, Helix and Emacs users often run no YAML language server, and must see
every fault. Beside yaml-language-server (VS Code with Red Hat's YAML extension) the
schema's diagnostics would show twice; ``holodeck-mt.schemaDiagnostics: false`` leaves
them to it (:mod:`holodeck_mt.lsp.sharing`).

Editors spell a setting three ways, all read here: flat in the initialisation options
(``{"schemaDiagnostics": false}``), dotted as in VS Code's settings.json
(``{"holodeck-mt.schemaDiagnostics": false}``), or nested under the server's section
(``{"holodeck-mt": {"schemaDiagnostics": false}}``), in the initialisation options or
in ``workspace/didChangeConfiguration``. Anything else (a string, a number, a missing
key) keeps the value the server has.
"""

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
