"""Where the real HoloDeck samples are: the tests, the fuzzer's seeds and the benchmark's
real file all read them from here."""

from __future__ import annotations

import os
from pathlib import Path

#: Where the real samples are, when they are not beside the checkout.
SAMPLES_VARIABLE = "HOLODECK_MT_SAMPLES"
ROOT = Path(__file__).resolve().parents[2]


def samples_folder() -> Path:
    """The real samples' folder: ``$HOLODECK_MT_SAMPLES``, else
    ``../shared/data/holodeck-samples`` beside the repository. It may not exist."""
    named = os.environ.get(SAMPLES_VARIABLE, "").strip()
    if named:
        return Path(named).expanduser().resolve()
    return ROOT.parent / "shared" / "data" / "holodeck-samples"
