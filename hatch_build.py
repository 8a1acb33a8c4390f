"""Build the compiled builder, ``holodeck_mt.read._fastbuild``, into the wheel when possible.

The extension is optional: the pure-Python builder is the reference and the fallback. When
the C source is missing, or there is no compiler, no ``yaml.h`` or no libyaml to link, the
wheel is built without it, stays pure Python (``py3-none-any``) and a warning says why. When
the module is built, the wheel carries it and the interpreter's platform tag.

Compiling goes through setuptools' ``build_ext``, which knows every platform's compiler
(MSVC included) and the interpreter's flags; hatchling stays the build backend, so the
version, the schema copy and the sdist's contents keep their one definition in
pyproject.toml. An editable install (``pip install -e .``) builds the module in place, next
to its source, where the checkout imports it.

Environment:

- ``HOLODECK_MT_REQUIRE_COMPILED=1``: a module that cannot be built fails the build (wheels
  for an index, and CI, where a silent fallback would hide a broken toolchain).
- ``HOLODECK_MT_LIBYAML_DIR``: a libyaml installed outside the compiler's default paths,
  with ``include/yaml.h`` and ``lib/`` (Homebrew's prefix, vcpkg's triplet folder).
- ``HATCH_BUILD_NO_HOOKS=true`` (hatchling's own switch): a pure-Python wheel on purpose.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The module's dotted name and its C source, relative to the project's root.
MODULE = "holodeck_mt.read._fastbuild"
SOURCE = Path("holodeck_mt", "read", "_fastbuild.c")
REQUIRE = "HOLODECK_MT_REQUIRE_COMPILED"
LIBYAML_DIR = "HOLODECK_MT_LIBYAML_DIR"


class CompiledBuilderHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile the extension for a wheel (into it) or an editable install (in place)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        in_place = root / SOURCE.parent
        if version == "editable":
            # A module left from an earlier build must not shadow a failed or skipped one.
            for stale in in_place.glob(f"{MODULE.rsplit('.', 1)[1]}.*"):
                if stale.suffix in {".so", ".pyd"}:
                    stale.unlink()
        self._scratch = Path(tempfile.mkdtemp(prefix="holodeck-mt-build-"))
        built = compile_module(root, self._scratch, required=_required())
        if built is None:
            return
        if version == "editable":
            shutil.copy2(built, in_place / built.name)
        else:
            build_data["force_include"][str(built)] = f"{SOURCE.parent.as_posix()}/{built.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _required() -> bool:
    return os.environ.get(REQUIRE, "") not in ("", "0")


def compile_module(root: Path, scratch: Path, *, required: bool) -> Path | None:
    """The compiled module built under ``scratch``, or None (with a warning) when it
    cannot be; with ``required``, an error instead."""
    source = root / SOURCE
    if not source.is_file():
        _skipped(f"{SOURCE.as_posix()} is not there", required=required)
        return None
    # Imported here: a pure build (HATCH_BUILD_NO_HOOKS) needs no setuptools.
    from setuptools import Distribution, Extension

    extension = Extension(
        MODULE,
        sources=[str(source)],
        libraries=["yaml"],
        optional=not required,
        **_platform_options(root),
    )
    distribution = Distribution({"name": "holodeck-mt", "ext_modules": [extension]})
    command: Any = distribution.get_command_obj("build_ext")
    command.build_lib = str(scratch / "lib")
    command.build_temp = str(scratch / "temp")
    command.ensure_finalized()
    command.run()  # an optional extension that fails is a warning, not an exception
    built = Path(command.get_ext_fullpath(MODULE))
    if not built.is_file():
        _skipped("it did not compile or link (see the messages above)", required=required)
        return None
    return built


def _platform_options(root: Path) -> dict[str, list[Any]]:
    options: dict[str, list[Any]] = {"include_dirs": [], "library_dirs": []}
    prefix = os.environ.get(LIBYAML_DIR)
    if prefix:
        options["include_dirs"].append(str(Path(prefix, "include")))
        options["library_dirs"].append(str(Path(prefix, "lib")))
    if os.name == "nt":
        # Windows links the static libyaml (the wheel then carries no DLL): its header
        # declares the functions for a DLL unless told otherwise.
        options["define_macros"] = [("YAML_DECLARE_STATIC", None)]
    else:
        # The same module, byte for byte, from the checkout and from the unpacked sdist:
        # the debug information names the source relative to the root.
        options["extra_compile_args"] = [f"-ffile-prefix-map={root}=."]
    return options


def _skipped(reason: str, *, required: bool) -> None:
    message = f"holodeck-mt: the compiled builder ({MODULE}) is not built: {reason}"
    if required:
        raise RuntimeError(f"{message}; {REQUIRE} is set")
    print(f"{message}; the pure-Python builder is used.", file=sys.stderr)
