"""The cache (docs/usage.md, *The cache*): an entry, named by an HMAC of what is known before
validating, records keyed hashes, no value, of what validating read. The key lives in the
user's cache folder, never the repository. No ``dir_fd``: no cache."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable

    from holodeck_mt.limits import Limits
    from holodeck_mt.model import FileResult
    from holodeck_mt.selection import Options

#: The entries' layout (a change makes every older entry foreign); the largest entry read or
#: written; the largest file cached (hashing it would cost what validating does).
FORMAT, MAX_ENTRY_BYTES, MAX_FILE_BYTES = 2, 16 * 1024 * 1024, 64 * 1024 * 1024
#: The key's file, in the user's cache folder, and its size.
SECRET, SECRET_BYTES = "secret.key", 32
#: What an entry keeps of a result besides its diagnostics and quoted lines.
_KEPT = ("path", "stats", "test_cases", "unchecked", "unchecked_because", "reads")
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOLINK = getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOLINK
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | _CLOEXEC
_FOLDER = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOLINK
_HOME = os.path.join("~", "Library", "Caches") if sys.platform == "darwin" else "~/.cache"


def user_folder() -> str | None:
    """``$XDG_CACHE_HOME/holodeck-mt``, else ``~/.cache/holodeck-mt`` (``~/Library/Caches``
    on macOS), where the key lives; None when it is not absolute."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    found = os.path.join(xdg if os.path.isabs(xdg) else os.path.expanduser(_HOME), "holodeck-mt")
    return found if os.path.isabs(found) else None


def find_holding_tree(judged: Iterable[str] = ()) -> str | None:
    """The tree holding the key's folder or the entries' (as written or resolved), if any: the
    working folder's repository, or a judged file's (else its folder). None: they may be used."""
    from holodeck_mt.read.confine import repository_root

    found = [f for f in (user_folder(), os.environ.get("HOLODECK_MT_CACHE_DIR")) if f]
    places = {p for f in found for p in (os.path.abspath(f), os.path.realpath(f))}
    folders = {os.path.realpath(os.path.dirname(os.path.abspath(path))) for path in judged}
    trees = {repository_root(os.path.realpath(os.getcwd()))}
    trees |= {repository_root(folder) or folder for folder in folders}
    for tree in filter(None, trees):
        if any(Path(place).is_relative_to(tree) for place in places):
            return tree
    return None


def folder(options: Options) -> str | None:
    """Where entries go: ``$HOLODECK_MT_CACHE_DIR``, else the user's (None: not cached)."""
    if options.import_graders or options.check_files:
        return None
    return os.environ.get("HOLODECK_MT_CACHE_DIR") or user_folder()


def secret() -> bytes | None:
    """This installation's key, made on first use (None: no cache), read once a process."""
    place = user_folder()
    if place is None or find_holding_tree() is not None or os.open not in os.supports_dir_fd:
        return None
    return _secret(place)


@functools.cache
def _secret(place: str) -> bytes | None:
    try:
        os.makedirs(place, mode=0o700, exist_ok=True)
        at = os.open(place, os.O_RDONLY | _CLOEXEC)
        try:
            with (
                contextlib.suppress(FileExistsError),
                os.fdopen(os.open(SECRET, _NEW, 0o600, dir_fd=at), "wb") as handle,
            ):
                handle.write(os.urandom(SECRET_BYTES))
            with os.fdopen(os.open(SECRET, _READ | _NOLINK, dir_fd=at), "rb") as handle:
                found, key = os.fstat(handle.fileno()), handle.read(SECRET_BYTES + 1)
        finally:
            os.close(at)
    except (OSError, ValueError):
        return None
    mine = getattr(os, "geteuid", lambda: found.st_uid)() == found.st_uid
    ours = stat.S_ISREG(found.st_mode) and mine and not found.st_mode & 0o077
    return key if ours and len(key) == SECRET_BYTES else None


def _entry_folder(root: str, name: str, create: bool) -> int:
    """The folder of entry ``name`` (made when ``create``), its last two parts never links."""
    parent, last = os.path.split(os.path.abspath(root))
    if create:
        os.makedirs(parent, mode=0o700, exist_ok=True)
    at = os.open(parent, os.O_RDONLY | _CLOEXEC)
    for part in (last, name[:2]):
        try:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o700, dir_fd=at)
            inner = os.open(part, _FOLDER, dir_fd=at)
        finally:
            os.close(at)
        at = inner
    return at


def _mac(key: bytes, *parts: bytes) -> str:
    framed = b"".join(len(part).to_bytes(8, "little") + part for part in parts)
    return hmac.new(key, framed, hashlib.sha256).hexdigest()


def _content(path: str, limit: int = MAX_FILE_BYTES) -> bytes | None:
    """A judged file's bytes within ``limit`` (None: not a regular file, or not read)."""
    from holodeck_mt.read import files

    try:
        return files.read(os.path.expanduser(path), limit).raw
    except (OSError, ValueError, files.Refused, files.TooLarge):
        return None


def _read_own(name: str, at: int) -> bytes:
    """The entry ``name`` in the folder ``at``: a regular file, never a link, never blocking."""
    with os.fdopen(os.open(name, _READ | _NOLINK, dir_fd=at), "rb") as handle:
        regular = stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
        raw = handle.read(MAX_ENTRY_BYTES + 1) if regular else b""
    return raw if len(raw) <= MAX_ENTRY_BYTES else b""


def _state(key: bytes, path: str) -> str:
    """A keyed hash of where ``path`` leads and what it holds (or that it cannot be read)."""
    real = os.path.realpath(os.path.expanduser(path)).encode("utf-8", "surrogateescape")
    raw = _content(path)
    return _mac(key, real, b"+" + raw if raw is not None else b"-")


def _variables(key: bytes, names: Collection[str]) -> str:
    """A keyed hash of each named variable's value as ``holodeck`` sees it, ``.env`` included."""
    from holodeck_mt.read.substitution import environment

    seen = environment().variables if names else {}
    found = {name: seen.get(name) for name in sorted(names)}
    return _mac(key, json.dumps(found).encode("utf-8", "surrogatepass"))


def _is_platform_known() -> bool | None:
    """Whether the platform's models imported in this process (None: not asked yet)."""
    models = getattr(sys.modules.get("holodeck_mt.contract.platform_models"), "_MODELS", {})
    return models["agent"] is not None if "agent" in models else None


@functools.cache
def _tool_state() -> bytes:
    """The validator as the key sees it, described once a process."""
    import importlib.util

    import holodeck_mt
    from holodeck_mt.contract.registry import schema_dir

    lines = [holodeck_mt.__version__, sys.version, *sys.path]
    for place, folders, files in os.walk(os.path.dirname(holodeck_mt.__file__)):
        folders[:] = sorted(n for n in folders if n != "__pycache__")
        for name in sorted(f for f in files if f.endswith((".py", ".so", ".pyd"))):
            found = os.stat(os.path.join(place, name))
            lines.append(f"{place} {name} {found.st_size} {found.st_mtime_ns}")
    for schema in sorted(schema_dir().glob("*.json")):
        lines.append(f"{schema.name} {hashlib.sha256(schema.read_bytes()).hexdigest()}")
    for entry in sys.path:
        with contextlib.suppress(OSError, ValueError):
            lines += sorted(n for n in os.listdir(entry or ".") if n.endswith("-info"))
    spec = None
    with contextlib.suppress(ImportError, ValueError):  # where the platform imports from
        spec = importlib.util.find_spec("holodeck")
    lines.append(f"platform {getattr(spec, 'origin', None)}")
    return "\n".join(lines).encode("utf-8", "surrogatepass")


class Entry:
    """The entry of the file at ``path`` in ``root``, its options from ``config``'s file."""

    def __init__(self, path: str, options: Options, limits: Limits, root: str, config: str | None):
        self.path, self.root, self.key = path, root, secret()
        self.limit = min(limits.max_bytes, MAX_FILE_BYTES)
        # Strictness changes no diagnostic: whoever reads the entry sets it again.
        chosen = sorted((k, v) for k, v in vars(options).items() if k != "strict")
        asked = [chosen, sorted(vars(limits).items()), config, FORMAT]
        described = json.dumps([path, os.getcwd(), *asked], default=str)
        settings = _state(self.key, config) if self.key and config is not None else ""
        self.described = [described.encode("utf-8", "surrogatepass"), settings.encode()]
        self.name = self._name()

    def _name(self) -> str | None:
        """A keyed hash of what the results depend on before validating (None: no entry)."""
        raw = _content(self.path, self.limit)
        if self.key is None or raw is None:
            return None
        return _mac(self.key, *self.described, _tool_state(), raw)

    def read(self) -> list[FileResult] | None:
        """The cached results, or None (a miss, whatever the cause)."""
        if self.key is None or self.name is None:
            return None
        try:
            at = _entry_folder(self.root, self.name, create=False)
            try:
                content = _read_own(self.name, at)
            finally:
                os.close(at)
            mac, _, payload = content.partition(b"\n")
            if not hmac.compare_digest(mac, _mac(self.key, self.name.encode(), payload).encode()):
                return None
            entry = json.loads(payload)
            known, imported = _is_platform_known(), entry["platform"]
            changed = any(_state(self.key, file) != state for file, state in entry["files"])
            changed = changed or _variables(self.key, entry["names"]) != entry["variables"]
            if changed or (None not in (known, imported) and known != imported):
                return None
            return [_result(item) for item in entry["results"]]
        except (OSError, ValueError, TypeError, KeyError, RecursionError):
            return None

    def write(self, results: list[FileResult]) -> None:
        """Store ``results`` if the file is as it was when its entry was named."""
        key, name, raw = self.key, self.name, _content(self.path, self.limit)
        if key is None or name is None or raw is None or self._name() != name:
            return
        if _characters(results) > MAX_ENTRY_BYTES:
            return  # too large is known before a key of a megabyte is encoded 999 times
        with contextlib.suppress(OSError, ValueError, TypeError, RecursionError):
            entry = self._entry(key, raw, results)
            if entry is None:
                return
            payload = json.dumps(entry, separators=(",", ":")).encode("ascii")  # lone surrogates
            content = _mac(key, name.encode(), payload).encode() + b"\n" + payload
            if len(content) <= MAX_ENTRY_BYTES:
                _store(_entry_folder(self.root, name, create=True), name, content)

    def _entry(self, key: bytes, raw: bytes, results: list[FileResult]) -> dict[str, Any] | None:
        """The results with keyed hashes of what validating read; None when a file they
        depend on is not known (a test-cases file named and not followed)."""
        from holodeck_mt.read.substitution import ENV_FILES, REFERENCE

        followed = [r.path for r in results[1:]]  # the test-cases file the document named
        unfollowed = not followed and b"test_cases_file" in raw
        if unfollowed or not all(map(os.path.isfile, followed)) or any(r.text for r in results):
            return None
        env = [os.path.join(os.path.dirname(self.path), ".env"), *map(str, ENV_FILES)]
        texts = [raw, *(_content(file) or b"" for file in [*followed, *env])]
        reads = [read for result in results for read in result.reads]
        reads += _configurations(followed)
        names = {m[1] for t in texts for m in REFERENCE.finditer(t.decode("utf-8", "replace"))}
        return {
            "files": [[f, _state(key, f)] for f in sorted({*followed, *env, *reads})],
            "names": sorted(names),
            "variables": _variables(key, names),
            "platform": _is_platform_known(),
            "results": [_as_json(result) for result in results],
        }


def _characters(results: list[FileResult]) -> int:
    """The characters of the results' texts: a lower bound of their JSON's bytes."""
    total = 0
    for result in results:
        total += sum(map(len, filter(None, result.test_cases)))
        total += sum(map(len, (result.quoted or {}).values()))
        for d in result.diagnostics:
            total += sum(len(v) for v in vars(d).values() if isinstance(v, str))
            total += sum(len(p) for p in d.pointer_parts if isinstance(p, str))
    return total


def _configurations(followed: list[str]) -> list[str]:
    """The configuration files that could apply to each test-cases file a document named."""
    from holodeck_mt.project.config import list_inputs

    return [str(p) for file in followed for p in list_inputs(os.path.dirname(file) or ".")]


def _store(at: int, name: str, content: bytes) -> None:
    """Write ``content`` as ``name`` in the folder ``at`` (then closed): a new file, renamed."""
    temporary = f".{os.urandom(8).hex()}.tmp"
    try:
        with os.fdopen(os.open(temporary, _NEW, 0o600, dir_fd=at), "wb") as handle:
            handle.write(content)
        os.replace(temporary, name, src_dir_fd=at, dst_dir_fd=at)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=at)
        raise
    finally:
        os.close(at)


def _as_json(result: FileResult) -> dict[str, Any]:
    diagnostics = [{k: v for k, v in vars(d).items() if k != "fix"} for d in result.diagnostics]
    quoted = sorted((result.quoted or {}).items())
    return {"diagnostics": diagnostics, "quoted": quoted, **{k: getattr(result, k) for k in _KEPT}}


def _result(item: dict[str, Any]) -> FileResult:
    from holodeck_mt.model import Diagnostic, FileResult

    found: list[dict[str, Any]] = item["diagnostics"]
    for d in found:
        d.update({k: tuple(v) for k, v in d.items() if isinstance(v, list)})
    item["diagnostics"] = [Diagnostic(**d) for d in found]
    item["unchecked"], item["quoted"] = tuple(item["unchecked"]), dict(item["quoted"])
    return FileResult(**item)
