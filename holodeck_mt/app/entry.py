"""``holodeck-mt`` and ``python -m holodeck_mt``: the command line (:mod:`holodeck_mt.app.cli`)."""

from __future__ import annotations

import sys


def main() -> int:
    from holodeck_mt.app import cli

    return cli.main()


def run() -> None:
    """:func:`main`, its output flushed, then an exit skipping the interpreter's teardown
    (a tenth of a small file's run) unless that could lose output or a child process."""
    code = main()
    streams = (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)
    try:
        for stream in {id(stream): stream for stream in streams if stream is not None}.values():
            stream.flush()
    except (OSError, ValueError):
        raise SystemExit(code) from None
    processes = sys.modules.get("multiprocessing")
    if processes is not None and processes.active_children():
        raise SystemExit(code)
    import os

    os._exit(code)
