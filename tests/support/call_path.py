"""Follow one document through the validator: which modules it passes, in what order.

A fixture with one fault is validated and printed by the text renderer, once to
warm every cache and import, then again under ``sys.setprofile``. Each call into
a function of holodeck_mt names the module it lives in; consecutive calls in the
same module are one stop. Two paths are measured:

- the spine: what a reader of ``pipeline.py`` follows. A stop is a call made by
  the caller (this script: ``validate_text``, then the renderer) or by the
  pipeline into another module, or a call back into the pipeline from elsewhere
  (a stage that climbs back up). What a stage does inside is the stage's own;
- every call: each call of holodeck_mt from another of its modules, for scale.

For each: stops (how many times the path enters a module), modules (how many it
enters), returns (stops at a module the path had already left), and entries by
module, most first.

    python -m tests.support.call_path            # the figures
    python -m tests.support.call_path --path     # and the path, one stop a line
    python -m tests.support.call_path FILE.yaml  # another document
"""

from __future__ import annotations

import argparse
import io
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

import holodeck_mt
from holodeck_mt.pipeline import validate_text
from holodeck_mt.render import text as text_renderer

#: One fault: a misspelt key in a turn.
FIXTURE = """\
test_cases:
  - name: net cash
    turns:
      - input: what is the net cash from operating activities in 2009?
        ground_truth: "206588"
      - input: what about in 2008?
        ground_truth: "181001"
        expected_tool: [lookup]
"""

_PACKAGE = Path(holodeck_mt.__file__).resolve().parent


def _module(frame: FrameType) -> str | None:
    """The dotted name (below holodeck_mt) of the module running ``frame``, if ours."""
    file = Path(frame.f_code.co_filename)
    if not file.is_relative_to(_PACKAGE):
        return None
    parts = file.relative_to(_PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "holodeck_mt"


def _run(text: str) -> None:
    result = validate_text(text, path="fixture.yaml")
    text_renderer.render([result], io.StringIO())  # not a terminal: no colour


#: The module that says the path.
SPINE = "pipeline"


def _origin(frame: FrameType) -> str | None:
    """The module of holodeck_mt nearest up the stack (a library between them is not one)."""
    caller = frame.f_back
    while caller is not None:
        module = _module(caller)
        if module is not None:
            return module
        caller = caller.f_back
    return None


def _on_spine(frame: FrameType, module: str) -> bool:
    """A call the spine shows: from the caller or the pipeline, or back into the pipeline."""
    origin = _origin(frame)
    return origin in (None, SPINE) or (module == SPINE and origin != SPINE)


def path_of(text: str, *, spine: bool = True) -> list[str]:
    """The modules entered while ``text`` is validated and rendered, one per stop."""
    _run(text)  # imports and caches: the path is the document's, not start-up's
    stops: list[str] = []

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        module = _module(frame)
        if module is None or (spine and not _on_spine(frame, module)):
            return
        if not stops or stops[-1] != module:
            stops.append(module)

    sys.setprofile(profile)
    try:
        _run(text)
    finally:
        sys.setprofile(None)
    return stops


def returns(stops: list[str]) -> int:
    """Stops at a module already left earlier on the path."""
    seen: set[str] = set()
    back = 0
    for module in stops:
        back += module in seen
        seen.add(module)
    return back


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("file", nargs="?", type=Path, help="a YAML document (default: FIXTURE)")
    parser.add_argument("--path", action="store_true", help="print the path, one stop a line")
    args = parser.parse_args(argv)
    text = args.file.read_text(encoding="utf-8") if args.file else FIXTURE
    for name, spine in (("spine", True), ("every call", False)):
        stops = path_of(text, spine=spine)
        if args.path:
            print(f"{name}: " + " > ".join(stops))
        entries = Counter(stops)
        print(
            f"{name}: stops {len(stops)}, modules {len(entries)}, returns {returns(stops)}; "
            + ", ".join(f"{m} {n}" for m, n in entries.most_common())
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
