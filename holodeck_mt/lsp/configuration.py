"""The options a document is validated with in the editor: the workspace's configuration.

The same file ``holodeck-mt validate`` reads (docs/usage.md), never looked for above the
workspace folder, decides which codes are published and whether the platform's models
judge an agent.yaml's own sections. It is looked up again at each validation, so an
edited configuration applies at the next change. A configuration that cannot be used is
logged, and every code is published meanwhile.
"""

from __future__ import annotations

from pathlib import Path

from holodeck_mt.project.config import ConfigError, find, load
from holodeck_mt.rules import Options
from holodeck_mt.selection import SelectionError


def options_for(path: Path, tree: Path) -> tuple[Options, str | None]:
    """The options of the document at ``path``, and why the configuration was not used;
    the configuration is looked for no higher than ``tree`` (the document's workspace)."""
    try:
        found = find(path.parent, top=tree)
        if found is None:
            return Options(), None
        settings = load(found)
        return Options(selection=settings.selection(), platform=settings.platform), None
    except (ConfigError, SelectionError, OSError, ValueError) as e:
        return Options(), f"configuration not used: {e}"
