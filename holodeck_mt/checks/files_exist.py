"""HMT112 (--check-files): each `files[*].path` exists relative to the agent.yaml's folder."""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import walk
from holodeck_mt.checks import Context
from holodeck_mt.diagnostics import Fault


def check(context: Context) -> Iterator[Fault]:
    for parts, entry in walk.files(context.data):
        path = entry.get("path")
        where = (*parts, "path")
        if not isinstance(path, str) or context.already_reported(where):
            continue
        target = context.base_dir / path
        if not target.exists():
            yield Fault(
                "HMT112",
                f"file '{path}' not found (looked for {target})",
                where,
                hint="paths are relative to the agent.yaml's folder",
            )
        elif target.is_dir():
            yield Fault("HMT112", f"'{path}' is a folder, not a file", where)
