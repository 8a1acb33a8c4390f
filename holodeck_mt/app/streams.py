"""The standard streams of a run: unencodable characters escaped, a reader gone no failure."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO


def make_safe() -> None:
    """Whatever the locale or PYTHONIOENCODING says, an unencodable character is escaped."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (OSError, ValueError):
                continue


def write_report(render: Callable[[TextIO], None]) -> bool:
    """Render to stdout; a closed stdout or a reader gone (``| head``) is not our failure.
    Whether the whole report was written."""
    stream = sys.stdout
    try:
        if stream is None:
            raise OSError("no standard output")
        render(stream)
        stream.flush()
    except (OSError, ValueError):
        _detach_stdout()
        return False
    return True


def _detach_stdout() -> None:
    """Point descriptor 1 at /dev/null, so that the exit's flush cannot fail and change the
    exit code."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass
    try:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    except OSError:
        return
