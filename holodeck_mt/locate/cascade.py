"""No warning cascades from a field whose own name is already an error: under a metric whose
``metric`` or ``type`` is misspelt, a warning on its other keys follows from the typo."""

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
