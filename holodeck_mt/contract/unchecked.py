"""The sections no platform model checked in a run, and how to check them (apart from
:mod:`.platform_models`, so that a renderer imports nothing that reads YAML)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from holodeck_mt.model import clip

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult

INSTALL = "pip install holodeck-ai"
#: Why the sections went unchecked when the platform is not installed at all.
NOT_INSTALLED = "holodeck-ai is not installed"


def list_unchecked(results: Sequence[FileResult]) -> tuple[list[str], str | None]:
    """The sections no model checked (each once, clipped), and the command checking them."""
    names = list(dict.fromkeys(clip(section) for r in results for section in r.unchecked))
    if not names:
        return [], None
    return names, {"off": "--platform auto", NOT_INSTALLED: INSTALL}.get(because(results) or "")


def because(results: Sequence[FileResult]) -> str | None:
    """Why sections went unchecked: ``off``, or why the platform does not import."""
    return next((r.unchecked_because for r in results if r.unchecked), None)


def sections_note(results: Sequence[FileResult]) -> str | None:
    """One line naming the sections no model checked, why, and how to check them."""
    names, command = list_unchecked(results)
    if not names:
        return None
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    told = f": {because(results)}" if command != "--platform auto" else ""
    told += f"; `{command}` checks them" if command else ""
    return f"Not checked: {shown} (the platform's own sections{told})."
