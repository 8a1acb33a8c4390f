"""How long a test waits for another process: generous, and scaled for a loaded machine.

A wait is a bound on a hang, never an assertion about speed: a server that answers
in 59 s on a busy two-core runner passes. ``HOLODECK_MT_TEST_TIMEOUT_SCALE`` multiplies
every wait (2 on a slower machine, 0.1 to find a hang quickly).
"""

from __future__ import annotations

import os

SCALE_VARIABLE = "HOLODECK_MT_TEST_TIMEOUT_SCALE"


def scale() -> float:
    """The multiplier ``HOLODECK_MT_TEST_TIMEOUT_SCALE`` sets (1 when unset or unreadable)."""
    try:
        value = float(os.environ.get(SCALE_VARIABLE, "1"))
    except ValueError:
        return 1.0
    return value if value > 0 and value != float("inf") else 1.0


def scaled(seconds: float) -> float:
    """``seconds`` times the scale: the longest a test waits for one event."""
    return seconds * scale()


#: The longest wait for one answer of a language server (initialize included).
LSP_ANSWER = 60.0
