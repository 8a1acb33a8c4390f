"""The compiled builder (``_fastbuild``, C over libyaml), where it was built.

Several times faster than the reference :class:`~holodeck_mt.read.builder.Builder` on
the common document; it leaves anything else to it. ``HOLODECK_MT_PURE_BUILDER=1``
turns it off; ``HOLODECK_MT_REQUIRE_COMPILED=1`` makes its absence an error.
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
AVAILABLE = _FAST is not None


def build(text: str, limits: Limits, index_depth: int | None) -> bd.Builder | None:
    """The text as :class:`~holodeck_mt.read.builder.Builder` reads it; None: left to it."""
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
