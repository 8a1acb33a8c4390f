"""The configuration file: ``.holodeck-mt.toml``, or ``[tool.holodeck-mt]`` in ``pyproject.toml``.

Its keys and where it is looked for: docs/usage.md (*Choosing the codes*). A file found must
lie in the tree searched, links resolved; one that cannot be used is a usage error (exit 2).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from holodeck_mt.model import reason_of
from holodeck_mt.read import confine, files
from holodeck_mt.selection import PerFileIgnore, Selection, SelectionError, parse

FILE_NAME = ".holodeck-mt.toml"
PYPROJECT = "pyproject.toml"
TABLE = "holodeck-mt"
#: The largest configuration file read: a config is a few lines.
MAX_CONFIG_BYTES = 1024 * 1024
#: The most folders climbed looking for one.
MAX_LEVELS = 64
PLATFORM_CHOICES = ("auto", "off", "required")
#: How a pyproject.toml names the table, looked for before the file is parsed.
_TABLE_MENTION = re.compile(rb"""tool\s*\.\s*["']?holodeck-mt""")
KEYS: tuple[str, ...] = ("select", "ignore", "per-file-ignores", "strict", "exclude", "platform")
KEYS += ("extend-select", "extend-ignore")
#: Keys no longer read, each with why: a repository's file chooses nothing the cache trusts.
_GONE = {
    "cache-dir": "the cache is never kept in a tree it judges (a pull request could commit it);"
    " results stay in the user's cache folder, or $HOLODECK_MT_CACHE_DIR outside the repository"
}


class ConfigError(ValueError):
    """A configuration file that cannot be used: the command's exit 2."""


@dataclass(frozen=True)
class Settings:
    #: The file read (None: defaults) and the folder its globs are relative to.
    path: Path | None = None
    root: Path | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[PerFileIgnore, ...] = ()
    strict: bool = False
    exclude: tuple[str, ...] = ()
    #: Accepted and passed on: how the platform's verdict is used.
    platform: str = "auto"

    def selection(self, given: Mapping[str, Iterable[str]] | None = None) -> Selection:
        """The codes reported, as ruff has them: ``given``'s ``--select`` replaces, the rest add."""
        from holodeck_mt.rules.registry import CODES

        codes = {name: parse(values, CODES, where=name) for name, values in (given or {}).items()}
        chosen = codes.get("--select") or (self.select or Selection().select) + self.extend_select
        return Selection(
            select=chosen + codes.get("--extend-select", ()),
            ignore=self.ignore + codes.get("--ignore", ()) + codes.get("--extend-ignore", ()),
            per_file_ignores=self.per_file_ignores,
            root=self.root,
        )


def _toml(raw: bytes, path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    try:
        loaded: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
        return loaded
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: not valid TOML ({str(e)[:200]})") from e
    except RecursionError as e:  # arrays nested thousands deep
        raise ConfigError(f"{path}: nested too deeply to read") from e


def _read(path: Path) -> bytes:
    try:
        return files.read(path, MAX_CONFIG_BYTES).raw
    except (OSError, ValueError, files.Refused) as e:
        raise ConfigError(f"{path}: cannot be read ({reason_of(e)})") from e
    except files.TooLarge as e:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES // 1024} KiB") from e


def load(path: Path) -> Settings:
    """The settings of a configuration file (a ``pyproject.toml``: its table)."""
    document = _toml(_read(path), path)
    if path.name == PYPROJECT:
        table = document.get("tool", {}).get(TABLE, {})
        where = f"{path}: [tool.{TABLE}]"
    else:
        table, where = document, str(path)
        if isinstance(document.get("tool"), dict) and TABLE in document["tool"]:  # pasted
            raise ConfigError(
                f"{where}: unknown key 'tool': in {path.name} the settings go at the top "
                f"level: drop the [tool.{TABLE}] header (it is for {PYPROJECT})"
            )
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: not a table")
    return _settings(table, path, where)


def _strings(value: Any, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ConfigError(f"{where}: '{key}' must be a list of strings")


def _settings(table: dict[str, Any], path: Path, where: str) -> Settings:
    from holodeck_mt.rules.registry import CODES

    unknown = [key for key in table if key not in KEYS]
    if unknown and unknown[0] in _GONE:
        raise ConfigError(f"{where}: '{unknown[0]}' is no longer read: {_GONE[unknown[0]]}")
    if unknown:
        allowed = ", ".join(KEYS)
        raise ConfigError(f"{where}: unknown key '{str(unknown[0])[:40]}' (allowed: {allowed})")

    def codes(key: str) -> tuple[str, ...]:
        return parse(_strings(table.get(key, []), where, key), CODES, where=f"{where}: '{key}'")

    try:
        select = codes("select") if "select" in table else None
        ignore = codes("ignore") + codes("extend-ignore")
        extend_select = codes("extend-select")
        per_file = tuple(_per_file(table.get("per-file-ignores", {}), where, CODES))
    except SelectionError as e:
        raise ConfigError(str(e)) from e
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise ConfigError(f"{where}: 'strict' must be true or false")
    platform = table.get("platform", "auto")
    if platform not in PLATFORM_CHOICES:
        raise ConfigError(f"{where}: 'platform' must be one of {', '.join(PLATFORM_CHOICES)}")
    return Settings(
        path=path,
        root=path.parent,
        select=select,
        extend_select=extend_select,
        ignore=ignore,
        per_file_ignores=per_file,
        strict=strict,
        exclude=_strings(table.get("exclude", []), where, "exclude"),
        platform=platform,
    )


def _per_file(value: Any, where: str, codes: Collection[str]) -> Iterable[PerFileIgnore]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: 'per-file-ignores' must be a table of globs to codes")
    for pattern, listed in value.items():
        key = f"{where}: 'per-file-ignores' '{pattern[:60]}'"
        yield PerFileIgnore(pattern, parse(_strings(listed, where, key), codes, where=key))


def _has_table(path: Path) -> bool:
    """Whether a ``pyproject.toml`` holds the table."""
    try:
        raw = _read(path)
    except ConfigError:
        return False
    if _TABLE_MENTION.search(raw) is None:
        return False  # most pyproject.toml files: no TOML parser loaded
    tool = _toml(raw, path).get("tool")
    return isinstance(tool, dict) and TABLE in tool


def _folders(start: Path, top: Path | None) -> list[Path]:
    """The folders searched from ``start`` up to the repository's root, else in the working
    directory's tree; never above ``top``."""
    chain = [start, *start.parents][:MAX_LEVELS]
    if top is not None:
        chain = [f for f in chain if f.is_relative_to(top)]
    root = confine.repository_root(start)
    if root is not None and Path(root) in chain:
        return chain[: chain.index(Path(root)) + 1]
    if top is not None:
        return chain
    tree = confine.tree_of(start / "_")
    return [f for f in chain if f == tree or f.is_relative_to(tree)]


def find(start: Path, *, top: Path | None = None) -> Path | None:
    """The configuration file of a file in the folder ``start``, looked for up to ``top``."""
    start = Path(os.path.abspath(start))
    if top is not None:  # the workspace is a real path: so is the document's folder
        start, top = Path(os.path.realpath(start)), Path(os.path.realpath(top))
    folders = _folders(start, top)
    if not folders:
        return None
    top = Path(os.path.realpath(folders[-1]))
    for folder in folders:
        for name in (FILE_NAME, PYPROJECT):
            candidate = folder / name
            # A link out of the repository is never read.
            inside = candidate.is_file() and Path(os.path.realpath(candidate)).is_relative_to(top)
            if inside and (name == FILE_NAME or _has_table(candidate)):
                return candidate
    return None


def list_inputs(folder: Path | str) -> list[Path]:
    """Every path that decides the settings of a file in ``folder`` (a stored result's inputs)."""
    folders = _folders(Path(os.path.abspath(folder)), None)
    return [f / name for f in folders for name in (FILE_NAME, PYPROJECT)]
