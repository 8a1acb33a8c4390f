"""Each validated file's settings: the command line's options over its configuration file's."""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

from holodeck_mt.project.config import Finder, Settings
from holodeck_mt.rules import Options
from holodeck_mt.selection import Selection, matches


class JobSettings:
    """The options of each file of a run, from ``validate``'s arguments and the file's own
    configuration (found from its folder upward), however the file is reached: named,
    found in a folder, or named by an agent.yaml elsewhere (:meth:`of` is the validator's
    ``options_of``). Sent to the worker processes with their jobs.

    Raises :class:`~holodeck_mt.project.config.ConfigError` or
    :class:`~holodeck_mt.selection.SelectionError` for a configuration or a code that
    cannot be used (checked before any file is validated).
    """

    def __init__(self, args: argparse.Namespace, options: Options) -> None:
        self._select: list[str] = list(args.select)
        self._ignore: list[str] = list(args.ignore)
        self._strict: bool = bool(getattr(args, "strict", False))
        #: ``--platform``, when given, wins over the configuration's ``platform``.
        self._platform: str | None = getattr(args, "platform", None)
        self._options = options
        self._finder = Finder(config=args.config, isolated=args.isolated)
        Settings().selection(self._select, self._ignore)  # the command line's codes, checked
        self._made: dict[Settings, Options] = {}

    def settings(self, file: str) -> Settings:
        return self._finder.settings(Path(file))

    def of(self, file: str) -> Options:
        """The options ``file`` is validated with (its strictness among them)."""
        found = self.settings(file)
        made = self._made.get(found)
        if made is None:
            selection: Selection = found.selection(self._select, self._ignore)
            made = dataclasses.replace(
                self._options,
                selection=selection,
                platform=self._platform or found.platform,
                cache_dir=found.cache_dir,
                strict=self._strict or found.strict,
            )
            self._made[found] = made
        return made

    def kept(
        self, files: list[str], named: list[str], passed: list[tuple[str, str]] | None = None
    ) -> list[str]:
        """The files less those a configuration's ``exclude`` matches (a file named on the
        command line is validated whatever the globs say, as ruff does); those left out
        go to ``passed``, with why."""
        explicit = {os.path.abspath(p) for p in named}
        kept = []
        for file in files:
            found = self.settings(file)
            excluded = any(matches(file, found.root, glob) for glob in found.exclude)
            if excluded and os.path.abspath(file) not in explicit:
                if passed is not None:
                    where = str(found.path) if found.path is not None else "the configuration"
                    passed.append((file, f"excluded by `exclude` in {where}"))
                continue
            kept.append(file)
        return kept
