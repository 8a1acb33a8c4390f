"""HMT204: an args value that is a literal mapping but looks like a misspelled matcher.

`{regexp: "^2009$"}` has no matcher key, so the contract makes it a literal
mapping that no actual argument will ever equal.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import layout
from holodeck_mt.model import Fault, Rename
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule
from holodeck_mt.wording import hints

_MATCHERS = ("fuzzy", "regex")
_ALIASES = {"regexp": "regex", "re": "regex", "pattern": "regex", "match": "regex"}
#: Longer keys are neither an alias nor close to a matcher key (difflib's ratio: 2 * common
#: characters / both lengths, at least 0.7).
_LONGEST = 16


def check(context: Context) -> Iterator[Fault]:
    for parts, value in context.walk(layout.arg_values):
        if not isinstance(value, dict) or len(value) != 1:
            continue
        (key,) = value
        if key in _MATCHERS or len(key) > _LONGEST:  # a megabyte key costs no comparison
            continue
        meant = _ALIASES.get(key.lower()) or hints.close_match(key.lower(), _MATCHERS, 0.7)
        if meant is not None:
            yield Fault(
                "HMT204",
                f"'{hints.key(key, own=True)}' is not a matcher key, so this is a literal mapping "
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
