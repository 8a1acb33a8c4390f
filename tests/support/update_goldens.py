#!/usr/bin/env python3
"""Regenerate the golden outputs of every format: tests/golden/expected/<case>.<format>.

Every output format is rendered from the same fixtures (tests/golden/inputs/), by
the CLI run in-process from the repository's root with relative paths, so the
outputs do not depend on the machine. Review the diff by hand before committing:
a changed golden is a changed user-visible output.

    python -m tests.support.update_goldens          # rewrite the goldens
    python -m tests.support.update_goldens --check  # exit 1 when one is stale

tests/render/test_golden.py compares with the same functions.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from holodeck_mt import render
from scripts.repo import ROOT, run_cli, write_atomically

GOLDEN = Path("tests/golden")
INPUTS = GOLDEN / "inputs"
EXPECTED = GOLDEN / "expected"
FORMATS = render.FORMATS
#: Stands for the package's version in the SARIF golden, so a release changes no golden.
VERSION_PLACEHOLDER = "<version>"


@dataclass(frozen=True)
class Case:
    name: str
    #: The path given on the command line, relative to the repository's root.
    path: str
    exit_code: int
    #: Options given before the path (``--strict``).
    options: tuple[str, ...] = ()


CASES = (
    Case("valid", str(INPUTS / "valid.yaml"), 0),
    Case("yaml-syntax-error", str(INPUTS / "yaml-syntax-error.yaml"), 1),
    Case("several-faults", str(INPUTS / "several-faults.yaml"), 1),
    Case("with-test-cases-file", str(INPUTS / "with-test-cases-file" / "agent.yaml"), 1),
    Case("warnings-only", str(INPUTS / "warnings-only.yaml"), 0),
    Case("warnings-only-strict", str(INPUTS / "warnings-only.yaml"), 1, ("--strict",)),
)


def normalise(fmt: str, output: str) -> str:
    """Replace what changes with the package's version (SARIF's driver version)."""
    if fmt != "sarif":
        return output
    log = json.loads(output)
    for run in log["runs"]:
        run["tool"]["driver"]["version"] = VERSION_PLACEHOLDER
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def run(case: Case, fmt: str) -> tuple[int, str]:
    """The CLI's exit code and normalised stdout for one case in one format."""
    code, output = run_cli(["validate", "-j", "1", "--format", fmt, *case.options, case.path], ROOT)
    return code, normalise(fmt, output)


def expected_path(case: Case, fmt: str) -> Path:
    return ROOT / EXPECTED / f"{case.name}.{fmt}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="report stale goldens, write none")
    args = parser.parse_args(argv)
    stale = wrong_exit = 0
    for case in CASES:
        for fmt in FORMATS:
            code, output = run(case, fmt)
            if code != case.exit_code:
                print(f"{case.name}: exit {code}, expected {case.exit_code}", file=sys.stderr)
                wrong_exit += 1
            target = expected_path(case, fmt)
            current = target.read_text(encoding="utf-8") if target.is_file() else None
            if current == output:
                continue
            stale += 1
            if args.check:
                print(f"stale: {target.relative_to(ROOT)}", file=sys.stderr)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomically(target, output)
                print(f"wrote {target.relative_to(ROOT)}")
    if args.check:
        return 1 if stale or wrong_exit else 0
    print(f"{stale} golden file(s) updated" if stale else "every golden is up to date")
    return 1 if wrong_exit else 0


if __name__ == "__main__":
    sys.exit(main())
