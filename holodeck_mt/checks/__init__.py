"""The rules a schema cannot express, one module per rule.

Each module has ``check(context) -> Iterator[Fault]``. Opt-in rules (they import
user code or touch the file system) run only when their option asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_mt.diagnostics import Fault, JsonPath, under


@dataclass(frozen=True)
class Options:
    #: Import each code grader and report what is missing (runs user code).
    import_graders: bool = False
    #: Check that each `files[*].path` exists relative to the agent.yaml.
    check_files: bool = False


@dataclass
class Context:
    data: Any
    #: The folder `files[*].path` and graders are resolved against.
    base_dir: Path
    options: Options = field(default_factory=Options)
    #: Paths the schema or the loader already reported: a check skips them.
    reported: set[JsonPath] = field(default_factory=set)

    def already_reported(self, parts: JsonPath) -> bool:
        return under(parts, self.reported)


Check = Callable[[Context], Iterator[Fault]]


def all_checks(options: Options) -> list[Check]:
    from holodeck_mt.checks import (
        count_is_integer,
        duplicate_expected_tools,
        duplicate_names,
        files_exist,
        graders_import,
        ineffective_flags,
        literal_like_matcher,
        non_finite_numbers,
        regex_compiles,
    )

    checks: list[Check] = [
        regex_compiles.check,
        non_finite_numbers.check,
        count_is_integer.check,
        ineffective_flags.check,
        duplicate_names.check,
        duplicate_expected_tools.check,
        literal_like_matcher.check,
    ]
    if options.import_graders:
        checks.append(graders_import.check)
    if options.check_files:
        checks.append(files_exist.check)
    return checks
