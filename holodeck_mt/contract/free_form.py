"""HMT216: a non-string key nested in a free-form value, which the platform loads.

A free-form value (``turn_config``, ``response_format``, a tool's ``parameters``, ...) is
``dict[str, Any]`` to the platform: below its checked levels of keys it takes any key, so
the reader's HMT003 there is a warning; `on`, `off`, `yes` and `no` are booleans (YAML 1.1)
that nothing looking the name up finds.
"""

from __future__ import annotations

from typing import Any

from holodeck_mt import walk
from holodeck_mt.contract.platform_reading import matches
from holodeck_mt.model import Diagnostic, JsonPath, Role, make
from holodeck_mt.read.builder import COLLECTION_KEYS, NON_STRING_KEY

#: Each free-form value: its path (``int`` for any index) from the agent.yaml's top
#: level, and how many levels of its keys the platform's model wants as strings.
_AGENT: tuple[tuple[tuple[Any, ...], int], ...] = (
    (("response_format",), 1),
    (("tools", int, "parameters"), 2),
    (("tools", int, "config"), 1),
    (("tools", int, "model"), 1),
    (("tools", int, "database"), 1),
)
#: A key that is a list or a mapping cannot be hashed: PyYAML refuses the file wherever.
_UNHASHABLE = tuple(f"{NON_STRING_KEY}, got {what}" for what in COLLECTION_KEYS)
#: The same, from a test case.
_TEST_CASE: tuple[tuple[tuple[Any, ...], int], ...] = ((("turns", int, "turn_config"), 1),)


def _below(parts: JsonPath, root: tuple[Any, ...], levels: int) -> bool:
    """Whether the mapping at ``parts`` lies in the value at ``root`` deeper than the
    levels of keys its model checks."""
    return len(parts) >= len(root) + levels and matches(root, parts)


def loaded_by_platform(data: Any, parts: JsonPath, role: Role) -> bool:
    """Whether a non-string key of the mapping at ``parts`` is one the platform loads."""
    if role == "document" and any(_below(parts, root, n) for root, n in _AGENT):
        return True
    index, relative = walk.test_case_of(data, parts)
    return index is not None and any(_below(relative, root, n) for root, n in _TEST_CASE)


def reread(diagnostics: list[Diagnostic], data: Any, role: Role) -> list[Diagnostic]:
    """The reader's ``diagnostics``, each non-string key the platform loads a warning."""
    if not any(d.message.startswith(NON_STRING_KEY) for d in diagnostics):
        return diagnostics
    return [
        _warning(d)
        if d.code == "HMT003"
        and d.message.startswith(NON_STRING_KEY)
        and d.message not in _UNHASHABLE
        and loaded_by_platform(data, d.pointer_parts, role)
        else d
        for d in diagnostics
    ]


def _warning(d: Diagnostic) -> Diagnostic:
    got = d.message.removeprefix(NON_STRING_KEY).removeprefix(", got ")
    return make(
        "HMT216",
        f"this key is read as {got}, not as text: the platform loads it, but nothing "
        "that looks a key up by its name finds it",
        d.line,
        d.column,
        pointer_parts=d.pointer_parts,
        hint=d.hint,
        end_column=d.end_column,
        fix=d.fix,
    )
