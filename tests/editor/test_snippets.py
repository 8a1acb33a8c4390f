"""Every snippet the schema offers, accepted where it is offered, leaves a valid document.

For each place an author asks for completion (a new test case, turn, expected tool,
argument matcher, metric; the keys whose value is a snippet), the real
yaml-language-server is asked, each snippet it offers is accepted as an editor accepts
it (the current word replaced, placeholders at their defaults, continuation lines
indented like the cursor's line), and the resulting document is opened: it must have
no diagnostic. No completion anywhere inserts ``[object Object]``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_language_server import BINDINGS, CURSOR, SCHEMAS, Editor, running_editor

#: Each place snippets are offered: a document with the cursor, and the labels of the
#: snippets (the schema's ``defaultSnippets``, or a key whose value is one) offered there.
PLACES: dict[str, tuple[str, str]] = {
    "test case": ("test_cases:\n  - <|>\n", "agent.yaml"),
    "test case in a test-cases file": ("- <|>\n", "test-cases/cases.yaml"),
    "turn": ("test_cases:\n  - name: c\n    turns:\n      - <|>\n", "agent.yaml"),
    "expected tool": (
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n          - <|>\n",
        "agent.yaml",
    ),
    "argument matcher": (
        "test_cases:\n  - turns:\n      - input: hi\n        expected_tools:\n"
        "          - name: subtract\n            args:\n              a: <|>\n",
        "agent.yaml",
    ),
    "metric of a turn": (
        "test_cases:\n  - turns:\n      - input: hi\n        ground_truth: '1'\n"
        "        evaluations:\n          - <|>\n",
        "agent.yaml",
    ),
    "metric of a test case": (
        "test_cases:\n  - input: hi\n    ground_truth: '1'\n    evaluations:\n      - <|>\n",
        "agent.yaml",
    ),
    "metric of an agent": (
        "name: support\nevaluations:\n  metrics:\n    - <|>\ntest_cases:\n  - input: hi\n",
        "agent.yaml",
    ),
    "key of a turn": ("test_cases:\n  - turns:\n      - input: hi\n        <|>\n", "agent.yaml"),
    "key of an agent": ("name: support\n<|>\n", "agent.yaml"),
}


def _schema_snippet_labels() -> set[str]:
    labels: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for snippet in node.get("defaultSnippets", []):
                labels.add(snippet["label"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(SCHEMAS["bundle"].read_text(encoding="utf-8")))
    return labels


SNIPPET_LABELS = _schema_snippet_labels()

_PLACEHOLDER = re.compile(r"\$\{\d+:((?:\\.|[^}\\])*)\}|\$\{\d+\}|\$\d+")


def expand(snippet: str) -> str:
    """A snippet's text with every placeholder at its default (none: empty)."""

    def default(match: re.Match[str]) -> str:
        return match.group(1) or ""

    text = _PLACEHOLDER.sub(default, snippet)
    return re.sub(r"\\([$}\\])", r"\1", text)


def accept(body: str, item: dict[str, Any]) -> str:
    """The document after accepting ``item`` at the cursor of ``body``, as an editor does."""
    lines = body.split("\n")
    number = next(n for n, line in enumerate(lines) if CURSOR in line)
    line = lines[number]
    column = line.index(CURSOR)
    line = line.replace(CURSOR, "")
    edit = item.get("textEdit")
    if edit is not None:
        start = edit.get("range", edit.get("replace"))["start"]["character"]
        end = edit.get("range", edit.get("replace"))["end"]["character"]
        new = edit["newText"]
    else:
        start = column - len(re.search(r"[\w-]*$", line[:column]).group(0))  # type: ignore[union-attr]
        end = column
        new = item.get("insertText", item["label"])
    if item.get("insertTextFormat", 1) == 2:
        new = expand(new)
    indent = re.match(r"[ \t]*", line).group(0)  # type: ignore[union-attr]
    new = new.replace("\n", "\n" + indent)
    lines[number] = line[:start] + new + line[end:]
    return "\n".join(lines)


@pytest.fixture(scope="module", params=BINDINGS)
def editor(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Editor]:
    yield from running_editor(request, tmp_path_factory, "snippets")


def _offered(editor: Editor) -> dict[str, list[dict[str, Any]]]:
    return {
        place: editor.complete(body.replace("<|>", CURSOR), name=name)
        for place, (body, name) in PLACES.items()
    }


def _is_snippet(item: dict[str, Any]) -> bool:
    """A snippet of the schema: a ``defaultSnippets`` label (a key's, such as ``tools``)."""
    return item["label"] in SNIPPET_LABELS


def test_every_snippet_the_schema_offers_leaves_a_valid_document(
    editor: Editor, tmp_path: Path
) -> None:
    offered = _offered(editor)
    accepted: dict[tuple[str, str], tuple[str, str]] = {}
    for place, items in offered.items():
        body, name = PLACES[place]
        for item in items:
            if _is_snippet(item):
                accepted[(place, item["label"])] = (accept(body.replace("<|>", CURSOR), item), name)
    # Every place offers a snippet, and every snippet of the schema is offered somewhere.
    assert {place for place, _ in accepted} == set(PLACES), sorted(accepted)
    assert {label for _, label in accepted} >= SNIPPET_LABELS, sorted(accepted)
    opened = {key: editor.write(text, name=name)[0] for key, (text, name) in accepted.items()}
    problems = {}
    for key, document in opened.items():
        diagnostics = editor.client.wait_for_diagnostics(document.uri)
        document.diagnostics = diagnostics
        if document.problems():
            problems[key] = (accepted[key][0], document.problems())
    assert problems == {}, "\n\n".join(
        f"{place} / {label}:\n{text}\n{found}" for (place, label), (text, found) in problems.items()
    )


def test_no_completion_inserts_object_object(editor: Editor) -> None:
    broken = {
        (place, item["label"]): item.get("insertText") or item.get("textEdit", {}).get("newText")
        for place, items in _offered(editor).items()
        for item in items
        if "[object Object]" in json.dumps(item)
    }
    assert broken == {}
