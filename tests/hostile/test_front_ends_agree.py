"""The command line and the language server judge every file alike: the same role, agent.yaml,
folders, configuration and options, decided once (``project.settings``).

Every fixture of ``tests/fixtures`` is validated by ``holodeck-mt validate --format json`` (a
folder search) and by the language server's own diagnostics of the document, under several
configuration files, and their diagnostics are compared one by one. In process: the server's
checking function is what it publishes.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.app.cli import main
from tests.conftest import FIXTURES

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

from holodeck_mt.lsp import server
from holodeck_mt.lsp.positions import Lines

#: Each configuration file (``.holodeck-mt.toml`` at the root of a copy of the fixtures).
CONFIGURATIONS = {
    "none": None,
    "strict, platform off": 'strict = true\nplatform = "off"\n',
    "select and ignore": (
        'select = ["HMT0", "HMT1", "HMT2"]\nignore = ["HMT102", "HMT201"]\nplatform = "off"\n'
        '[per-file-ignores]\n"invalid/schema/*" = ["HMT100"]\n"*.yml" = ["HMT2"]\n'
    ),
    "platform on, a pyproject ignoring a range": (
        '[project]\nname = "x"\n\n[tool.holodeck-mt]\nignore = ["HMT3"]\nplatform = "auto"\n'
    ),
}
#: A diagnostic as a user reads it: code, line, column, message, severity.
Seen = tuple[str, int, int, str, str]


@pytest.fixture(scope="module", params=list(CONFIGURATIONS))
def judged(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Path, str | None, dict[str, list[dict[str, Any]]]]]:
    """A copy of the fixtures under the configuration, and the CLI's results by path."""
    config = CONFIGURATIONS[request.param]
    root = tmp_path_factory.mktemp("fixtures")
    shutil.copytree(FIXTURES, root, dirs_exist_ok=True)
    (root / ".git").mkdir()
    if config is not None:
        name = "pyproject.toml" if "[project]" in config else ".holodeck-mt.toml"
        (root / name).write_text(config, encoding="utf-8")
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.chdir(root)
        main(["validate", ".", "--format", "json", "--jobs", "1", "--no-cache"])
    document = json.loads(out.getvalue())
    by_path: dict[str, list[dict[str, Any]]] = {}
    for file in document["files"]:
        by_path.setdefault(file["path"], []).append(file)
    yield root, config, by_path


def _editors(root: Path, path: Path, text: str) -> list[Seen] | None:
    """What the language server publishes for the document ``path`` holding ``text``."""
    ls = server.HoloDeckServer()
    ls.roots = lambda: [root]  # type: ignore[method-assign]
    found = ls._diagnose(path.as_uri(), text)
    if found is None:
        return None
    lines = Lines(text, "utf-32")
    shown = []
    for d in found:
        published = server.to_lsp(d, lines)
        start = published.range.start
        # A file the message names is shown as the document was named: absolute here.
        message = published.message.split(f"\n{server.HINT}")[0].replace(f"{root}/", "")
        severity = published.severity.name.lower() if published.severity else ""
        shown.append((str(published.code), start.line + 1, start.character + 1, message, severity))
    return shown


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _cli(file: dict[str, Any], strict: bool) -> list[Seen]:
    return [
        (
            d["code"],
            d["line"],
            d["column"],
            d["message"],
            "error" if strict else d["severity"],
        )
        for d in file["diagnostics"]
    ]


def test_every_fixture_gets_the_same_diagnostics_from_both(
    judged: tuple[Path, str | None, dict[str, list[dict[str, Any]]]],
) -> None:
    root, config, by_path = judged
    strict = config is not None and "strict = true" in config
    compared = 0
    for path in sorted([*root.rglob("*.yaml"), *root.rglob("*.yml")]):
        relative = path.relative_to(root).as_posix()
        files = by_path.get(relative, [])
        assert len(files) <= 1, f"{relative} judged in two roles: the editor shows one"
        raw = path.read_bytes()  # an editor holds text: bytes not UTF-8 are another there
        if raw.startswith(b"\xef\xbb\xbf") or not _utf8(raw):
            continue
        text = raw.decode("utf-8")
        editor = _editors(root, path, text)
        if not files:
            assert editor is None, f"{relative}: the editor validates what the CLI passes over"
            continue
        assert editor is not None, f"{relative}: the CLI validates what the editor passes over"
        assert sorted(editor) == sorted(_cli(files[0], strict)), relative
        compared += 1
    assert compared > 200


#: A file with one warning (HMT203, a tool listed twice) at line 4.
WARNED = "test_cases:\n  - name: t\n    input: hi\n    expected_tools: [a, a]\n"


def _repository(folder: Path, config: str) -> Path:
    (folder / ".git").mkdir()
    (folder / ".holodeck-mt.toml").write_text(config, encoding="utf-8")
    document = folder / "agent.yaml"
    document.write_text(WARNED, encoding="utf-8")
    return document


def test_the_configurations_strict_makes_the_editors_warning_an_error(tmp_path: Path) -> None:
    from holodeck_mt.lsp import checking

    document = _repository(tmp_path, "strict = false\n")
    found = checking.diagnose(document, WARNED, [tmp_path]) or []
    assert [(d.code, d.line, d.severity) for d in found] == [("HMT203", 4, "warning")]
    (tmp_path / ".holodeck-mt.toml").write_text("strict = true\n", encoding="utf-8")
    found = checking.diagnose(document, WARNED, [tmp_path]) or []
    assert [(d.code, d.line, d.severity) for d in found] == [("HMT203", 4, "error")]


@pytest.mark.parametrize(
    ("config", "code", "said"),
    [
        ("strict = true\n", 1, "agent.yaml:4:25: warning[HMT203]"),
        ('ignore = ["HMT203"]\nstrict = true\n', 0, "test case 't'"),
        ('ignor = ["HMT203"]\n', 2, "unknown key 'ignor'"),
    ],
    ids=["strict refuses", "ignored", "unusable"],
)
def test_explain_judges_with_the_configuration(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    config: str,
    code: int,
    said: str,
) -> None:
    _repository(tmp_path, config)
    monkeypatch.chdir(tmp_path)
    assert main(["explain", "agent.yaml"]) == code
    captured = capsys.readouterr()
    assert said in captured.out + captured.err


def test_the_editor_shows_an_agent_naming_itself_in_both_roles(tmp_path: Path) -> None:
    from holodeck_mt.lsp import checking

    (tmp_path / ".git").mkdir()
    text = "name: a\nmodel: {provider: openai, name: gpt-4o}\ninstructions: {inline: hi}\n"
    text += "test_cases_file: agent.yaml\n"
    (tmp_path / "agent.yaml").write_text(text, encoding="utf-8")
    found = checking.diagnose(tmp_path / "agent.yaml", text, [tmp_path]) or []
    assert [(d.code, d.line, d.message) for d in found] == [
        ("HMT100", 1, "unknown key 'name' in test-cases file"),
        ("HMT101", 1, "missing required key `test_cases` in test-cases file"),
        ("HMT100", 2, "unknown key 'model' in test-cases file"),
        ("HMT100", 3, "unknown key 'instructions' in test-cases file"),
        ("HMT100", 4, "unknown key 'test_cases_file' in test-cases file"),
    ]
