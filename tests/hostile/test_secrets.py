"""A variable's value substituted for its ``${NAME}`` is never shown, nor stored.

The platform replaces each ``${NAME}`` by the variable's value before it reads the
file, and so does the validator: a value is often a secret (an API key from the
environment, from ``.env`` or ``~/.holodeck/.env``), and a report runs in CI logs and
editors. Every output names the reference instead (``the value of `${KEY}` (a
string)``), a test case named ``${KEY}`` is named so, and no stretch of a secret's
characters reaches any format, ``explain``, ``fix --diff`` or the language server.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.explain import run as explain
from holodeck_mt.limits import Limits
from holodeck_mt.pipeline import validate_file, validate_text

FROM_ENVIRONMENT = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a"
FROM_DOT_ENV = "dotenv-Zq8Wx7Vy6Ut5Sr4Qp3On2Ml1"
FROM_HOME = "home-Kj9Hg8Fd7Sa6Lk5Jh4Gf3Ds2"
SECRETS = (FROM_ENVIRONMENT, FROM_DOT_ENV, FROM_HOME)

HEAD = """\
name: a
model: {provider: openai, name: gpt-4o}
instructions: {inline: Answer.}
test_cases:
"""
INVALID = (
    HEAD
    + """\
  - name: ${HMT_SECRET_NAME}
    turns: ${HMT_SECRET_KEY}
  - name: from-dot-env
    turns: ${HMT_DOT_ENV}
  - name: from-home
    input: q
    expected_tools: ${HMT_HOME_ENV}
"""
)
VALID = (
    HEAD
    + """\
  - name: ${HMT_SECRET_NAME}
    input: ${HMT_SECRET_KEY}
    ground_truth: ${HMT_DOT_ENV}
"""
)
FORMATS = ("text", "json", "github", "sarif", "junit")


@pytest.fixture(autouse=True)
def _secrets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A secret in the environment, one in the working folder's `.env`, one in the home's."""
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    (home / ".holodeck").mkdir(parents=True)
    (home / ".holodeck" / ".env").write_text(f"HMT_HOME_ENV={FROM_HOME}\n")
    (tmp_path / ".env").write_text(f"HMT_DOT_ENV={FROM_DOT_ENV}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("HMT_SECRET_KEY", FROM_ENVIRONMENT)
    monkeypatch.setenv("HMT_SECRET_NAME", FROM_ENVIRONMENT[::-1])


def _leaks(output: str) -> list[str]:
    """Every 8-character stretch of a secret found in ``output``."""
    secrets = (*SECRETS, FROM_ENVIRONMENT[::-1])
    stretches = {s[i : i + 8] for s in secrets for i in range(len(s) - 7)}
    return sorted(stretch for stretch in stretches if stretch in output)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "agent.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_format_shows_a_substituted_value(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, INVALID)
    code = main(["validate", str(path), "--format", fmt, "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 1
    assert _leaks(out + err) == []
    assert "${HMT_SECRET_KEY}" in out and "${HMT_DOT_ENV}" in out
    assert "${HMT_SECRET_NAME}" in out


def test_each_message_names_the_reference_and_the_kind_of_its_value(tmp_path: Path) -> None:
    [result] = validate_file(_write(tmp_path, INVALID))
    seen = [(d.code, d.line, d.test_case, d.path, d.message) for d in result.diagnostics]
    assert seen == [
        (
            "HMT102",
            6,
            "${HMT_SECRET_NAME}",
            "turns",
            "`turns` must be a list, got string `${HMT_SECRET_KEY}`",
        ),
        (
            "HMT102",
            8,
            "from-dot-env",
            "turns",
            "`turns` must be a list, got string `${HMT_DOT_ENV}`",
        ),
        (
            "HMT102",
            11,
            "from-home",
            "expected_tools",
            "`expected_tools` must be a list, got string `${HMT_HOME_ENV}`",
        ),
    ]
    assert result.test_cases == ["${HMT_SECRET_NAME}", "from-dot-env", "from-home"]


def test_a_valid_file_names_its_test_case_as_written_in_junit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, VALID)
    assert main(["validate", str(path), "--format", "junit", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert _leaks(out) == []
    assert 'name="${HMT_SECRET_NAME}' in out
    [result] = validate_file(path)
    assert result.test_cases == ["${HMT_SECRET_NAME}"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_explain_shows_no_substituted_value(fmt: str, tmp_path: Path) -> None:
    for text, code in ((INVALID, 1), (VALID, 0)):
        out = io.StringIO()
        assert explain(str(_write(tmp_path, text)), None, fmt, Limits(), out) == code
        assert _leaks(out.getvalue()) == []
        assert "${HMT_SECRET_NAME}" in out.getvalue()


def test_fix_diff_shows_and_writes_no_substituted_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = HEAD + (
        "  - name: ${HMT_SECRET_NAME}\n"
        "    input: q\n"
        "    ground_truth: ${HMT_NUMBER}\n"
        "  - name: literal\n"
        "    input: ${HMT_SECRET_KEY}\n"
        "    ground_truth: 2.50\n"
    )
    path = _write(tmp_path, text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HMT_NUMBER", "14.10")
        assert main(["fix", "--diff", str(path)]) == 1
        out, err = capsys.readouterr()
    assert _leaks(out + err) == []
    assert '+    ground_truth: "2.50"' in out  # the literal is fixed
    assert "14.10" not in out  # the reference is not replaced by its value
    assert path.read_text() == text


def test_the_language_server_publishes_no_substituted_value(tmp_path: Path) -> None:
    pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")
    from tests.editor.lsp_client import LspClient

    path = _write(tmp_path, INVALID)
    client = LspClient(
        [sys.executable, "-m", "holodeck_mt", "lsp"], settings=lambda section: None, cwd=tmp_path
    )
    try:
        root = tmp_path.as_uri()
        client.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root,
                "workspaceFolders": [{"uri": root, "name": "ws"}],
                "capabilities": {},
                "initializationOptions": {"schemaDiagnostics": True},
            },
        )
        client.notify("initialized", {})
        item = {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": INVALID}
        client.notify("textDocument/didOpen", {"textDocument": item})
        published: list[dict[str, Any]] = client.wait_for_diagnostics(path.as_uri())
    finally:
        client.close()
    shown = repr(published)
    assert _leaks(shown) == []
    first = published[0]
    assert (first["code"], first["range"]["start"]["line"]) == ("HMT102", 5)
    assert first["message"] == ("`turns` must be a list, got string `${HMT_SECRET_KEY}`")
    assert first["data"]["test_case"] == "${HMT_SECRET_NAME}"


def test_a_dot_env_value_of_several_lines_leaves_suppressions_on_their_own_lines(
    tmp_path: Path,
) -> None:
    (tmp_path / ".env").write_text('HMT_DOT_ENV="one\ntwo\nthree"\n')
    text = HEAD + (
        '  - input: "${HMT_DOT_ENV}"\n'  # line 5: the value adds two lines
        "    turns: 3\n"  # line 6: HMT102
        "    ground_truth: x\n"
        "    # holodeck-mt: ignore[HMT102]\n"  # line 8, where line 6 is once substituted
    )
    found = validate_text(text, path="agent.yaml").diagnostics
    assert [(d.code, d.line) for d in found if d.code == "HMT102"] == [("HMT102", 6)]
    on_its_line = text.replace("    turns: 3\n", "    turns: 3  # holodeck-mt: ignore[HMT102]\n")
    found = validate_text(on_its_line, path="agent.yaml").diagnostics
    assert [d.code for d in found if d.code == "HMT102"] == []


def test_a_platform_model_message_names_the_reference(tmp_path: Path) -> None:
    text = (
        "name: a\n"
        "model: {provider: ${HMT_SECRET_KEY}, name: gpt-4o}\n"
        "instructions: {inline: Answer.}\n"
        "test_cases:\n"
        "  - {input: q, ground_truth: a}\n"
    )
    [d] = [d for d in validate_text(text, path="agent.yaml").diagnostics if d.code == "HMT130"]
    assert d.line == 2
    assert d.message.endswith("(got string `${HMT_SECRET_KEY}`)")
    assert _leaks(repr(d)) == []


def test_a_test_cases_file_named_by_a_variable_is_reported_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text('HMT_DOT_ENV="one\ntwo\nthree"\n')
    monkeypatch.setenv("HMT_DIR", FROM_HOME)
    text = (
        "name: a\n"
        'description: "${HMT_DOT_ENV}"\n'  # two more lines once substituted
        "model: {provider: openai, name: gpt-4o}\n"
        "instructions: {inline: hi}\n"
        "test_cases_file: ${HMT_DIR}/cases.yaml\n"
    )
    [result] = validate_file(_write(tmp_path, text))
    [d] = result.diagnostics
    assert (d.code, d.line, d.column) == ("HMT110", 5, 18)
    assert "test_cases_file `${HMT_DIR}/cases.yaml` does not exist" in d.message
    assert _leaks(repr(d)) == []
