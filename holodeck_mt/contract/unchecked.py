"""The sections no platform model checked in a run, and how to check them (apart from
:mod:`.platform_models`, so that a renderer imports nothing that reads YAML)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from holodeck_mt.model import clip

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult

INSTALL = "pip install holodeck-ai"


def unchecked(results: Sequence[FileResult]) -> tuple[list[str], str | None]:
    """The sections no model checked (each once, clipped), and how to check them, or None."""
    names = list(dict.fromkeys(clip(section) for r in results for section in r.unchecked))
    if not names:
        return [], None
    off = any(result.unchecked_because == "off" for result in results)
    return names, ("--platform auto" if off else INSTALL)


def sections_note(results: Sequence[FileResult]) -> str | None:
    """One line naming the sections no model checked, and how to check them."""
    names, how = unchecked(results)
    if how is None:
        return None
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    return f"Not checked: {shown} (the platform's own sections; `{how}` checks them)."
