"""``holodeck-mt init-editor``: bind the schema to this repository's HoloDeck files by their
exact names, never a glob (docs/editors.md), through :mod:`holodeck_mt.project.writes`."""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_mt.project import discovery, writes
from holodeck_mt.read import decoding

SETTINGS = Path(".vscode") / "settings.json"
SCHEMA_COPY = Path(".vscode") / "holodeck-mt.schema.json"
YAML_VERSION = "1.1"
MODELINE = "# yaml-language-server: $schema="
#: HoloDeck's agent schema, composed with ours, and the key recording its source.
AGENT_SCHEMA_COPY = Path(".vscode") / "holodeck-agent.schema.json"
SOURCE_KEY = "x-holodeck-mt-source"
#: The keys of HoloDeck's agent schema that tell it, and those left to ours.
_AGENT_KEYS = ("model", "instructions", "test_cases")
_LEFT_TO_OURS = ("test_cases", "test_cases_file")
#: A test-cases file: a list of test cases, or a mapping holding only ``test_cases``.
_TEST_CASES_FILE = {
    "anyOf": [
        {"type": "array"},
        {
            "type": "object",
            "required": ["test_cases"],
            "properties": {"test_cases": True},
            "additionalProperties": False,
        },
    ]
}
_MODELINE = re.compile(r"#\s*yaml-language-server\s*:\s*\$schema=")
#: The largest settings file read, and the deepest nesting of its values.
MAX_SETTINGS_BYTES = 4 * 1024 * 1024
MAX_NESTING = 100
#: What a glob reads as a pattern in a file name.
_GLOB = re.compile(r"[*?\[\]{}]|^!|/!")


class SetupError(Exception):
    """A reason not to touch the repository (exit 2)."""


@dataclass
class Outcome:
    files: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    #: Files not bound in the settings: their names would be read as globs.
    unbound: list[str] = field(default_factory=list)


def holodeck_files(root: Path) -> list[str]:
    """The repository's HoloDeck files, as paths relative to ``root`` (``/``-separated)."""
    problems: list[str] = []
    found = set(discovery.search(root, problems))
    if problems:
        raise SetupError(problems[0])
    for path in list(found):
        target = discovery.agent_target(path)
        if target is not None and target.is_file() and discovery.is_yaml_file(target):
            found.add(target)
    top = discovery.same_file_key(root)
    keys = map(discovery.same_file_key, found)
    return sorted(
        {Path(os.path.relpath(k, top)).as_posix() for k in keys if k.startswith(top + os.sep)}
    )


def init_editor(root: Path, *, modeline: bool = False, schema: str | None = None) -> Outcome:
    """Bind the schema to ``root``'s HoloDeck files; them and what was written (error: none)."""
    from holodeck_mt.contract.registry import bundle_path

    if not root.is_dir():
        raise SetupError(f"'{writes.show_path(root)}' is not a folder")
    root = Path(os.path.realpath(root))
    outcome = Outcome(files=holodeck_files(root))
    if not outcome.files:
        raise SetupError(
            f"no agent.yaml, agent.yml or YAML file holding test cases found under '{root}'"
        )
    settings, before = _read_settings(root)
    if schema is None and _write(root, SCHEMA_COPY, bundle_path().read_bytes()):
        outcome.written.append(SCHEMA_COPY.as_posix())
    if modeline:
        for name in outcome.files:
            if _put_modeline(root, name, _schema_from(name, schema)):
                outcome.written.append(name)
    else:
        _bind(settings, outcome, schema)
    settings["yaml.yamlVersion"] = YAML_VERSION
    if _compose_holodeck_schema(root, settings):
        outcome.written.append(AGENT_SCHEMA_COPY.as_posix())
    text = json.dumps(settings, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if before is None or before[0] != text.encode("utf-8"):
        (root / SETTINGS).parent.mkdir(parents=True, exist_ok=True)
        writes.replace(root / SETTINGS, text.encode("utf-8"), root, before and before[1])
        outcome.written.append(SETTINGS.as_posix())
    return outcome


def _compose_holodeck_schema(root: Path, settings: dict[str, Any]) -> bool:
    """Move the globs bound to HoloDeck's agent schema to the one composed; whether written."""
    bindings = settings.get("yaml.schemas")
    if not isinstance(bindings, dict):
        return False
    ours = "./" + AGENT_SCHEMA_COPY.as_posix()
    source = _recorded_source(root) if ours in bindings else None
    globs: list[Any] = []
    for key in list(bindings):
        if key == ours or (source is not None and key != source):
            continue
        if _holodeck_agent_schema(root, key) is None:
            continue
        source = key
        value = bindings.pop(key)
        globs += value if isinstance(value, list) else [value]
    if source is None:
        return False
    schema = _holodeck_agent_schema(root, source)
    if schema is None:
        return False  # its source is gone: the binding stays as it is
    if globs:
        before = bindings.get(ours, [])
        before = before if isinstance(before, list) else [before]
        bindings[ours] = list(dict.fromkeys([*before, *globs]))
    text = json.dumps(compose(schema, source), indent=2, ensure_ascii=False, allow_nan=False)
    return _write(root, AGENT_SCHEMA_COPY, (text + "\n").encode("utf-8"))


def _recorded_source(root: Path) -> str | None:
    """The source the composed schema was written from, as its binding key."""
    written = _json_file(root, AGENT_SCHEMA_COPY.as_posix())
    source = written.get(SOURCE_KEY) if isinstance(written, dict) else None
    return source if isinstance(source, str) else None


def _holodeck_agent_schema(root: Path, key: str) -> dict[str, Any] | None:
    """The schema bound as ``key`` if it is a file of the repository whose ``properties`` tell
    HoloDeck's agent schema; None for a URL, a file outside, or another schema."""
    if not isinstance(key, str) or re.match(r"[a-z][a-z0-9+.-]*:", key) or os.path.isabs(key):
        return None
    schema = _json_file(root, key)
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or not all(k in properties for k in _AGENT_KEYS):
        return None
    return schema


def _json_file(root: Path, name: str) -> dict[str, Any] | None:
    """A JSON object of the repository, read as the settings are; None when it cannot be."""
    if ".." in Path(name).parts:
        return None
    try:
        return _read_settings(root, Path(name))[0]
    except (SetupError, writes.WriteError, OSError, ValueError, RecursionError):
        return None


def compose(schema: dict[str, Any], source: str) -> dict[str, Any]:
    """HoloDeck's agent schema with ``test_cases`` and ``test_cases_file`` left to ours, not
    applied to a test-cases file; its root becomes one more of its ``$defs``."""
    agent = {k: v for k, v in schema.items() if k not in ("$defs", "definitions", "$id", "$schema")}
    agent["properties"] = {**agent.get("properties", {}), **dict.fromkeys(_LEFT_TO_OURS, True)}
    if isinstance(agent.get("required"), list):
        agent["required"] = [k for k in agent["required"] if k not in _LEFT_TO_OURS]
    definitions = dict(schema.get("$defs", {}))
    name = "HoloDeckAgent"
    while name in definitions:
        name += "_"
    definitions[name] = agent
    out: dict[str, Any] = {
        **{k: schema[k] for k in ("$schema",) if k in schema},
        SOURCE_KEY: source,
        "$comment": (
            f"Written by holodeck-mt init-editor from {source}: HoloDeck's agent schema, "
            "with test_cases and test_cases_file left to holodeck-mt's schema. Run "
            "init-editor again after its source changes."
        ),
        "if": _TEST_CASES_FILE,
        "then": True,
        "else": {"$ref": f"#/$defs/{name}"},
        "$defs": definitions,
    }
    if "definitions" in schema:
        out["definitions"] = schema["definitions"]
    return out


def _bind(settings: dict[str, Any], outcome: Outcome, schema: str | None) -> None:
    """Bind the schema to the files by name, but for names a glob would read as patterns."""
    key = schema if schema is not None else "./" + SCHEMA_COPY.as_posix()
    found = settings.get("yaml.schemas")
    bindings = found if isinstance(found, dict) else {}
    outcome.unbound = [name for name in outcome.files if _GLOB.search(name)]
    bindings[key] = [name for name in outcome.files if name not in outcome.unbound]
    settings["yaml.schemas"] = bindings


def _write(root: Path, name: Path, data: bytes) -> bool:
    """Make ``root/name`` hold ``data``; False when it does already."""
    path = root / name
    before = _read_existing(root, name)
    if before is not None and before[0] == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    writes.replace(path, data, root, before and before[1], name.as_posix())
    return True


def _read_existing(root: Path, name: Path) -> tuple[bytes, writes.Snapshot] | None:
    """The bytes of ``root/name`` and what it was, None when there is no such file."""
    path = root / name
    writes.real_target(path, root, name.as_posix())  # a link out of the tree is refused
    if not os.path.lexists(path):
        return None
    return writes.read(path, root, MAX_SETTINGS_BYTES, name.as_posix())


def _read_settings(
    root: Path, name: Path = SETTINGS
) -> tuple[dict[str, Any], tuple[bytes, writes.Snapshot] | None]:
    """The settings (or another JSON object), and as read; refused if not rewritable as read."""
    before = _read_existing(root, name)
    if before is None:
        return {}, None
    try:
        text = before[0].decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SetupError(f"{name.as_posix()} is not UTF-8 text") from None
    try:
        settings = _loads(text) if text.strip() else {}
    except json.JSONDecodeError as e:
        raise SetupError(
            f"{name.as_posix()} is not plain JSON ({e.msg} at line {e.lineno}); it may "
            "hold comments, which rewriting would lose: add the binding by hand "
            "(see docs/editors.md)"
        ) from None
    except (ValueError, RecursionError) as e:
        raise SetupError(f"{name.as_posix()} is not rewritten: {e}") from None
    if not isinstance(settings, dict):
        raise SetupError(f"{name.as_posix()} does not hold a JSON object")
    if _depth(settings) > MAX_NESTING:
        raise SetupError(
            f"{name.as_posix()} is not rewritten: it nests deeper than {MAX_NESTING} levels"
        )
    return settings, before


def _loads(text: str) -> Any:
    """JSON as it can be written back the same: no NaN, no infinite or huge number."""
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=_integer)


def _no_constant(name: str) -> Any:
    raise ValueError(f"it holds {name}, which JSON does not allow")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is too large to write back as it is")
    return value


def _integer(text: str) -> int:
    if len(text) > 400:
        raise ValueError(f"an integer of {len(text):,} digits is not written back")
    return int(text)


def _depth(value: Any) -> int:
    """How deep ``value`` nests, counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _schema_from(name: str, schema: str | None) -> str:
    """The schema as a modeline in the file ``name`` names it: a URL, or a relative path."""
    if schema is not None and re.match(r"[a-z][a-z0-9+.-]*://", schema):
        return schema
    target = schema if schema is not None else SCHEMA_COPY.as_posix()
    return Path(os.path.relpath(target, Path(name).parent.as_posix() or ".")).as_posix()


def _put_modeline(root: Path, name: str, schema: str) -> bool:
    """Make the file's first line the modeline; False when it already is."""
    path = root / name
    raw, before = writes.read(path, root, name=name)
    bom = decoding.bom_of(raw)
    text = raw[len(bom) :].decode("utf-8")
    line = MODELINE + schema
    first, _, rest = text.partition("\n")
    ending = "\r\n" if first.endswith("\r") else "\n"
    if _MODELINE.match(first.lstrip()):
        if first.rstrip("\r") == line:
            return False
        text = rest
    writes.replace(path, bom + (line + ending + text).encode("utf-8"), root, before, name)
    return True
