"""How each file is judged, decided here once for ``validate``, ``explain``, ``fix`` and the
language server: its role, the agent.yaml it is validated through, its folders, its
configuration file's settings and its options (the command line's over the file's)."""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

from holodeck_mt.model import Role
from holodeck_mt.project import discovery
from holodeck_mt.project.config import Settings, find, load
from holodeck_mt.selection import Options, matches


@dataclasses.dataclass(frozen=True)
class FileSettings:
    """One file's decisions."""

    role: Role
    #: The agent.yaml naming it, which it is validated through (None: validated as itself).
    agent: Path | None
    #: The folder its paths are relative to: its agent.yaml's, else its own.
    base: Path
    #: The folder whose ``.env`` is read (None: the working directory).
    env: Path | None
    options: Options


class JobSettings:
    """Each file's settings from ``args`` (None in the editor) and the configuration above it,
    no higher than ``top``; a bad one raises before any file is validated."""

    def __init__(
        self,
        args: argparse.Namespace | None = None,
        options: Options | None = None,
        *,
        top: Path | None = None,
        isolated: bool = False,
    ) -> None:
        given = vars(args) if args is not None else {}
        #: The codes given on the command line, by option.
        self._codes = {
            f"--{name.replace('_', '-')}": list(given.get(name) or ())
            for name in ("select", "extend_select", "ignore", "extend_ignore")
        }
        self._strict: bool = bool(given.get("strict", False))
        #: ``--platform``, when given, wins over the configuration's ``platform``.
        self._platform: str | None = given.get("platform")
        self._options = options or Options()
        self._top = top
        config = given.get("config")
        fixed = load(config) if config is not None else None
        isolated = isolated or bool(given.get("isolated"))
        self._fixed = Settings() if fixed is None and isolated else fixed
        Settings().selection(self._codes)  # the command line's codes, checked
        self._by_folder: dict[Path, Settings] = {}
        self._by_file: dict[Path, Settings] = {}
        self._made: dict[Settings, Options] = {}

    def settings(self, file: str) -> Settings:
        """The settings of ``file``'s folder, each configuration file read once."""
        if self._fixed is not None:
            return self._fixed
        folder = Path(os.path.abspath(file)).parent
        if folder not in self._by_folder:
            found = find(folder, top=self._top)
            if found is not None and found not in self._by_file:
                self._by_file[found] = load(found)
            self._by_folder[folder] = Settings() if found is None else self._by_file[found]
        return self._by_folder[folder]

    def of(self, file: str) -> Options:
        """The options ``file`` is validated with (its strictness among them)."""
        found = self.settings(file)
        if found not in self._made:
            self._made[found] = dataclasses.replace(
                self._options,
                selection=found.selection(self._codes),
                platform=self._platform or found.platform,
                strict=self._strict or found.strict,
            )
        return self._made[found]

    def for_path(self, path: Path) -> FileSettings:
        """Every decision on the file at ``path``: through the agent.yaml naming it, if one does."""
        agent = discovery.find_agent(path, self._top)
        role: Role = "test-cases-file" if agent is not None else "document"
        return FileSettings(role, agent, (agent or path).parent, self._top, self.of(str(path)))

    def keep(self, files: list[str], named: list[str], passed: list[tuple[str, str]]) -> list[str]:
        """The files less those an ``exclude`` matches (to ``passed``), unless named, as in ruff."""
        explicit = {os.path.abspath(p) for p in named}
        kept = []
        for file in files:
            found = self.settings(file)
            excluded = any(matches(file, found.root, glob) for glob in found.exclude)
            if excluded and os.path.abspath(file) not in explicit:  # exclude comes from a file
                passed.append((file, f"excluded by `exclude` in {found.path}"))
            else:
                kept.append(file)
        return kept
