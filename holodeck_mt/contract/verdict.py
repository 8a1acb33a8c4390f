"""The contract's verdict on a loaded document: the schema's faults, read as the platform reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from holodeck_mt.contract import compiled, registry
from holodeck_mt.contract import platform_reading as lax
from holodeck_mt.limits import Limits
from holodeck_mt.model import Diagnostic, Fault, Role, make, under
from holodeck_mt.read import loader
from holodeck_mt.wording import hints

#: The root schema of each way a document is read.
ROOTS: dict[Role, str] = {
    "document": registry.DOCUMENT,
    "test-cases-file": registry.TEST_CASES_FILE,
}


@dataclass(frozen=True)
class Verdict:
    """The contract's faults, and the document as the platform reads it (None: none)."""

    faults: list[Fault]
    as_read: Any


def judge(doc: loader.Document, role: Role, limits: Limits) -> Verdict:
    """The faults of ``doc`` read as ``role`` (not loaded: none, its reader's diagnostics
    in the role's wording)."""
    data = doc.data
    if not doc.loaded:
        doc.diagnostics = _reword_unloaded(doc.diagnostics, role)
        return Verdict([], None)
    doc.diagnostics = lax.reread(doc.diagnostics, data, role)
    if role == "test-cases-file" and not data:
        return Verdict([lax.NO_TEST_CASES], None)
    if not isinstance(data, (dict, list)):
        shown = "empty" if data is None else f"a single {hints.kind_of(data)}"
        message = (
            f"the document is {shown}; an agent.yaml is a mapping and a test-cases file "
            "a list of test cases"
        )
        return Verdict([Fault("HMT006", message, ())], None)

    def schema(document: Any) -> list[Fault]:
        """The schema's faults of ``document``, none below a loader's report."""
        found = compiled.schema_faults(
            ROOTS[role], document, compiled=not doc.has_non_json, max_cases=limits.max_examined
        )
        return [f for f in found if not under(f.parts, doc.reported)]

    faults, as_read = lax.relax(data, schema, role=role)
    return Verdict(faults, as_read)


def _reword_unloaded(diagnostics: list[Diagnostic], role: Role) -> list[Diagnostic]:
    """The diagnostics of a document that did not load, in the role's wording."""
    if role != "test-cases-file":
        return diagnostics
    none = lax.NO_TEST_CASES
    return [
        make(none.code, none.message, d.line, d.column, hint=none.hint) if d.code == "HMT006" else d
        for d in diagnostics
    ]
