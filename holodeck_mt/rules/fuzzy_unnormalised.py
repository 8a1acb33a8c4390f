"""HMT306: a fuzzy pattern holding a currency sign or parentheses.

The fuzzy matcher lower-cases, trims, drops `,` `_` and U+202F and collapses
spaces; it leaves currency signs and the parentheses of accounting negatives as
they are, so `{fuzzy: "$181,001"}` never matches the number 181001.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from holodeck_mt.model import Fault
from holodeck_mt.rules import Context, matchers
from holodeck_mt.rules.rule import Rule
from holodeck_mt.semantics.matchers import fuzzy_normalize, fuzzy_number
from holodeck_mt.wording.hints import quote


def find_unnormalised(pattern: str) -> list[str]:
    """The currency signs and parentheses of ``pattern``, each once."""
    found = [ch for ch in pattern if ch in "()" or unicodedata.category(ch) == "Sc"]
    return list(dict.fromkeys(found))


def check(context: Context) -> Iterator[Fault]:
    for where, pattern, chars in matchers(context, "fuzzy", find_unnormalised):
        if not chars:
            continue
        shown = " ".join(quote(ch) for ch in chars)
        bare = "".join(ch for ch in pattern if ch not in chars).strip()
        if fuzzy_number(fuzzy_normalize(bare)) is None:
            effect = "it only matches an argument holding the same characters"
            hint = "drop them if the argument will not hold them"
        else:
            effect = "it never matches a number argument"
            negative = "(" in chars and not bare.startswith("-")
            suggestion = f"-{bare}" if negative else bare
            hint = "write the number alone (a minus sign for a negative): "
            hint += f"{{fuzzy: {quote(suggestion, 30)}}}"
        yield Fault(
            "HMT306",
            f"the fuzzy matcher does not normalise {shown}: {quote(pattern, 40)} keeps "
            f"{'it' if len(chars) == 1 else 'them'}, so {effect}",
            where,
            hint=hint,
        )


RULE = Rule(
    code="HMT306",
    name="fuzzy-unnormalised-character",
    description=(
        "A fuzzy pattern holds a currency sign or parentheses, which the fuzzy matcher "
        "does not normalise: it never matches the number it seems to say."
    ),
    check=check,
    runs="runtime",
)
