"""HMT202: an agent.yaml key the platform does not define.

The schema accepts them (the platform owns the top level), but a near-miss of a
key we validate (`test_case`, `evaluation`) silently disables its checks.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import hints
from holodeck_mt.checks import Context
from holodeck_mt.diagnostics import Fault
from holodeck_mt.safe_text import clip
from holodeck_mt.schemas import AGENT, schema_files


def check(context: Context) -> Iterator[Fault]:
    data = context.data
    if not isinstance(data, dict) or ("test_cases" in data and len(data) == 1):
        return
    known = list(schema_files()[AGENT]["$defs"]["Agent"]["properties"])
    for key in data:
        if key in known:
            continue
        guess = hints.did_you_mean(key, known)
        yield Fault(
            "HMT202",
            f"unknown top-level key '{clip(key)}' in agent.yaml",
            (key,),
            at="key",
            hint=f"did you mean '{guess}'?" if guess else None,
        )
