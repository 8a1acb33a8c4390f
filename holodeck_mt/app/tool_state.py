"""What the validator is, as the caches key it: a change to any of it makes every entry foreign.

Its version; its modules (each one's size and modification time, the compiled
builder's among them); the Python running it; the schema files (their content); and
the distributions installed on ``sys.path`` (their ``.dist-info`` and ``.egg-info``
folder names, which carry their versions: the platform's, the YAML parser's, the
schema engine's). Found with :mod:`os` alone: a run answered from a cache pays for
nothing it does not use, and importing ``importlib.metadata`` or :mod:`pathlib` would
cost more than such a run does.
"""

from __future__ import annotations

import os
import sys

# The hash CPython builds in (the run cache's too): hashlib would load OpenSSL, megabytes
# of memory and a few milliseconds, for nothing.
try:
    from _blake2 import blake2b as blake2b
except ImportError:  # pragma: no cover - a Python built without its own hashes
    from hashlib import blake2b as blake2b

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

#: The package's modules: its sources and its compiled extensions.
_MODULES = (".py", ".so", ".pyd")
#: Where a distribution's metadata lives, on ``sys.path``.
_METADATA = (".dist-info", ".egg-info")

_computed: list[str] = []


def state() -> str:
    """The hash of the validator's description, computed once a process."""
    if not _computed:
        digest = blake2b(digest_size=32)
        for line in _lines():
            digest.update(line.encode("utf-8", "surrogatepass") + b"\n")
        _computed.append(digest.hexdigest())
    return _computed[0]


def forget() -> None:
    """Compute the state again on the next call (the validator changed under a process)."""
    _computed.clear()


def _lines() -> Iterator[str]:
    import holodeck_mt

    yield f"holodeck-mt {holodeck_mt.__version__}"
    yield f"python {sys.implementation.cache_tag} {sys.version}"
    package = os.path.dirname(os.path.realpath(holodeck_mt.__file__))
    for name, size, mtime in sorted(_modules(package, "")):
        yield f"module {name} {size} {mtime}"
    folder = schema_dir()
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), "rb") as handle:
                yield f"schema {name} {blake2b(handle.read()).hexdigest()}"
    for name in distributions():
        yield f"distribution {name}"


def _modules(folder: str, prefix: str) -> Iterator[tuple[str, int, int]]:
    """Each module under ``folder``: its path from there, size and mtime (ns)."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                yield from _modules(entry.path, f"{prefix}{entry.name}/")
            elif entry.name.endswith(_MODULES):
                found = entry.stat()
                yield f"{prefix}{entry.name}", found.st_size, found.st_mtime_ns


def schema_dir() -> str:
    """The schema files' folder, as :func:`holodeck_mt.contract.registry.schema_dir`
    finds it (the installed copy first, then the checkout's)."""
    import holodeck_mt

    package = os.path.dirname(os.path.realpath(holodeck_mt.__file__))
    packaged = os.path.join(package, "schema")
    return packaged if os.path.isdir(packaged) else os.path.join(os.path.dirname(package), "schema")


def distributions() -> list[str]:
    """The installed distributions' metadata folders (name and version), sorted."""
    found: set[str] = set()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except (OSError, ValueError):
            continue
        found.update(name for name in names if name.endswith(_METADATA))
    return sorted(found)
