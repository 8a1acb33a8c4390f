"""HMT116: a `${NAME}`-shaped text left in an LLM model's number once variables are substituted.

The schema lets an LLM model's `temperature`, `max_tokens` and `top_p` hold a
`${NAME}` reference: an editor sees the file as written, before the platform
substitutes it. The validator judges the file as the platform does, after
substitution; a `${NAME}` still there is then a literal text, which the platform
never substitutes and refuses where it wants a number: written with an escape
(`"\\x24{T}"`), or the value of a variable that itself holds `${...}`. An unset
variable is not one of them (that is HMT213's, and its value could be anything).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from holodeck_mt import layout
from holodeck_mt.contract import registry
from holodeck_mt.model import OWN, Fault, JsonPath, clip, marked, under
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule
from holodeck_mt.wording import hints


@functools.cache
def _fields() -> tuple[re.Pattern[str], dict[str, str]]:
    """The reference's pattern, and the LLM model's fields that take it beside a number,
    with that number's type (as the schema says both)."""
    pattern = registry.definition(registry.LLM_MODEL, "EnvReference")["pattern"]
    properties = registry.definition(registry.LLM_MODEL, "LLMModel")["properties"]
    names = {
        name: str(next(t for t in spec["type"] if t != "string"))
        for name, spec in properties.items()
        if spec.get("pattern") == pattern and set(spec.get("type", ())) - {"string"}
    }
    return re.compile(pattern), names


def _models(data: Any) -> Iterator[tuple[JsonPath, Any]]:
    evaluations = data.get("evaluations") if isinstance(data, dict) else None
    if isinstance(evaluations, dict) and "model" in evaluations:
        yield ("evaluations", "model"), evaluations["model"]
    for path, metric in layout.metrics(data):
        if "model" in metric:
            yield (*path, "model"), metric["model"]


def check(context: Context) -> Iterator[Fault]:
    reference, names = _fields()
    for path, model in _models(context.data):
        if not isinstance(model, dict):
            continue
        for name, wanted in names.items():
            value = model.get(name)
            where = (*path, name)
            if not isinstance(value, str) or not reference.fullmatch(value):
                continue
            if under(where, context.reported):
                continue
            kind = hints.type_name(wanted)
            yield Fault(
                "HMT116",
                f"`{name}` is the text '{marked(clip(value), OWN)}' once variables are "
                "substituted: the "
                f"platform substitutes only a reference written in the file, and refuses "
                f"text where it wants {kind}",
                where,
                hint=f"write {kind}, or a plain ${{NAME}} of a variable that holds one",
            )


RULE = Rule(
    code="HMT116",
    name="literal-reference",
    description=(
        "An LLM model's `temperature`, `max_tokens` or `top_p` is `${NAME}`-shaped text once "
        'variables are substituted (an escaped `"\\x24{T}"`, or a variable holding `${...}`): '
        "the platform substitutes nothing there and refuses the text."
    ),
    check=check,
)
