"""The language server reads the workspace's configuration file and the document's own
suppression comments, as ``holodeck-mt validate`` does: driven over stdio."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_holodeck_server import Editor

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

DOCUMENT = """\
name: agent
test_cases:
  - name: same
    input: "one"
    expected_tools:
      - name: lookup
        args:
          year: {regexp: "^2009$"}
  - name: same
    input: "two"
"""


def _codes(diagnostics: list[dict[str, Any]]) -> list[str]:
    return sorted(str(d["code"]) for d in diagnostics)


def _editor(folder: Path) -> Editor:
    (folder / ".git").mkdir()
    return Editor(folder, {"schemaDiagnostics": True}, ["utf-16"])


def test_the_workspaces_configuration_decides_the_published_codes(tmp_path: Path) -> None:
    (tmp_path / ".holodeck-mt.toml").write_text('ignore = ["HMT201"]\n', encoding="utf-8")
    editor = _editor(tmp_path)
    try:
        _, diagnostics = editor.open(DOCUMENT)
        assert _codes(diagnostics) == ["HMT204"]
    finally:
        editor.client.close()


def test_pyproject_select_and_an_inline_suppression_apply_in_the_editor(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.holodeck-mt]\nselect = ["HMT2"]\n', encoding="utf-8"
    )
    editor = _editor(tmp_path)
    try:
        _, diagnostics = editor.open(DOCUMENT.replace('"one"', '"one"  # holodeck-mt: ignore'))
        assert _codes(diagnostics) == ["HMT201", "HMT204"]
        text = DOCUMENT.replace('"^2009$"}', '"^2009$"}  # holodeck-mt: ignore[HMT204]')
        _, diagnostics = editor.open(text)
        assert _codes(diagnostics) == ["HMT201"]
    finally:
        editor.client.close()


def test_a_configuration_that_cannot_be_used_publishes_every_code(tmp_path: Path) -> None:
    (tmp_path / ".holodeck-mt.toml").write_text('ignor = ["HMT201"]\n', encoding="utf-8")
    editor = _editor(tmp_path)
    try:
        _, diagnostics = editor.open(DOCUMENT)
        assert _codes(diagnostics) == ["HMT201", "HMT204"]
    finally:
        editor.client.close()


@pytest.mark.slow
def test_the_configurations_platform_setting_applies_in_the_editor(tmp_path: Path) -> None:
    pytest.importorskip("holodeck.models.agent", reason="needs the platform's models")
    agent = (
        "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\n  temperature: hot\n"
        "instructions:\n  inline: hi\ntest_cases:\n  - input: hi\n"
    )
    editor = _editor(tmp_path)
    try:
        _, diagnostics = editor.open(agent)
        assert _codes(diagnostics) == ["HMT130"]
    finally:
        editor.client.close()
    (tmp_path / ".holodeck-mt.toml").write_text('platform = "off"\n', encoding="utf-8")
    editor = Editor(tmp_path, {"schemaDiagnostics": True}, ["utf-16"])
    try:
        _, diagnostics = editor.open(agent)
        assert _codes(diagnostics) == []
    finally:
        editor.client.close()
