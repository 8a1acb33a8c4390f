"""Every diagnostic code, by code: a view of :mod:`holodeck_mt.rules.registry`."""

from __future__ import annotations

from holodeck_mt.rules.registry import CODES, Code

__all__ = ["CODES", "Code", "title"]


def title(code: str) -> str:
    """``HMT102 wrong-type``: a code and its rule's name, as a report heads a diagnostic."""
    entry = CODES.get(code)
    return f"{code} {entry.name}" if entry else code
