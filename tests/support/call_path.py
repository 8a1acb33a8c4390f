"""Follow one document through the validator: which modules it passes, in what order.

A fixture with one fault (so that locate runs) is validated and printed by the text
renderer, once to warm every cache and import, then again under ``sys.setprofile``.
Each call into a function of holodeck_mt names the module it lives in; consecutive
calls in the same module are one stop. Three paths are measured:

- the spine: what a reader of ``pipeline.py`` follows. A stop is a call made by
  the caller (this script: ``validate_text``, then the renderer) or by the
  pipeline into another module, or a call back into the pipeline from elsewhere
  (a stage that climbs back up). What a stage does inside is the stage's own, and
  so is what the pipeline does inside (its helpers);
- every call: each call of holodeck_mt from another of its modules, for scale;
- the stages: every call made while ``validate_text`` runs (not the renderer's),
  read by stage. Each module of a stage belongs to one (:data:`STAGES`, in their
  order: read, contract, rules, locate); the records and the primitives every stage
  calls down into (:data:`BELOW`: ``model``, ``limits``, ``layout``, the text
  primitives, the YAML reader that the reading and the lazy index of locate both
  read with) belong to none, nor does the rest (the pipeline, the selection of
  codes, the suppressions). Calls into a module of no stage are not stops here.
  The stages entered are the stage of each stop, consecutive ones merged: one
  document's path enters each stage once, in order. A *stage return* is a stop at
  a stage's module that was entered before, made while the path is coming back
  from another stage (the stop before it belongs to another stage): a later stage
  calling into an earlier one, or an earlier one calling into a later one before
  its turn. A stage's own modules calling one another (a rule module and the rules'
  helpers) are the stage's own, not returns.

For the spine and every call: stops (how many times the path enters a module),
modules (how many it enters), returns (stops at a module the path had already
left), and entries by module, most first. For the stages: the stages entered, in
order, and the stage returns.

    python -m tests.support.call_path            # the figures
    python -m tests.support.call_path --path     # and the paths, one stop a line
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
    """A call the spine shows: from the caller, from the pipeline into another module, or
    back into the pipeline from another (the pipeline calling its own helpers is its own)."""
    origin = _origin(frame)
    return origin is None or (origin == SPINE) != (module == SPINE)


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


#: The stages, in the order a document passes them, and the modules (by dotted name
#: below holodeck_mt, a package naming all it holds) of each.
STAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "read",
        (
            "read.document",
            "read.substitution",
            "read.files",
            "read.confine",
        ),
    ),
    ("contract", ("contract",)),
    ("rules", ("rules",)),
    (
        "locate",
        (
            "locate.report",
            "locate.locate",
            "locate.worded",
            "text.quoting",
        ),
    ),
)

#: What every stage calls down into, part of none: the records, the text primitives,
#: and the YAML reader (the reading's, and the lazy index's when something is placed).
BELOW: tuple[str, ...] = (
    "model",
    "limits",
    "selection",
    "layout",
    "text.safe_text",
    "text.lines",
    "text.positions",
    "text.ranges",
    "wording",
    "primitives",
    "read.loader",
    "read.builder",
    "read.scalars",
    "read.decoding",
    "read.yaml_errors",
)


def _within(module: str, names: tuple[str, ...]) -> bool:
    return any(module == name or module.startswith(name + ".") for name in names)


def stage_of(module: str) -> str | None:
    """The stage ``module`` belongs to; None for a module of none (:data:`BELOW`, the rest)."""
    if _within(module, BELOW):
        return None
    return next((stage for stage, names in STAGES if _within(module, names)), None)


def stage_path(every: list[str]) -> list[str]:
    """The stage modules of the path ``every`` up to the renderer, one per stop."""
    stops: list[str] = []
    for module in every:
        if module.startswith("render"):
            break
        if stage_of(module) is not None and (not stops or stops[-1] != module):
            stops.append(module)
    return stops


def stages_entered(stops: list[str]) -> list[str]:
    """The stages of ``stops`` in order, consecutive ones merged."""
    entered: list[str] = []
    for stage in map(stage_of, stops):
        if stage is not None and (not entered or entered[-1] != stage):
            entered.append(stage)
    return entered


def stage_returns(stops: list[str]) -> list[str]:
    """The stops at a stage's module entered before, reached from another stage."""
    seen: set[str] = set()
    back: list[str] = []
    for before, module in zip([None, *stops], stops, strict=False):
        if module in seen and before is not None and stage_of(before) != stage_of(module):
            back.append(module)
        seen.add(module)
    return back


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
    every: list[str] = []
    for name, spine in (("spine", True), ("every call", False)):
        stops = path_of(text, spine=spine)
        every = stops
        if args.path:
            print(f"{name}: " + " > ".join(stops))
        entries = Counter(stops)
        print(
            f"{name}: stops {len(stops)}, modules {len(entries)}, returns {returns(stops)}; "
            + ", ".join(f"{m} {n}" for m, n in entries.most_common())
        )
    staged = stage_path(every)
    if args.path:
        print("stages: " + " > ".join(staged))
    back = stage_returns(staged)
    print(
        f"stages: entered {' > '.join(stages_entered(staged))}; stops {len(staged)}, "
        f"stage returns {len(back)}" + (f" ({', '.join(back)})" if back else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
