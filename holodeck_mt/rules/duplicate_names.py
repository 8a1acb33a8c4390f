"""HMT201: two test cases with the same name (reports and reruns can't tell them apart)."""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import layout
from holodeck_mt.model import OWN, Fault, clip, marked
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule


def check(context: Context) -> Iterator[Fault]:
    first: dict[str, int] = {}
    for index, parts, case in layout.test_cases(context.data):
        if not isinstance(case, dict) or not isinstance(case.get("name"), str):
            continue
        name = case["name"]
        if first.setdefault(name, index) != index:
            yield Fault(
                "HMT201",
                f"test case name '{marked(clip(name), OWN)}' is already used by "
                f"test case #{first[name]}",
                (*parts, "name"),
                hint="give every test case a distinct name",
            )


RULE = Rule(
    code="HMT201",
    name="duplicate-name",
    description=("Two test cases have the same name."),
    check=check,
)
