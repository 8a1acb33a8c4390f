"""An installed wheel, checked where it is installed: the compiled builder, then the validator.

    python scripts/wheel_smoke.py examples/convfinqa            # what cibuildwheel runs
    python scripts/wheel_smoke.py examples/convfinqa --bundled  # libyaml must be the wheel's

Run by cibuildwheel's test-command after each wheel is installed, and by
``make wheel-check`` (scripts/wheel_check.py) in a new virtual environment. It imports the
package as installed, never the checkout: scripts/ is on ``sys.path``, the repository's
root is not, and this script imports no sibling.

1. ``holodeck_mt.read._fastbuild`` imports, from the installed package. Without it, the
   check fails when ``HOLODECK_MT_REQUIRE_COMPILED=1`` (a release's wheels) and otherwise
   says that this wheel is pure Python.
2. With ``--bundled`` (Linux), the libyaml the module loaded is the copy auditwheel put into
   the wheel (``holodeck_mt.libs/``), not the system's (see :func:`check_bundled`).
3. ``holodeck-mt validate`` on the examples, in process: exit 0.

Exit code: 0, or 1 with the reason on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

MODULE = "holodeck_mt.read._fastbuild"
REQUIRE = "HOLODECK_MT_REQUIRE_COMPILED"
#: Where auditwheel puts the libraries it bundles, beside the package.
BUNDLED = "holodeck_mt.libs"


class Failed(Exception):
    """A check failed: its message says which, and why."""


def compiled_module(checkout: Path) -> Path | None:
    """The compiled builder's file, imported from the installed package; None when this
    wheel has none and none is required."""
    try:
        module = importlib.import_module(MODULE)
    except ImportError as error:
        if os.environ.get(REQUIRE, "") not in ("", "0"):
            raise Failed(f"{MODULE} does not import ({error}); {REQUIRE} is set") from error
        return None
    where = Path(module.__file__ or "").resolve()
    if where.parent == checkout / "holodeck_mt" / "read":
        raise Failed(f"{MODULE} was imported from the checkout ({where}), not the wheel")
    return where


def loaded_libyaml() -> list[Path]:
    """The libyaml files mapped into this process (Linux: ``/proc/self/maps``)."""
    maps = Path("/proc/self/maps")
    if not maps.is_file():
        raise Failed("--bundled needs /proc/self/maps (Linux)")
    found = set()
    for line in maps.read_text(encoding="utf-8").splitlines():
        fields = line.split(maxsplit=5)  # address, mode, offset, device, inode, path
        if len(fields) == 6 and Path(fields[5]).name.startswith("libyaml"):
            found.add(Path(fields[5]))
    return sorted(found)


def check_bundled(module: Path) -> list[Path]:
    """The libyaml files loaded, the copy the module's wheel carries among them.

    Only the repaired module names that copy (auditwheel gives it a name of its own), so
    it is loaded exactly when the module found it; had the module fallen back on the
    system's libyaml, the copy would not be. Another libyaml may be loaded beside it, by
    another package (PyYAML's binding)."""
    libraries = loaded_libyaml()
    ours = module.parent.parent.parent / BUNDLED
    if not any(lib.parent == ours for lib in libraries):
        raise Failed(f"no libyaml from {ours} is loaded (loaded: {libraries or 'none'})")
    return libraries


def validate(examples: Path) -> None:
    """The installed command line validates ``examples``: exit 0."""
    from holodeck_mt.app import cli

    code = cli.main(["validate", str(examples)])
    if code != 0:
        raise Failed(f"holodeck-mt validate {examples} exited {code}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check the installed wheel.")
    parser.add_argument("examples", type=Path, help="a folder of valid test-case files")
    parser.add_argument(
        "--bundled", action="store_true", help="libyaml must be the wheel's own copy (Linux)"
    )
    args = parser.parse_args(argv)
    checkout = Path(__file__).resolve().parent.parent
    try:
        import holodeck_mt

        package = Path(holodeck_mt.__file__ or "").resolve()
        if package.parent == checkout / "holodeck_mt":
            raise Failed(f"holodeck_mt was imported from the checkout ({package})")
        module = compiled_module(checkout)
        print(f"compiled builder: {module or 'not in this wheel (pure Python)'}")
        if args.bundled:
            if module is None:
                raise Failed("--bundled: this wheel has no compiled builder")
            print("libyaml loaded: " + ", ".join(map(str, check_bundled(module))))
        validate(args.examples)
    except Failed as failure:
        print(f"wheel_smoke: {failure}", file=sys.stderr)
        return 1
    print(f"wheel_smoke: {package.parent} passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
