"""A hover names each allowed value once: the server writes the value, the schema its meaning."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from .test_language_server import BINDINGS, Editor, running_editor

#: Keys whose value is one of a list of words, each explained in the hover.
HOVERED = {
    "metric": (
        "test_cases:\n  - input: hi\n    ground_truth: '1'\n    evaluations:\n"
        "      - type: standard\n        met<|>ric: numeric\n"
    ),
    "file type": (
        "test_cases:\n  - turns:\n      - input: hi\n        files:\n"
        "          - path: a.png\n            ty<|>pe: image\n"
    ),
    "evaluation_params": (
        "test_cases:\n  - input: hi\n    evaluations:\n      - type: geval\n        name: x\n"
        "        criteria: y\n        evaluation_params:\n          - in<|>put\n"
    ),
}

_DOUBLED = re.compile(r"`([^`]+)`: `\1`")


@pytest.fixture(scope="module", params=BINDINGS)
def editor(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Editor]:
    yield from running_editor(request, tmp_path_factory, "hover")


@pytest.mark.parametrize("key", sorted(HOVERED))
def test_a_hover_names_each_allowed_value_once(editor: Editor, key: str) -> None:
    text = editor.hover(HOVERED[key])
    assert not _DOUBLED.search(text), text
    if key == "metric":
        assert "* `numeric`: Deterministic, no LLM" in text, text
