"""``holodeck-mt init-editor``: bind the schema to this repository's HoloDeck files.

Test-case files are named anything, so no glob in an editor's settings finds them
all. This writes the exact list instead: every agent.yaml, the test-cases file
each names, and every other YAML file holding test cases (found by content, as
``validate`` finds them), into ``.vscode/settings.json`` under ``yaml.schemas``
(read by Red Hat's YAML extension and any yaml-language-server client), with
``"yaml.yamlVersion": "1.1"``, the YAML the platform reads. Other settings are
kept. With ``--modeline`` each file gets a ``# yaml-language-server: $schema=...``
first line instead. Running it again changes nothing unless the files changed.

VS Code runs yaml-language-server beside ``holodeck-mt lsp``, which shows the schema's
faults itself: the settings also say ``"holodeck-mt.schemaDiagnostics": false``, and
pass it to the server as the Generic LSP Client's initialisation option, so that each
fault is shown once (every other editor gets every diagnostic from the server).

The schema is the bundle, copied to ``.vscode/holodeck-mt.schema.json`` (offline,
and versioned with the repository) unless ``--schema`` names a URL or a path.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_mt.app import discovery

SETTINGS = Path(".vscode") / "settings.json"
SCHEMA_COPY = Path(".vscode") / "holodeck-mt.schema.json"
YAML_VERSION = "1.1"
MODELINE = "# yaml-language-server: $schema="
#: holodeck-mt lsp's setting, off beside yaml-language-server (holodeck_mt/lsp/settings.py).
SCHEMA_DIAGNOSTICS = "holodeck-mt.schemaDiagnostics"
#: Where the Generic LSP Client (zsol.vscode-glspc) reads the server's initialisation options.
GLSPC_OPTIONS = "glspc.server.initializationOptions"
_MODELINE = re.compile(r"#\s*yaml-language-server\s*:\s*\$schema=")


class SetupError(Exception):
    """A reason not to touch the repository (exit 2)."""


@dataclass
class Outcome:
    files: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)


def holodeck_files(root: Path) -> list[str]:
    """The repository's HoloDeck files, as paths relative to ``root`` (``/``-separated)."""
    found = {p for p in discovery.search(root)}
    for path in list(found):
        target = discovery.agent_target(path)
        if target is not None and target.is_file() and discovery.is_yaml_file(target):
            found.add(target)
    inside = discovery.same_file_key(root) + os.sep
    out = set()
    for path in found:
        resolved = discovery.same_file_key(path)
        if resolved.startswith(inside):
            out.add(Path(os.path.relpath(resolved, discovery.same_file_key(root))).as_posix())
    return sorted(out)


def init_editor(root: Path, *, modeline: bool = False, schema: str | None = None) -> Outcome:
    """Bind the schema to ``root``'s HoloDeck files; return them and what was written."""
    from holodeck_mt.contract.registry import bundle_path

    if not root.is_dir():
        raise SetupError(f"'{root}' is not a folder")
    outcome = Outcome(files=holodeck_files(root))
    if not outcome.files:
        raise SetupError(
            f"no agent.yaml, agent.yml or YAML file holding test cases found under '{root}'"
        )
    settings_path = root / SETTINGS
    settings = _read_settings(settings_path)
    if schema is None:
        copy = root / SCHEMA_COPY
        bundle = bundle_path().read_bytes()
        if not copy.is_file() or copy.read_bytes() != bundle:
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(bundle)
            outcome.written.append(SCHEMA_COPY.as_posix())
    if modeline:
        for name in outcome.files:
            if _put_modeline(root / name, _schema_from(name, schema)):
                outcome.written.append(name)
    else:
        key = schema if schema is not None else "./" + SCHEMA_COPY.as_posix()
        bindings = settings.get("yaml.schemas")
        if not isinstance(bindings, dict):
            bindings = {}
        bindings[key] = outcome.files
        settings["yaml.schemas"] = bindings
    settings["yaml.yamlVersion"] = YAML_VERSION
    _leave_schema_faults_to_the_yaml_server(settings)
    text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
    if not settings_path.is_file() or settings_path.read_text(encoding="utf-8") != text:
        settings_path.parent.mkdir(parents=True, exist_ok=True)
        settings_path.write_text(text, encoding="utf-8")
        outcome.written.append(SETTINGS.as_posix())
    return outcome


def _leave_schema_faults_to_the_yaml_server(settings: dict[str, Any]) -> None:
    """Set ``holodeck-mt.schemaDiagnostics: false``, as a setting and as the Generic LSP
    Client's initialisation option (its other options kept)."""
    settings[SCHEMA_DIAGNOSTICS] = False
    options = settings.get(GLSPC_OPTIONS)
    if not isinstance(options, dict):
        options = {}
    options["schemaDiagnostics"] = False
    settings[GLSPC_OPTIONS] = options


def _read_settings(path: Path) -> dict[str, Any]:
    """The settings as they are; refuse a file this cannot rewrite without loss."""
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8-sig")
    try:
        settings = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as e:
        raise SetupError(
            f"{SETTINGS.as_posix()} is not plain JSON ({e.msg} at line {e.lineno}); it may "
            "hold comments, which rewriting would lose: add the binding by hand "
            "(see the README's editor section)"
        ) from None
    if not isinstance(settings, dict):
        raise SetupError(f"{SETTINGS.as_posix()} does not hold a JSON object")
    return settings


def _schema_from(name: str, schema: str | None) -> str:
    """The schema as a modeline in the file ``name`` names it: a URL, or a relative path."""
    if schema is not None and re.match(r"[a-z][a-z0-9+.-]*://", schema):
        return schema
    target = schema if schema is not None else SCHEMA_COPY.as_posix()
    return Path(os.path.relpath(target, Path(name).parent.as_posix() or ".")).as_posix()


def _put_modeline(path: Path, schema: str) -> bool:
    """Make the file's first line the modeline; False when it already is."""
    raw = path.read_bytes()
    bom = b"\xef\xbb\xbf" if raw.startswith(b"\xef\xbb\xbf") else b""
    text = raw[len(bom) :].decode("utf-8")
    line = MODELINE + schema
    first, newline, rest = text.partition("\n")
    ending = "\r\n" if first.endswith("\r") else "\n"
    if _MODELINE.match(first.lstrip()):
        if first.rstrip("\r") == line:
            return False
        text = line + ending + rest if newline else line + ending
    else:
        text = line + ending + text
    path.write_bytes(bom + text.encode("utf-8"))
    return True
