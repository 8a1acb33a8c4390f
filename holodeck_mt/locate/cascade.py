"""No warning cascades from a field whose own name is already an error.

A metric whose ``metric`` or ``type`` is misspelt (``metric: numerical``) is not the
metric its other keys were written for: a warning on those keys ("has no effect on
the `numerical` metric") would follow from the typo, not from the file. Every
warning at or below a mapping whose kind (``metric``, ``type``) is an error is
dropped; the error itself says what to change.
"""

from __future__ import annotations

from holodeck_mt.model import Fault, JsonPath, severity, under

#: The keys that say what a mapping is: the rest of it is read by what they say.
KIND_KEYS = frozenset({"metric", "type"})


def pruned(faults: list[Fault]) -> list[Fault]:
    """``faults`` without the warnings under a mapping whose kind is an error."""
    misnamed: set[JsonPath] = {
        f.parts[:-1]
        for f in faults
        if f.parts and f.parts[-1] in KIND_KEYS and severity(f.code) == "error"
    }
    if not misnamed:
        return faults
    return [f for f in faults if severity(f.code) == "error" or not under(f.parts, misnamed)]
