"""HMT213: a ``${NAME}`` reference to an environment variable that is not set.

The platform refuses a file naming an unset variable; it may be set where the tests run
(CI secrets), so this is a warning.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Mapping

from holodeck_mt.model import Diagnostic, clip, make
from holodeck_mt.text.lines import CR_LF_BREAKS as _LINE_BREAK

#: Said of a variable the path of `test_cases_file` needs: the file is not followed.
_UNFOLLOWED = "; the test-cases file `test_cases_file` names was not validated: its path needs {}"
#: Said of a variable only the ``.env`` of the file's folder sets (not the working folder's).
_BESIDE = (
    "`holodeck test` reads ./.env where it runs (the working folder), not the .env in this "
    "file's folder, which sets {}: set it in ./.env, or run from this file's folder"
)
#: The platform's reference syntax: ``${`` a name ``}``, nothing else (no defaults).
REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def unset(
    text: str,
    environ: Mapping[str, str],
    unfollowed: Collection[str] = (),
    beside: Collection[str] = (),
) -> list[Diagnostic]:
    """One warning per unset variable, at its first reference, with the reference's range.
    ``environ``: the variables a ``holodeck`` command sees
    (:func:`holodeck_mt.read.substitution.environment`), never the environment alone;
    ``unfollowed``: those in a `test_cases_file` that was therefore not validated;
    ``beside``: those the ``.env`` of the file's own folder sets, which the command ignores."""
    if "${" not in text:
        return []
    first: dict[str, int] = {}
    count: dict[str, int] = {}
    for match in REFERENCE.finditer(text):
        name = match.group(1)
        if name in environ:
            continue
        first.setdefault(name, match.start())
        count[name] = count.get(name, 0) + 1
    if not first:
        return []
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    out = []
    for name, offset in first.items():
        line = bisect.bisect_right(starts, offset)
        column = offset - starts[line - 1] + 1
        more = count[name] - 1
        also = f" ({more} more reference{'s' if more != 1 else ''})" if more else ""
        shown = clip(name)
        out.append(
            make(
                "HMT213",
                f"environment variable {shown} is not set: the platform refuses to load this "
                f"file unless it is set when it runs{also}"
                + (_UNFOLLOWED.format(shown) if name in unfollowed else ""),
                line,
                column,
                hint=(_BESIDE if name in beside else "set {} where `holodeck test` runs").format(
                    shown
                )
                + (", and here to validate the test-cases file too" if name in unfollowed else "")
                + f", or remove ${{{shown}}}",
            )
        )
    from holodeck_mt.text import ranges

    return ranges.with_ranges(text, out)
