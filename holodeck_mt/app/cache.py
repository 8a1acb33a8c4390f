"""The result cache: a file's results reused while nothing they depend on has changed.

An entry is keyed by a hash of everything the results depend on that is known before
validating: the file's path as given and its bytes, the working directory, the
options and limits, and the validator (:mod:`holodeck_mt.app.tool_state`: its version
and modules, the schema files' content, the installed distributions, the platform's
among them). What is learnt only by validating is stored in the entry and checked
before it is reused: the content of the test-cases file it named, of the ``.env``
beside it and of the ``.env`` files the platform reads, and the values of the
``${NAME}`` variables its texts reference.

Runs that import graders (``--import-graders``) or look at other files
(``--check-files``) are never cached: what they depend on is not bounded by the
file. An entry that is corrupt, truncated, oversized, written for another key or
holding anything but plain JSON data of the expected shape is ignored, never
trusted. Entries are JSON, written to a temporary file and renamed into place, so
that concurrent runs (``-j``, or several processes) never see half an entry.

The cache folder is :func:`holodeck_mt.app.cache_folder.folder`'s. A whole run served
from here is kept too, and replayed next time without looking at its files' results
(:mod:`holodeck_mt.app.replay`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from holodeck_mt.app import cache_folder, tool_state
from holodeck_mt.read.env_vars import REFERENCE

if TYPE_CHECKING:
    from holodeck_mt.limits import Limits
    from holodeck_mt.model import Diagnostic, FileResult
    from holodeck_mt.rules import Options

#: The entries' layout; a change makes every older entry foreign.
FORMAT = 1
#: An entry larger than this is not read (nor written).
MAX_ENTRY_BYTES = 16 * 1024 * 1024
#: A file larger than this is not cached: hashing it would cost what validating does.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Characters no cached string may hold (tabs are a quoted line's own), in an entry's
#: JSON bytes, escaped or not (an escaped backslash before
#: an ``n`` matches too: the entry is only not used).
_CONTROL_IN_JSON = re.compile(
    rb"[\x00-\x08\x0a-\x1f\x7f]|\xc2[\x80-\x9f]|\\[bfnr]|\\u00(?:[01][0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])"
)
_DIAGNOSTIC_FIELDS: dict[str, type | tuple[type, ...]] = {
    "code": str,
    "message": str,
    "line": int,
    "column": int,
    "pointer_parts": list,
    "test_case": (str, type(None)),
    "test_case_index": (int, type(None)),
    "path": str,
    "hint": (str, type(None)),
    "end_column": (int, type(None)),
    "severity": str,
    "end_line": (int, type(None)),
}


def folder(cwd: Path | None = None) -> Path | None:
    """The cache folder, or None when none may be used."""
    found = cache_folder.folder(str(cwd) if cwd is not None else None)
    return Path(found) if found is not None else None


def usable(options: Options) -> bool:
    """Whether results under ``options`` may be cached at all."""
    return not options.import_graders and not options.check_files


# --- keys -------------------------------------------------------------------------


def key(path: str, raw: bytes, options: Options, limits: Limits) -> str:
    """The entry's key: a hash of what the results depend on before validating."""
    described = json.dumps(
        {
            "path": path,
            "cwd": os.getcwd(),
            # Strictness changes no diagnostic: whoever reads the entry sets it again.
            "options": sorted((k, v) for k, v in vars(options).items() if k != "strict"),
            "limits": sorted(vars(limits).items()),
            "tool": tool_state.state(),
            "format": FORMAT,
        },
        sort_keys=True,
        default=str,
    )
    digest = hashlib.sha256(described.encode("utf-8", "surrogatepass"))  # any file name
    digest.update(b"\0")
    digest.update(raw)
    return digest.hexdigest()


def _hash_file(path: Path) -> str | None:
    """The content's hash, or None for a file that is not there (or not readable)."""
    raw = _read_regular(path, MAX_FILE_BYTES)
    return hashlib.sha256(raw).hexdigest() if raw is not None else None


def _file_state(path: Path) -> list[str | None]:
    """Where ``path`` leads (links followed) and the hash of its content."""
    try:
        real: str | None = os.path.realpath(path)
    except (OSError, ValueError):
        real = None
    return [real, _hash_file(path)]


def _references(texts: Iterable[str]) -> set[str]:
    return {m.group(1) for text in texts for m in REFERENCE.finditer(text)}


def _variables(names: Iterable[str]) -> dict[str, str | None]:
    """The hash of each named variable's value (None: not set)."""
    return {
        name: hashlib.sha256(os.environ[name].encode()).hexdigest() if name in os.environ else None
        for name in sorted(names)
    }


# --- entries ------------------------------------------------------------------------


def _entry_path(root: Path, entry_key: str) -> Path:
    return root / entry_key[:2] / f"{entry_key}.json"


def read(path: str, options: Options, limits: Limits, root: Path) -> list[FileResult] | None:
    """The cached results of the file at ``path``, or None (a miss, whatever the cause)."""
    try:
        return _read(path, options, limits, root)
    except (OSError, ValueError, RecursionError):  # UnicodeError included: an odd name
        return None


def _read(path: str, options: Options, limits: Limits, root: Path) -> list[FileResult] | None:
    raw = _read_source(path, limits)
    if raw is None:
        return None
    entry_key = key(path, raw, options, limits)
    try:
        with open(_entry_path(root, entry_key), "rb") as handle:
            content = handle.read(MAX_ENTRY_BYTES + 1)
        if len(content) > MAX_ENTRY_BYTES or _CONTROL_IN_JSON.search(content):
            return None
        entry = json.loads(content.decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: nested too deep
        return None
    return _trusted(entry, entry_key, path)


def _read_source(path: str, limits: Limits) -> bytes | None:
    """The file's bytes, if it is a regular file within the limits (never blocking on a
    FIFO or a device: such a path is the validator's to refuse)."""
    return _read_regular(Path(path), min(limits.max_bytes, MAX_FILE_BYTES))


def _read_regular(path: Path, limit: int) -> bytes | None:
    from holodeck_mt.read import confine

    try:
        with os.fdopen(confine.open_regular(path), "rb") as handle:
            raw = handle.read(limit + 1)
    except (OSError, ValueError):
        return None
    return raw if len(raw) <= limit else None


def _trusted(entry: Any, entry_key: str, path: str) -> list[FileResult] | None:
    """The entry's results when it is whole, ours, for this key and still current."""
    if not isinstance(entry, dict) or entry.get("format") != FORMAT:
        return None
    if entry.get("key") != entry_key:
        return None
    files, variables = entry.get("files"), entry.get("variables")
    if not isinstance(files, dict) or not isinstance(variables, dict):
        return None
    for name, noted in files.items():
        if noted != _file_state(Path(name)):
            return None
    if _variables(variables) != variables:
        return None
    try:
        return [_result(item) for item in entry["results"]]
    except (KeyError, TypeError, ValueError):
        return None


def _result(item: Any) -> FileResult:
    from holodeck_mt.model import FileResult

    if not isinstance(item, dict) or not isinstance(item["path"], str):
        raise TypeError("not a result")
    stats, quoted, names = item["stats"], item["quoted"], item["test_cases"]
    if not isinstance(stats, dict) or not all(type(v) is int for v in stats.values()):
        raise TypeError("bad stats")
    if not isinstance(quoted, dict) or not all(isinstance(v, str) for v in quoted.values()):
        raise TypeError("bad quoted lines")
    if not isinstance(names, list) or not all(n is None or isinstance(n, str) for n in names):
        raise TypeError("bad names")
    return FileResult(
        path=item["path"],
        diagnostics=[_diagnostic(found) for found in item["diagnostics"]],
        stats=dict(stats),
        quoted={int(number): line for number, line in quoted.items()},
        test_cases=list(names),
    )


def _diagnostic(found: Any) -> Diagnostic:
    from holodeck_mt.model import Diagnostic

    if not isinstance(found, dict) or set(found) != set(_DIAGNOSTIC_FIELDS):
        raise TypeError("not a diagnostic")
    for name, kind in _DIAGNOSTIC_FIELDS.items():
        if not isinstance(found[name], kind) or isinstance(found[name], bool):
            raise TypeError(f"bad {name}")
    parts = tuple(found["pointer_parts"])
    if not all(isinstance(p, (str, int)) and not isinstance(p, bool) for p in parts):
        raise TypeError("bad pointer")
    return Diagnostic(**{**found, "pointer_parts": parts})


def write(
    path: str, results: list[FileResult], options: Options, limits: Limits, root: Path
) -> bool:
    """Store the results of the file at ``path`` (once their text is dropped); whether
    they were stored. Never fails the run: a cache that cannot be written is only a
    slower next run."""
    try:
        return _write(path, results, options, limits, root)
    except (OSError, ValueError, RecursionError):  # UnicodeError included: an odd name
        return False


def _write(
    path: str, results: list[FileResult], options: Options, limits: Limits, root: Path
) -> bool:
    from holodeck_mt.app.config import looked_for
    from holodeck_mt.read.substitution import ENV_FILES

    raw = _read_source(path, limits)
    if raw is None or any(r.text is not None for r in results):
        return False
    source = Path(path)
    depends = [source.parent / ".env", *(file.expanduser() for file in ENV_FILES)]
    texts = [raw.decode("utf-8", "replace")]
    for followed in results[1:]:  # the test-cases file the document named, as read
        target = Path(followed.path)
        if not target.is_file():
            return False
        depends.append(target)
        depends.extend(looked_for(target.parent))  # its own configuration judged it
        content = _read_source(followed.path, limits)
        if content is None:
            return False
        texts.append(content.decode("utf-8", "replace"))
    if len(results) == 1 and "test_cases_file" in texts[0]:
        return False  # it names a file it could not follow: that file may appear
    entry = {
        "format": FORMAT,
        "key": key(path, raw, options, limits),
        "files": {str(p): _file_state(p) for p in depends},
        "variables": _variables(_references(texts)),
        "results": [_as_json(r) for r in results],
    }
    return _store(root, entry)


def _as_json(result: FileResult) -> dict[str, Any]:
    diagnostics = [
        {name: getattr(d, name) for name in _DIAGNOSTIC_FIELDS} for d in result.diagnostics
    ]
    for found in diagnostics:
        found["pointer_parts"] = list(found["pointer_parts"])
    return {
        "path": result.path,
        "diagnostics": diagnostics,
        "stats": result.stats,
        "quoted": {str(n): line for n, line in (result.quoted or {}).items()},
        "test_cases": result.test_cases,
    }


def _store(root: Path, entry: dict[str, Any]) -> bool:
    data = json.dumps(entry, separators=(",", ":")).encode("ascii")  # lone surrogates too
    if len(data) > MAX_ENTRY_BYTES or _CONTROL_IN_JSON.search(data):
        return False  # it would be refused when read back
    return cache_folder.store(str(_entry_path(root, entry["key"])), data)
