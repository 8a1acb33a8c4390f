"""A metric's `type` decides its branch (``if``/``then`` in the schema), as an editor shows it.

The pinned yaml-language-server applies the ``then`` of each ``if`` that holds on the metric
being edited: once `type` is written only that kind's keys are offered and checked, and a
fault is flagged on its own line in the server's plain words ("Property criteria is not
allowed"), not as a failed choice between four kinds. Before any key is written every
``if`` holds (their ``required`` judges only mappings), so a new metric offers the keys
of every kind; once keys are written that tell no kind, `type` is what is offered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from .test_language_server import (
    BINDINGS,
    SCHEMAS,
    Editor,
    _assert_problems,
    _plain,
    _schema_words,
    running_editor,
)

TURN = (
    "test_cases:\n  - turns:\n      - input: hi\n        ground_truth: '1'\n        evaluations:\n"
)
ITEM = "          - "
MORE = "            "

#: Keys only one kind takes.
OWN_KEYS = {
    "standard": {"metric", "absolute_tolerance", "case_insensitive", "custom_prompt"},
    "geval": {"criteria", "evaluation_steps", "evaluation_params", "strict_mode"},
    "rag": {"metric_type", "include_reason"},
    "code": {"grader"},
}

FAULTS = (
    TURN
    + f"{ITEM}type: rag\n{MORE}metric_type: faithfulness\n{MORE}criteria: x\n"
    + f"{ITEM}type: geval\n{MORE}name: judged\n"
    + f"{ITEM}type: stndard\n{MORE}metric: numeric\n"
    + f"{ITEM}threshold: 0.5\n"
    + f"{ITEM}metric: numeric\n{MORE}grader: pkg.mod:grade\n"
)


@pytest.fixture(scope="module", params=BINDINGS)
def editor(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Editor]:
    yield from running_editor(request, tmp_path_factory, "kinds")


def _labels(items: list[dict[str, Any]]) -> set[str]:
    return {item["label"] for item in items}


def _others(kind: str) -> set[str]:
    return set().union(*(keys for other, keys in OWN_KEYS.items() if other != kind))


@pytest.mark.parametrize("kind", sorted(OWN_KEYS))
def test_once_type_is_written_only_that_kinds_keys_are_offered(editor: Editor, kind: str) -> None:
    labels = _labels(editor.complete(f"{TURN}{ITEM}type: {kind}\n{MORE}<|>\n"))
    assert OWN_KEYS[kind] <= labels, sorted(labels)
    assert not labels & _others(kind), sorted(labels & _others(kind))


def test_a_key_written_above_type_is_completed_from_the_kind_below(editor: Editor) -> None:
    labels = _labels(editor.complete(f"{TURN}{ITEM}name: judged\n{MORE}<|>\n{MORE}type: geval\n"))
    assert OWN_KEYS["geval"] - {"name"} <= labels
    assert not labels & _others("geval")


def test_without_type_the_kind_the_fields_tell_is_completed(editor: Editor) -> None:
    labels = _labels(editor.complete(f"{TURN}{ITEM}metric: numeric\n{MORE}<|>\n"))
    assert {"absolute_tolerance", "accept_percent", "type"} <= labels
    assert not labels & _others("standard")


def test_a_new_metric_offers_the_keys_of_every_kind(editor: Editor) -> None:
    labels = _labels(editor.complete(f"{TURN}{ITEM}<|>\n"))
    assert {"type", *set().union(*OWN_KEYS.values())} <= labels


def test_keys_that_tell_no_kind_leave_type_to_be_offered(editor: Editor) -> None:
    """Nothing has chosen a branch yet: `type` (and the snippets) is what is offered."""
    labels = _labels(editor.complete(f"{TURN}{ITEM}threshold: 0.5\n{MORE}<|>\n"))
    assert "type" in labels
    assert not labels & set().union(*OWN_KEYS.values())


def test_type_offers_the_four_kinds_whatever_else_is_written(editor: Editor) -> None:
    labels = _labels(editor.complete(f"{TURN}{ITEM}type: <|>\n{MORE}metric: numeric\n"))
    assert {"standard", "geval", "rag", "code"} <= labels


def test_each_metrics_fault_is_flagged_on_its_own_line(editor: Editor) -> None:
    opened, _ = editor.write(FAULTS)
    opened.diagnostics = editor.client.wait_for_diagnostics(opened.uri)
    _assert_problems(
        opened,
        [
            ("criteria: x", r"property criteria is not allowed"),
            ("type: geval", r'missing property "criteria"'),
            ("type: stndard", r"standard.*geval.*rag.*code"),
            ("threshold: 0.5", r'missing property "type"'),
            ("grader: pkg.mod:grade", r"property grader is not allowed"),
        ],
    )


def test_hovering_type_names_what_each_kind_takes(editor: Editor) -> None:
    text = editor.hover(f"{TURN}{ITEM}ty<|>pe: geval\n{MORE}name: judged\n{MORE}criteria: ok\n")
    bundle = json.loads(SCHEMAS["bundle"].read_text(encoding="utf-8"))
    described = bundle["$defs"]["Metric"]["properties"]["type"]["markdownDescription"]
    assert _plain(described.split("\n")[0])[:48] in _plain(text), text


def test_hovering_a_key_of_the_kind_shows_its_description(editor: Editor) -> None:
    text = editor.hover(f"{TURN}{ITEM}type: geval\n{MORE}name: judged\n{MORE}crit<|>eria: ok\n")
    assert _schema_words("GEvalMetric", "criteria") in _plain(text)
    assert re.search(r"G-Eval metric", text), text
