"""Canonical JSON Schema and validator for HoloDeck's multi-turn test cases."""

from __future__ import annotations

#: ``typing`` is not imported at run time: a run answered from the cache starts here, and
#: importing ``typing`` would cost it a tenth of its time.
TYPE_CHECKING = False

__version__ = "0.1.0"
__all__ = ["Diagnostic", "FileResult", "__version__", "validate_file", "validate_text"]

if TYPE_CHECKING:
    from holodeck_mt.model import Diagnostic, FileResult
    from holodeck_mt.pipeline import validate_file, validate_text


def __getattr__(name: str) -> object:
    # Imported on first use, so that `python -m holodeck_mt` starts fast.
    if name in ("Diagnostic", "FileResult"):
        from holodeck_mt import model

        return getattr(model, name)
    if name in ("validate_file", "validate_text"):
        from holodeck_mt import pipeline as validate

        return getattr(validate, name)
    raise AttributeError(name)
