"""``holodeck-mt`` and ``python -m holodeck_mt``: a repeated run replayed, any other run.

A ``validate`` run the run cache holds (:mod:`holodeck_mt.app.replay`) is answered
before the command line, the validator or anything else is imported: its report is
written again and its exit code returned. Every other run is the command line's
(:mod:`holodeck_mt.app.cli`), which keeps the run in that cache when it may.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    from holodeck_mt.app import replay, streams

    streams.make_safe()  # before the run's key is made: it holds the output's encoding
    try:
        run = replay.candidate(arguments)
        code = run.replayed() if run is not None else None
    except KeyboardInterrupt:  # Ctrl-C: end quietly, as the command line does
        from holodeck_mt.app.cli import EXIT_INTERRUPTED

        return EXIT_INTERRUPTED
    if code is not None:
        return code
    from holodeck_mt.app import cli

    return cli.main(arguments, run=run)
