"""The run cache: a repeated ``validate`` run's report replayed while nothing it saw changed.

The result cache (:mod:`holodeck_mt.app.cache`) saves validating a file again; a run it
serves still starts the command line, finds the files and their settings, and renders
their results, which costs more than reading them does. This cache keeps a whole run
instead: the report it wrote and its exit code, replayed before anything else of the
validator is imported. A run is the same run when it has

- the same arguments, working folder and environment: every variable, since one that
  the validator, the platform or a library reads can change the report (a run in
  another environment is served file by file by the result cache, which keys on the
  variables the files reference);
- the same validator (:mod:`holodeck_mt.app.tool_state`), and a standard output of the
  same encoding, a terminal or not (colour);
- every path it looked at as it was (:mod:`holodeck_mt.app.file_states`): the files
  named and validated, the test-cases files they name, the ``.env`` files the platform
  reads; in every folder from each of those files' and from the working folder up to
  the repository's root (the first holding ``.git``, else the file system's), the files
  a run looks for there (``agent.yaml``, ``agent.yml``, ``.holodeck-mt.toml``,
  ``pyproject.toml``, ``.env``, ``.git``), there or not; the configuration named by
  ``--config``; and for a folder named, every folder its search walked and the YAML
  files in them.

Only a run whose every file the result cache serves is kept (not with ``--no-cache``,
``--import-graders`` or ``--check-files``, nor when a configuration's ``cache-dir``
keeps that cache elsewhere), that met no usage problem (exit 0 or 1), whose whole
report was written, and whose every path recorded was last changed well before it
began (:func:`holodeck_mt.app.file_states.settled`). An entry is JSON, in the ``runs``
folder of the cache folder (:mod:`holodeck_mt.app.cache_folder`), named by the hash of
the run's key, written to a temporary file and renamed into place. One that is
corrupt, truncated, oversized, for another key, whose report does not hash to its
recorded hash, or that holds a character no report holds (a control character, a
terminal's escape that is not a colour), is ignored, never trusted.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time

from holodeck_mt.app import cache_folder, file_states, streams, tool_state
from holodeck_mt.app.tool_state import blake2b

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, TextIO

#: The entries' layout; a change makes every older entry foreign.
FORMAT = 1
#: An entry larger than this is not read (nor written).
MAX_ENTRY_BYTES = 64 * 1024 * 1024
#: The files a run looks for in each folder above the files it validates (discovery:
#: the agent.yaml naming a test-cases file; the configuration; the ``.env`` the result
#: cache records; the repository's root, where every search stops).
LOOKED_FOR = (
    "agent.yaml",
    "agent.yml",
    ".holodeck-mt.toml",
    "pyproject.toml",
    ".env",
    ".git",
)
#: The colours of the text report on a terminal (:mod:`holodeck_mt.render.text`).
_COLOUR = re.compile("\x1b\\[[0-9;]*m")


class Run:
    """A ``validate`` run that the run cache may answer, or keep once it has run."""

    def __init__(self, argv: Sequence[str], folder: str) -> None:
        self.argv = list(argv)
        self.folder = folder
        self.started_ns = time.time_ns()
        stdout = sys.stdout
        self.terminal = bool(stdout is not None and stdout.isatty())
        self.key = _key(self.argv, self.terminal)

    @property
    def entry_path(self) -> str:
        return os.path.join(self.folder, "runs", self.key[:2], f"{self.key}.json")

    def replayed(self) -> int | None:
        """The exit code of the run replayed (its report written), or None: a miss."""
        entry = self._entry()
        if entry is None:
            return None
        output: str = entry["output"]

        def write(out: TextIO) -> None:
            out.write(output)

        streams.write_report(write)
        return int(entry["code"])

    def _entry(self) -> dict[str, Any] | None:
        try:
            with open(self.entry_path, "rb") as handle:
                content = handle.read(MAX_ENTRY_BYTES + 1)
            if len(content) > MAX_ENTRY_BYTES:
                return None
            entry = json.loads(content.decode("utf-8"))
        except (OSError, ValueError, RecursionError):  # RecursionError: nested too deep
            return None
        return entry if self._trusted(entry) else None

    def _trusted(self, entry: object) -> bool:
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            return False
        code = entry.get("code")
        if entry.get("key") != self.key or type(code) is not int or code not in (0, 1):
            return False
        output, digest, states = entry.get("output"), entry.get("digest"), entry.get("states")
        if not isinstance(output, str) or not isinstance(states, list):
            return False
        if digest != _digest(output) or not _shown_as_rendered(output, self.terminal):
            return False
        return all(file_states.same(state) for state in states)

    def keep(self, output: str, code: int, paths: Iterable[str], folders: Iterable[str]) -> None:
        """Store the run: its report and exit code, and the states of the ``paths`` and
        ``folders`` (whose names it read) it looked at. Never fails the run: a run that
        cannot be kept is only a slower next run."""
        settled_before = self.started_ns - file_states.SETTLED_NS
        states = []
        for path, listing in [*((p, False) for p in paths), *((f, True) for f in folders)]:
            state = file_states.record(path, listing=listing)
            if state is None or not file_states.settled(path, settled_before):
                return  # changed too recently to be trusted on its times, or unrecordable
            states.append(state)
        entry = {
            "format": FORMAT,
            "key": self.key,
            "code": code,
            "digest": _digest(output),
            "states": states,
            "output": output,
        }
        try:
            data = json.dumps(entry, separators=(",", ":")).encode("ascii")
        except (ValueError, RecursionError):
            return
        if len(data) <= MAX_ENTRY_BYTES and _shown_as_rendered(output, self.terminal):
            cache_folder.store(self.entry_path, data)


def candidate(argv: Sequence[str]) -> Run | None:
    """The run of ``argv`` if the run cache may answer it (a ``validate`` run that uses the
    caches, with a cache folder), else None."""
    if argv[:1] != ["validate"] or "--no-cache" in argv or sys.stdout is None:
        return None
    try:
        folder = cache_folder.folder()
        return Run(argv, folder) if folder is not None else None
    except (OSError, ValueError):  # the working folder is gone, a name that does not encode
        return None


def _key(argv: Sequence[str], terminal: bool) -> str:
    """The hash of what a run's report depends on besides the paths it looks at."""
    stdout = sys.stdout
    parts = [
        f"holodeck-mt run {FORMAT}",
        tool_state.state(),
        os.getcwd(),
        f"{getattr(stdout, 'encoding', None)} {getattr(stdout, 'errors', None)} {terminal}",
        *argv,
        "",
        *(f"{name}={value}" for name, value in sorted(os.environ.items())),
    ]
    digest = blake2b(digest_size=32)
    for part in parts:
        raw = part.encode("utf-8", "surrogatepass")
        digest.update(len(raw).to_bytes(8, "little") + raw)
    return digest.hexdigest()


def _digest(output: str) -> str:
    return blake2b(output.encode("utf-8", "surrogatepass"), digest_size=32).hexdigest()


def _shown_as_rendered(output: str, terminal: bool) -> bool:
    """Whether ``output`` holds only what a report holds: no control, bidi or invisible
    character but its line breaks, no terminal escape but a colour on a terminal."""
    from holodeck_mt.text.safe_text import escape

    plain = _COLOUR.sub("", output) if terminal else output
    return escape(plain, keep_newlines=True) == plain


def looked_at(
    given: Iterable[str], validated: Iterable[str], config: str | None
) -> tuple[list[str], list[str]]:
    """The paths a run looked at (their states recorded) and the folders whose listings it
    read, for the paths it was ``given``, the files it ``validated`` and the ``config``
    it was named."""
    from pathlib import Path

    from holodeck_mt.app.discovery import is_agent_file, is_yaml_file, walk_tree
    from holodeck_mt.read.substitution import ENV_FILES

    files = {os.path.abspath(p) for p in validated}
    folders: set[str] = set()
    starts = {os.getcwd()}
    for name in given:
        path = os.path.abspath(name)
        if not os.path.isdir(path):
            files.add(path)
            continue
        starts.add(path)
        for folder, names in walk_tree(Path(path), []):  # as the folder search walks it
            folders.add(str(folder))
            searched = (folder / n for n in names)
            files.update(str(f) for f in searched if is_agent_file(f) or is_yaml_file(f))
    starts.update(os.path.dirname(f) for f in files)
    paths = set(files)
    for start in starts:
        for above in {*_up_to_root(start), *_up_to_root(os.path.realpath(start))}:
            paths.update(os.path.join(above, name) for name in LOOKED_FOR)
    paths.update(str(file.expanduser().absolute()) for file in ENV_FILES)
    if config is not None:
        paths.add(os.path.abspath(config))
    return sorted(paths), sorted(folders)


def _up_to_root(start: str) -> list[str]:
    """``start`` and the folders above it, to the first holding ``.git`` (or ``/``)."""
    chain = [start]
    while not os.path.exists(os.path.join(chain[-1], ".git")):
        parent = os.path.dirname(chain[-1])
        if parent == chain[-1]:
            break
        chain.append(parent)
    return chain
