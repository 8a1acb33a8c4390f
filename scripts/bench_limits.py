"""Time each hostile case as a whole validator process, against a 2-second budget.

    python scripts/bench_limits.py [--budget 2.0] [--repeat 3]

Each case is a file the validator must reject (or accept) quickly without
expanding, walking or compiling more than its limits allow. The time is the
best of ``--repeat`` runs of ``python -m holodeck_mt validate FILE`` (the
interpreter's start included), so it is what CI sees. Exit 1 if any case is
over budget. Not a test: timings belong here, not in the suite.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from holodeck_mt.limits import MAX_FILE_BYTES  # noqa: E402
from tests.hostile.cases import alias_bomb, deep_flow, long_regex  # noqa: E402


def _over_size(path: Path) -> None:
    """One byte over the default limit: rejected from its size, before it is read."""
    with path.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)


def _write(data: Callable[[], bytes]) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        path.write_bytes(data())

    return write


def _bad_tags(path: Path) -> None:
    """10,000 list items with an unknown tag each: one diagnostic per item, linear."""
    path.write_text("".join("- !foo x\n" for _ in range(10_000)))


def _long_keys(path: Path) -> None:
    path.write_text(
        "test_cases:\n  - input: hi\n"
        + "".join(f"    ? {chr(97 + i) * 100_000}\n    : 1\n" for i in range(10))
    )


#: (name, writer, expected exit code, required): a required case fails the run when
#: over budget; the others show how the cost of many diagnostics scales (linearly).
CASES: list[tuple[str, Callable[[Path], None], int, bool]] = [
    (f"alias bomb ({len(alias_bomb())} bytes, 10**9 nodes expanded)", _write(alias_bomb), 1, True),
    ("nesting 10,000 deep", _write(deep_flow), 1, True),
    (f"file over the size limit ({MAX_FILE_BYTES + 1:,} bytes)", _over_size, 1, True),
    ("regex of 100,000 characters", _write(long_regex), 0, True),
    ("10 unknown keys of 100,000 characters", _long_keys, 1, True),
    ("10,000 unknown tags (one diagnostic each)", _bad_tags, 1, False),
]


def _time(path: Path, expected: int, repeat: int) -> tuple[float, int]:
    best, code = float("inf"), -1
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "holodeck_mt", "validate", str(path), "--jobs", "1"],
            capture_output=True,
            cwd=ROOT,
        )
        best = min(best, time.perf_counter() - start)
        code = done.returncode
        if b"Traceback" in done.stderr:
            code = -2
    return best, code if code != expected else expected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per case")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is kept)")
    args = parser.parse_args(argv)
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        for i, (name, make, expected, required) in enumerate(CASES):
            path = Path(folder) / f"case-{i}.yaml"
            make(path)
            seconds, code = _time(path, expected, args.repeat)
            ok = seconds < args.budget and code == expected
            failed += not ok and required
            verdict = "PASS" if ok else "FAIL" if required else "SLOW"
            exit_note = "" if code == expected else f" (exit {code}, expected {expected})"
            print(f"{verdict}  {seconds:6.2f} s  {name}{exit_note}")
            path.unlink()
    total = sum(case[3] for case in CASES)
    print(f"{total - failed} of {total} required cases under {args.budget:g} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
