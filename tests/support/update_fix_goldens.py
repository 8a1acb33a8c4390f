#!/usr/bin/env python3
"""Regenerate the golden outputs of ``holodeck-mt fix``: tests/fix/expected/<case>.<mode>.yaml.

Each input of tests/fix/inputs/ is copied, fixed by the CLI (``safe``: the default;
``unsafe``: ``--unsafe-fixes``) and the fixed bytes are written beside the others.
Review the diff by hand before committing: a changed golden is a changed fix.

    python -m tests.support.update_fix_goldens          # rewrite the goldens
    python -m tests.support.update_fix_goldens --check  # exit 1 when one is stale

tests/fix/test_fix.py compares with the same function.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import sys
import tempfile
from pathlib import Path

from scripts.repo import ROOT, run_cli

INPUTS = ROOT / "tests" / "fix" / "inputs"
EXPECTED = ROOT / "tests" / "fix" / "expected"
MODES = {"safe": [], "unsafe": ["--unsafe-fixes"]}


def fixed(source: Path, mode: str) -> bytes:
    """The bytes of ``source`` after ``holodeck-mt fix`` in ``mode``."""
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / source.name
        shutil.copyfile(source, target)
        with contextlib.redirect_stderr(io.StringIO()):
            run_cli(["fix", str(target), *MODES[mode]])
        return target.read_bytes()


def cases() -> list[tuple[Path, str, Path]]:
    """(input, mode, expected output) for every input and mode."""
    return [
        (source, mode, EXPECTED / f"{source.stem}.{mode}.yaml")
        for source in sorted(INPUTS.glob("*.yaml"))
        for mode in MODES
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a golden is stale")
    args = parser.parse_args(argv)
    stale = 0
    for source, mode, expected in cases():
        output = fixed(source, mode)
        if expected.exists() and expected.read_bytes() == output:
            continue
        stale += 1
        if args.check:
            print(f"stale: {expected.relative_to(ROOT)}")
        else:
            expected.parent.mkdir(parents=True, exist_ok=True)
            expected.write_bytes(output)
            print(f"wrote {expected.relative_to(ROOT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
