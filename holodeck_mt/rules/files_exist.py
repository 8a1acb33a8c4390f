"""HMT112 (--check-files): each `files[*].path` exists relative to the agent.yaml's folder.

Only stats the path, never reads it; a path that leaves the repository tree (or
names /proc, /sys, /dev) is an HMT120 and is not even stat'ed.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator

from holodeck_mt import layout
from holodeck_mt.model import Fault, clip, marked, reason_of, under
from holodeck_mt.read import confine
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule

_OUTSIDE_HINT = "keep attached files inside the repository (--allow-outside-paths allows others)"


def check(context: Context) -> Iterator[Fault]:
    for parts, entry in context.walk(layout.files):
        path = entry.get("path")
        where = (*parts, "path")
        if not isinstance(path, str) or under(where, context.reported):
            continue
        target = context.base_dir / path
        shown = marked(clip(path))
        try:  # the path comes from the file: a NUL, a name too long, a loop of links
            refused = confine.refusal(
                target, context.tree, allow_outside=context.options.allow_outside_paths
            )
            if refused is not None:
                yield Fault("HMT120", f"file '{shown}' {refused}", where, hint=_OUTSIDE_HINT)
                continue
            mode = target.stat().st_mode
        except FileNotFoundError:
            yield Fault(
                "HMT112",
                f"file '{shown}' not found (looked for {marked(clip(str(target), 200))})",
                where,
                hint="paths are relative to the agent.yaml's folder",
            )
            continue
        except (OSError, ValueError) as e:
            reason = clip(reason_of(e))
            yield Fault("HMT112", f"file '{shown}' cannot be checked ({reason})", where)
            continue
        if stat.S_ISDIR(mode):
            yield Fault("HMT112", f"'{shown}' is a folder, not a file", where)
        elif not stat.S_ISREG(mode):
            yield Fault("HMT112", f"'{shown}' is not a regular file", where)


RULE = Rule(
    code="HMT112",
    name="file-missing",
    description="A `files[*].path` does not exist relative to the agent.yaml (with --check-files).",
    check=check,
    runs="opt-in",
    option="check_files",
    flag="--check-files",
    also=("HMT120",),
)
