"""Every command and snippet of docs/editors.md is run: here, through the command line's
``main`` in a scratch repository, or by the editor test named for it (a test that drives
the real editor or server). What no test here can run (VS Code, Helix, a download) is
listed with the reason, and a block or command the page gains fails until it is placed."""

from __future__ import annotations

import ast
import json
import re
import shlex
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from tests.app.test_discovery import make_repository
from tests.conftest import ROOT
from tests.docs_pages import blocks, page

PAGE = "docs/editors.md"
BUNDLE = ROOT / "schema" / "bundle" / "holodeck-mt.schema.json"

#: Each fenced block, by a line of it, and the test that runs it.
BLOCKS = {
    "holodeck-mt init-editor": "tests/test_editors_page.py::test_the_init_editor_block_runs",
    "python -I -m holodeck_mt schema --path": (
        "tests/test_editors_page.py::test_the_schema_block_runs"
    ),
    '"yaml.schemas": {': "tests/editor/test_init_editor_in_editor.py::"
    "test_the_pages_settings_and_modeline_bind_the_schema_in_the_yaml_server",
    "# yaml-language-server: $schema=": "tests/editor/test_init_editor_in_editor.py::"
    "test_the_pages_settings_and_modeline_bind_the_schema_in_the_yaml_server",
    "pip install '.[lsp]'": "tests/test_editors_page.py::test_the_lsp_extra_brings_the_server",
    '"glspc.server.command"': "not run: VS Code is not on the test machine; "
    "tests/test_readme_snippets.py::test_no_editor_snippet_hides_the_schemas_faults_by_default",
    'vim.lsp.config("holodeck_mt"': "tests/editor/test_neovim.py::"
    "test_neovim_with_the_readme_config_shows_every_fault_and_applies_a_quick_fix",
    'vim.lsp.config("yamlls"': "tests/editor/test_neovim.py::"
    "test_neovim_with_the_yaml_server_as_the_readme_sets_it_up_shows_every_fault",
    "[language-server.holodeck-mt]": "not run: Helix is in no package registry here; "
    "tests/test_readme_snippets.py::test_helix_snippet_runs_both_servers_and_hides_no_fault",
    "(with-eval-after-load 'eglot": "tests/editor/test_emacs.py::"
    "test_emacs_with_the_snippet_shows_every_fault_of_holodeck_mt_with_its_hint",
}

#: The commands in the prose that are not `holodeck-mt` (run below), and who runs them.
OTHER_COMMANDS = {
    "npm install -g yaml-language-server": "tests/test_editors_page.py::"
    "test_the_yaml_server_the_page_installs_is_the_one_the_tests_run",
    "sudo apt install elpa-eglot elpa-yaml-mode": "tests/editor/test_emacs.py::"
    "test_emacs_with_the_snippet_runs_yaml_language_server_on_yaml_1_1",
    "M-x eglot": "tests/editor/test_emacs.py::"
    "test_emacs_with_the_snippet_runs_yaml_language_server_on_yaml_1_1",
    "M-x package-install RET yaml-mode": "not run: it downloads from NonGNU ELPA",
    "M-x package-install": "not run: it downloads from GNU ELPA",
    "hx --health yaml": "not run: Helix is in no package registry here",
}

#: `holodeck-mt` commands of the prose run by a test that starts them as a process.
SERVED = {
    "holodeck-mt lsp": "tests/editor/test_neovim.py::"
    "test_neovim_without_the_yaml_server_shows_all_three_faults_with_their_hints"
}

#: The options the prose names alone, as the command each belongs to (run below).
OPTIONS = {
    "--modeline": "holodeck-mt init-editor --modeline",
    "--schema URL": "holodeck-mt init-editor --schema URL",
    "--format json": "holodeck-mt validate --format json",
    "--clean": "",  # Neovim's, as tests/editor/test_neovim.py starts it
}

_HOLODECK = re.compile(r"(holodeck-mt|python -I -m holodeck_mt) ")
_OTHER = re.compile(r"(pip|npm|sudo|hx|M-x) ")


def _spans() -> set[str]:
    """Every code span of the prose, its white space as one space."""
    prose = re.sub(r"```.*?```", "", page(PAGE), flags=re.S)
    return {" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)}


def _holodeck_commands() -> list[str]:
    """Every `holodeck-mt` / `python -I -m holodeck_mt` command of the page (the prose's, its
    options', each line of its shell blocks and their `# or:` comments) but `lsp`, which
    waits for a client."""
    found = {s for s in _spans() if _HOLODECK.match(s)} | set(OPTIONS.values())
    for line in "\n".join(blocks("sh", page(PAGE))).splitlines():
        command, _, comment = line.partition("#")
        found |= {command.split(">")[0].strip(), comment.removeprefix(" or:").strip()}
    return sorted(c for c in found if _HOLODECK.match(c) and c not in SERVED)


def _test_exists(where: str) -> bool:
    if where.startswith("not run: "):
        where = where.partition("; ")[2]
        if not where:
            return True
    path, _, name = where.partition("::")
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body)


def test_every_block_of_the_page_is_run_by_a_named_test() -> None:
    found = blocks(r"\w*", page(PAGE))
    claims = {marker: [b for b in found if marker in b] for marker in BLOCKS}
    assert {m: len(b) for m, b in claims.items()} == dict.fromkeys(BLOCKS, 1)
    assert len(found) == len(BLOCKS)
    assert [where for where in BLOCKS.values() if not _test_exists(where)] == []


def test_every_other_command_of_the_page_is_run_by_a_named_test_or_says_why() -> None:
    assert {s for s in _spans() if _OTHER.match(s)} == set(OTHER_COMMANDS)
    assert {s for s in _spans() if s.startswith("--")} == set(OPTIONS)
    assert {s for s in _spans() if s.startswith("holodeck-mt lsp")} == set(SERVED)
    wheres = [*OTHER_COMMANDS.values(), *SERVED.values()]
    assert [where for where in wheres if not _test_exists(where)] == []


def test_the_page_has_commands_to_run() -> None:
    assert {
        "holodeck-mt init-editor",
        "python -I -m holodeck_mt init-editor",
        "holodeck-mt init-editor --modeline",
        "holodeck-mt rule HMT102",
        "python -I -m holodeck_mt schema --path",
    } <= set(_holodeck_commands())


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch repository holding HoloDeck agents, the working folder."""
    root = make_repository(tmp_path / "repository")
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("command", _holodeck_commands())
def test_every_holodeck_mt_command_of_the_page_runs(
    command: str, repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = shlex.split(re.sub(r"^(holodeck-mt|python -I -m holodeck_mt) ", "", command))
    args = [a.replace("URL", json.loads(BUNDLE.read_text("utf-8"))["$id"]) for a in args]
    if args[0] in ("validate", "fix"):  # named in passing: run on the repository
        args.append(".")
    if args[0] == "validate":
        args += ["--jobs", "1"]  # in this process (a worker pool is for the slow tests)
    code = main(args)
    out, err = capsys.readouterr()
    # 1: the scratch repository has faults, which `validate` reports; nothing is misused.
    assert code in (0, 1) and "usage:" not in err, (command, code, err)
    assert (out + err).strip(), command


def test_the_init_editor_block_runs(repository: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (line,) = [b for b in blocks("sh", page(PAGE)) if "holodeck-mt init-editor" in b]
    command, _, alternative = line.strip().partition("# or: ")
    assert command.split() == ["holodeck-mt", "init-editor"]
    assert alternative.split() == ["python", "-I", "-m", "holodeck_mt", "init-editor"]
    assert main(["init-editor"]) == 0
    settings = json.loads((repository / ".vscode" / "settings.json").read_text("utf-8"))
    assert settings["yaml.yamlVersion"] == "1.1"
    (bound,) = [k for k in settings["yaml.schemas"] if "holodeck-mt.schema.json" in k]
    assert "agents/finance/data/convfinqa.yaml" in settings["yaml.schemas"][bound]
    assert (repository / ".vscode" / "holodeck-mt.schema.json").read_bytes() == BUNDLE.read_bytes()
    capsys.readouterr()
    assert main(["init-editor"]) == 0  # again: it changes nothing
    assert "Written" not in capsys.readouterr().out


def test_the_schema_block_runs(repository: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (block,) = [b for b in blocks("sh", page(PAGE)) if "schema --path" in b]
    lines = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert lines == [
        "python -I -m holodeck_mt schema --path",
        "python -I -m holodeck_mt schema > .vscode/holodeck-mt.schema.json",
    ]
    assert main(["schema", "--path"]) == 0
    path = Path(capsys.readouterr().out.strip())
    assert json.loads(path.read_text("utf-8")) == json.loads(BUNDLE.read_text("utf-8"))
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(BUNDLE.read_text("utf-8"))


def test_the_lsp_extra_brings_the_server() -> None:
    (block,) = [b for b in blocks("sh", page(PAGE)) if "pip install" in b]
    assert block.split("#")[0].strip() == "pip install '.[lsp]'"
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert re.findall(r"^lsp = \[(.*)\]$", pyproject, re.M) == ['"pygls>=2.0"']


def test_the_yaml_server_the_page_installs_is_the_one_the_tests_run() -> None:
    """`npm install -g yaml-language-server` puts `yaml-language-server` on the PATH: the
    editor tests put the pinned one there under that name."""
    package = json.loads((ROOT / "editor" / "package.json").read_text("utf-8"))
    assert "yaml-language-server" in package["dependencies"]
    assert "npm install -g yaml-language-server" in _spans()
