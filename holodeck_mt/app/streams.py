"""The standard streams of a run: unencodable characters escaped, a reader gone no failure."""

from __future__ import annotations

import contextlib
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import TextIO


class _PipeGuard:
    """Standard output that a reader gone (``| head -1``) quietly ends: later writes go
    nowhere, and the command exits with its usual code, no traceback printed."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._gone = False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._lost()
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._lost()

    def _lost(self) -> None:
        self._gone = True
        _detach_stdout()

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def make_safe() -> None:
    """Whatever the locale or PYTHONIOENCODING says, an unencodable character is escaped; from
    now on, a closed pipe ends standard output quietly (:class:`_PipeGuard`)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    if sys.stdout is not None and not isinstance(sys.stdout, _PipeGuard):
        sys.stdout = _PipeGuard(sys.stdout)


def write_report(render: Callable[[TextIO], None]) -> None:
    """Render to stdout (a closed one or a reader gone is no failure)."""
    stream = sys.stdout
    try:
        if stream is None:
            raise OSError("no standard output")
        render(stream)
        stream.flush()
    except (OSError, ValueError):
        _detach_stdout()


def _detach_stdout() -> None:
    """Point descriptor 1 at /dev/null: the exit's flush cannot fail and change the code."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    with contextlib.suppress(OSError):
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
