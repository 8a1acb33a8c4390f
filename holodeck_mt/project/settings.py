"""Each validated file's settings: the command line's options over its configuration file's."""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

from holodeck_mt.project.config import Settings, find, load
from holodeck_mt.selection import Options, matches


class JobSettings:
    """Each file's options from the arguments and the configuration above it; a bad one raises
    before any file is validated."""

    def __init__(self, args: argparse.Namespace, options: Options) -> None:
        self._select: list[str] = list(args.select)
        self._ignore: list[str] = list(args.ignore)
        self._strict: bool = bool(getattr(args, "strict", False))
        #: ``--platform``, when given, wins over the configuration's ``platform``.
        self._platform: str | None = getattr(args, "platform", None)
        self._options = options
        fixed = load(args.config) if args.config is not None else None
        self._fixed = Settings() if fixed is None and args.isolated else fixed
        Settings().selection(self._select, self._ignore)  # the command line's codes, checked
        self._by_folder: dict[Path, Settings] = {}
        self._by_file: dict[Path, Settings] = {}
        self._made: dict[Settings, Options] = {}

    def settings(self, file: str) -> Settings:
        """The settings of ``file``'s folder, each configuration file read once."""
        if self._fixed is not None:
            return self._fixed
        folder = Path(os.path.abspath(file)).parent
        if folder not in self._by_folder:
            found = find(folder)
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
                selection=found.selection(self._select, self._ignore),
                platform=self._platform or found.platform,
                cache_dir=found.cache_dir,
                strict=self._strict or found.strict,
            )
        return self._made[found]

    def kept(self, files: list[str], named: list[str], passed: list[tuple[str, str]]) -> list[str]:
        """The files less those an ``exclude`` matches (to ``passed``, with why), unless named
        on the command line, as ruff does."""
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
