"""What the registry records of a code: a code some stage produces, or a rule with its check."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from holodeck_mt.model import Severity, severity

if TYPE_CHECKING:
    from holodeck_mt.model import Fault
    from holodeck_mt.rules import Context


@dataclass(frozen=True)
class Code:
    code: str
    #: The rule's name, a slug (``duplicate-expected-tool``): SARIF's rule name.
    name: str
    #: The one-line meaning: the docs' table, SARIF's short description.
    description: str
    #: Why a code is no longer produced (codes are never reused nor renumbered).
    retired: str = ""
    #: The command-line options its example (``docs/examples/<CODE>.yaml``) runs with.
    example_options: tuple[str, ...] = ()
    #: The YAML language server reports it too, in its own words (YAML itself, or a keyword
    #: of the same schema): the language server leaves it to that one by default.
    yaml_server: bool = False

    @property
    def severity(self) -> Severity:
        """Told by the code's number (:func:`holodeck_mt.model.severity`), written nowhere else."""
        return severity(self.code)


@dataclass(frozen=True, kw_only=True)
class Rule(Code):
    """A code produced by a module of :mod:`holodeck_mt.rules`: its docstring documents it."""

    check: Callable[[Context], Iterator[Fault]]
    #: When the check runs: on every file; on every file as a run-time lint (none reported in
    #: a test case showing an error: its plan is unknown); or when its option asks for it.
    runs: Literal["always", "runtime", "opt-in"] = "always"
    #: For an opt-in rule: the attribute of :class:`holodeck_mt.selection.Options` that turns it
    #: on, and the command-line option that sets it.
    option: str = ""
    flag: str = ""
    #: Codes of other entries the check may produce too (a path refused: ``HMT120``).
    also: tuple[str, ...] = ()

    @property
    def codes(self) -> tuple[str, ...]:
        return (self.code, *self.also)

    @property
    def documentation(self) -> str:
        """The rule's documentation: its module's docstring (what it finds, and why)."""
        return (sys.modules[self.check.__module__].__doc__ or "").strip()
