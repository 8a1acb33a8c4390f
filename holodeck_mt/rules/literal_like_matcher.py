"""HMT204: an args value that is a literal mapping but looks like a misspelled matcher.

`{regexp: "^2009$"}` has no matcher key, so the contract makes it a literal
mapping that no actual argument will ever equal.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import walk
from holodeck_mt.model import Fault, Rename
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule

_MATCHERS = ("fuzzy", "regex")
_ALIASES = {"regexp": "regex", "re": "regex", "pattern": "regex", "match": "regex"}


def check(context: Context) -> Iterator[Fault]:
    for parts, value in context.walked(walk.arg_values):
        if not isinstance(value, dict) or len(value) != 1:
            continue
        (key,) = value
        if key in _MATCHERS:
            continue
        meant = _ALIASES.get(key.lower())
        if meant is None:
            import difflib  # rarely reached: start-up time counts

            close = difflib.get_close_matches(key.lower(), _MATCHERS, n=1, cutoff=0.7)
            meant = close[0] if close else None
        if meant is not None:
            yield Fault(
                "HMT204",
                f"'{key}' is not a matcher key, so this is a literal mapping "
                "that the actual argument must equal",
                (*parts, key),
                at="key",
                fix=Rename(meant),
            )


RULE = Rule(
    code="HMT204",
    name="literal-looks-like-matcher",
    description=(
        "An args value is a one-key literal mapping whose key looks like a misspelled "
        "matcher (`regexp`, `fuzy`)."
    ),
    check=check,
)
