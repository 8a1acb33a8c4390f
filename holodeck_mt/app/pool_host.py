"""The process the workers of a run are forked from, forked as soon as the files are found: it
imports what is slow to import on another core while the parent reads each file's settings,
then forks the workers, which share it. Each process forked ends with its parent."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

Job = TypeVar("Job")
Outcome = TypeVar("Outcome")

#: What the host sends once prepared; seconds between two looks at whether it still runs.
_READY, _LOOK = "ready", 0.1
#: Seconds a stopped process (the host, a worker) is given to end before it is left.
GRACE = 5.0


class PoolHost(Generic[Job, Outcome]):
    """A forked process that runs ``prepare()``, then ``run(jobs, workers)`` on each batch
    it is handed and sends back the outcomes, until it is closed."""

    def __init__(
        self,
        prepare: Callable[[], None],
        run: Callable[[list[Job], int], list[Outcome]],
    ) -> None:
        import multiprocessing

        for stream in (sys.stdout, sys.stderr):  # or the host would write their rest again
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream.flush()
        context = multiprocessing.get_context("fork")
        ready()  # before the fork: the host inherits it
        self._conn, theirs = context.Pipe()
        #: Prepared (the ready message is read once); handed a batch not yet answered.
        self._ready = self._busy = False
        self._process: BaseProcess | None = context.Process(
            target=_serve, args=(theirs, self._conn, os.getpid(), prepare, run), daemon=False
        )
        self._process.start()
        theirs.close()

    def ready(self) -> bool:
        """Whether the host is prepared: handed jobs, it forks the workers at once."""
        if not self._ready and self._process is not None and self._conn.poll():
            self._ready = self._answer() == _READY
        return self._ready

    def run(self, jobs: list[Job], workers: int) -> list[Outcome] | None:
        """The outcomes of ``jobs`` on ``workers`` processes forked from the host (None: gone)."""
        if self._process is None or not (self._ready or self._answer() == _READY):
            self.close()
            return None
        self._ready = self._busy = True
        try:
            self._conn.send((jobs, workers))
            outcomes: list[Outcome] | None = self._answer()
        except OSError:
            outcomes = None
        if outcomes is None:
            self.close()
        self._busy = False
        return outcomes

    def _answer(self) -> Any:
        """The host's next message; None when it ended without one. Ctrl-C while waiting
        stops the host, and its workers, at once."""
        process = self._process
        try:
            # Its workers may hold its end of the pipe open: the process itself is asked.
            while process is not None and not self._conn.poll(_LOOK):
                if not process.is_alive():
                    return None
            return self._conn.recv() if process is not None else None
        except (EOFError, OSError):
            return None
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """End the host: it exits when it waits for jobs, and is stopped otherwise."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if self._busy or not self._ready:
                raise OSError  # still preparing, or working: stop it
            self._conn.send(None)
        except OSError:
            process.terminate()
        self._conn.close()
        process.join(GRACE)
        if process.is_alive():  # deaf to SIGTERM: its workers end with it (as_child)
            process.kill()
            process.join()


def _serve(
    conn: Connection,
    parents: Connection,
    parent: int,
    prepare: Callable[[], None],
    run: Callable[[list[Any], int], list[Any]],
) -> None:
    """The host: prepared, then each batch's outcomes, until told to stop. Anything that goes
    wrong ends it quietly: the parent then runs the batch."""
    parents.close()  # the parent's end: once the parent is gone, no one holds it open
    # Where its workers cannot be told of its death, SIGTERM unwinds the host by an
    # exception instead, so that its pool stops them. Elsewhere it ends at once: a Python
    # handler could run inside a fork's callbacks, where its exception is printed and lost.
    if not as_child(parent):
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        prepare()
        conn.send(_READY)
        while (batch := conn.recv()) is not None:
            conn.send(run(*batch))
    except Exception:
        return


#: Linux's ``prctl`` option: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1
#: libc's ``prctl`` once looked up (None: not to be had); empty: not looked up yet.
_PRCTL: list[Callable[..., int] | None] = []


def ready() -> None:
    """Look up what :func:`as_child` needs, in a process about to fork: its children inherit it."""
    if not _PRCTL:
        prctl = None
        if sys.platform.startswith("linux"):
            with contextlib.suppress(ImportError, OSError, AttributeError):
                import ctypes

                prctl = ctypes.CDLL(None, use_errno=True).prctl
        _PRCTL.append(prctl)


def children_end_with_us() -> bool:
    """Whether every process this one forked (if :func:`ready` was called) ends when it dies."""
    return not _PRCTL or _PRCTL[0] is not None


def as_child(parent: int) -> bool:
    """In a process ``parent`` forked: Ctrl-C is the parent's to handle; ``terminate()`` ends
    it, and so does ``parent``'s death (at once if it is gone already). Whether the kernel
    will tell it of that death (Linux only)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    ready()
    prctl = _PRCTL[0]
    told = prctl is not None and prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)
    return told
