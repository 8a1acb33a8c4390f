"""A fault's final words, once its value is found in the text as its author wrote it."""

from __future__ import annotations

import collections
import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from holodeck_mt.model import OWN, Fault, Intent, Quote, Rewrite, clip, marked
from holodeck_mt.text.quoting import LONGEST, quoted
from holodeck_mt.wording import hints

if TYPE_CHECKING:
    from holodeck_mt.text.ranges import Lines


def _at_anchor(name: str, text: str, before: int) -> str:
    """The hint of an alias (``ground_truth: *gt``): quoting ``"*gt"`` would replace the
    value by the text ``*gt``; the value to quote is the anchor's, where it is defined."""
    from holodeck_mt.text.positions import line_column

    shown = marked(clip(name))
    defined = re.finditer(r"&" + re.escape(name) + r"(?=[\s,\[\]{}]|$)", text[:before])
    anchor = collections.deque(defined, maxlen=1)  # the last one before the alias
    if not anchor:
        return f"the value comes from the anchor &{shown}: quote it where the anchor is set"
    line, _ = line_column(text, anchor[0].start())
    return f"the value comes from the anchor &{shown} (line {line}): quote it there"


class Worded(NamedTuple):
    """A fault's final words: its message, its hint, and its fix."""

    message: str
    hint: str | None
    fix: Intent | None


def as_written(
    fault: Fault, text: str, line: int, column: int, within: Callable[[], Lines | None]
) -> Worded:
    """``fault``'s words, its value found at ``line``:``column`` of ``text`` (read from the
    lines ``within`` gives, asked only when a word depends on it): a quote fix and its hint,
    or a conversion warning, quoting the characters written there (``"0.5"``, not 0.5)."""
    fix = fault.fix
    quote = isinstance(fix, Quote) and fix.shown is not None and not fix.condition
    head = hints.platform_reads(fault.parts, "") if isinstance(fix, Rewrite) else ""
    converted = isinstance(fix, Rewrite) and fault.message.startswith(head)
    worded = Worded(fault.message, fault.hint, fix)
    if not quote and not converted:
        return worded
    from holodeck_mt.text.ranges import (
        source_text,
        span_at,  # on a fault only (start-up)
    )

    span = span_at(text, line, column, innermost=True, within=within())
    if span is None:
        return worded
    written = source_text(text, span)
    if converted:
        return _conversion(worded, head, written)
    assert isinstance(fix, Quote)
    if written.startswith("*"):
        return worded._replace(hint=_at_anchor(written[1:], text, span.start_offset))
    quote_of = quoted(written)
    if quote_of is None:
        return worded
    rebuilt = dataclasses.replace(fix, shown=quote_of)
    return Worded(fault.message, rebuilt.hint(), rebuilt)


def _conversion(worded: Worded, head: str, written: str) -> Worded:
    """A conversion warning naming the value as written (marked: a report shows it, or the
    reference it came from)."""
    if len(written) > LONGEST or not written.isprintable():
        return worded
    _, sep, tail = worded.message[len(head) :].rpartition(" as ")
    if not sep:
        return worded
    return worded._replace(message=f"{head}{marked(written, OWN)} as {tail}")
