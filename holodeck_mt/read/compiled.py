"""The compiled builder (``_fastbuild``, C over libyaml), where it was built.

It reads the common document (mappings, lists and plain data) straight from
libyaml's events, several times faster than :class:`~holodeck_mt.read.builder.Builder`,
which stays the reference: the compiled builder gives up on anything else (a tag, an
anchor, a duplicate key, a syntax error, ...) and the reference reads the text
instead. Both give the same data, positions and scalar spans (``tests/read/
test_compiled_builder.py`` compares them on every fixture, sample and corpus).

``HOLODECK_MT_PURE_BUILDER=1`` turns it off; without a C compiler or libyaml at install
time it is simply not there, and ``HOLODECK_MT_REQUIRE_COMPILED=1`` makes that an
error (a wheel's own test).
"""

from __future__ import annotations

import os
from types import ModuleType

from holodeck_mt.limits import Limits
from holodeck_mt.read import builder as bd
from holodeck_mt.read import scalars as sc
from holodeck_mt.text.positions import Positions


def _module() -> ModuleType | None:
    if os.environ.get("HOLODECK_MT_PURE_BUILDER", "") not in ("", "0"):
        return None
    try:
        from holodeck_mt.read import _fastbuild
    except ImportError:
        if os.environ.get("HOLODECK_MT_REQUIRE_COMPILED", "") not in ("", "0"):
            raise
        return None
    return _fastbuild


_FAST = _module()
#: Whether the compiled builder is in use (it was built, and not turned off).
AVAILABLE = _FAST is not None


def build(text: str, limits: Limits, index_depth: int | None) -> bd.Builder | None:
    """The text's reading as :class:`~holodeck_mt.read.builder.Builder` would give it,
    or None when the compiled builder is not there or leaves this text to the reference."""
    if _FAST is None:
        return None
    reference = bd.Builder(limits, index_depth, text)
    built = _FAST.build(
        text,
        bd.plain_value,
        bd.NOT_PLAIN,
        sc.TYPED_FIRST,
        reference.index_depth,
        reference.ends_depth,
        reference.ends_left,
        limits.max_depth,
        reference.quoted_spans,
        reference.watch_question,
        bd.CACHE_SIZE,
    )
    if built is None:
        return None
    data, root, keys, values, value_ends, spans = built
    if reference.positions is not None:
        reference.positions = Positions(root=root, keys=keys, values=values, value_ends=value_ends)
    reference.spans = spans
    reference.result = data
    return reference
