"""The set-up snippets of the README and docs/ are consistent with what the repository ships,
and the README's sample output is what the command line prints."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from holodeck_mt import __version__
from holodeck_mt.app.cli import main
from holodeck_mt.render import FORMATS
from holodeck_mt.urls import BUNDLE_URL, RELEASE_BUNDLE_URL, REPOSITORY, SCHEMA_BASE, SLUG
from tests.docs_pages import block as one_block
from tests.docs_pages import blocks, page, pages, section

ROOT = Path(__file__).resolve().parent.parent
#: Every hand-written page, as one text: where a fact is looked for whichever page holds it.
DOCS = "\n".join(pages().values())
BUNDLE_ID = json.loads(
    (ROOT / "schema" / "bundle" / "holodeck-mt.schema.json").read_text(encoding="utf-8")
)["$id"]


def _blocks(language: str) -> list[str]:
    return blocks(language)


def _yaml(text: str) -> Any:
    return YAML(typ="safe").load(text)


def test_vscode_settings_snippet_is_the_example_file_and_covers_the_catalog_globs() -> None:
    (settings,) = [json.loads(b) for b in _blocks("json") if "yaml.schemas" in b]
    example = json.loads((ROOT / "examples" / "vscode" / "settings.json").read_text("utf-8"))
    assert settings == example
    (globs,) = settings["yaml.schemas"].values()
    catalog = json.loads((ROOT / "schemastore" / "catalog-entry.json").read_text("utf-8"))
    assert set(catalog["fileMatch"]) <= set(globs)


def test_every_schema_url_in_the_docs_is_the_bundles_id() -> None:
    urls = set(re.findall(re.escape(SCHEMA_BASE) + r"\S+?\.schema\.json", DOCS))
    assert urls == {BUNDLE_ID}
    assert f"# yaml-language-server: $schema={BUNDLE_ID}" in page("docs/editors.md")


def test_pre_commit_snippet_uses_the_hook_this_repository_ships() -> None:
    hooks = _yaml((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (config,) = [_yaml(b) for b in _blocks("yaml") if "repos:" in b]
    used = {hook["id"] for repo in config["repos"] for hook in repo["hooks"]}
    assert used <= {hook["id"] for hook in hooks}


def _workflow_steps() -> list[dict[str, Any]]:
    workflows = [_yaml(b) for b in _blocks("yaml") if "jobs:" in b]
    return [step for w in workflows for job in w["jobs"].values() for step in job["steps"]]


def test_workflow_snippets_use_the_action_with_its_inputs_or_a_registered_format() -> None:
    action = _yaml((ROOT / "action.yml").read_text(encoding="utf-8"))
    ours = [s for s in _workflow_steps() if str(s.get("uses", "")).startswith(SLUG + "@")]
    assert len(ours) == 2
    for step in ours:
        assert set(step.get("with", {})) <= set(action["inputs"]), step
    assert any("sarif-file" in step.get("with", {}) for step in ours)
    formats = set()
    for step in _workflow_steps():
        found = re.search(r"holodeck(?:-mt|_mt) validate --format (\w+)", step.get("run", ""))
        if found:
            formats.add(found.group(1))
    assert formats == {"github"}
    assert formats <= set(FORMATS)


def _pins() -> set[str]:
    """Every ref the docs pin: pre-commit's rev, the action's ref, pip's git ref."""
    (config,) = [_yaml(b) for b in _blocks("yaml") if "repos:" in b]
    pins = {str(repo["rev"]) for repo in config["repos"]}
    pins |= {
        str(s["uses"]).split("@", 1)[1]
        for s in _workflow_steps()
        if "@" in s.get("uses", "") and str(s["uses"]).startswith(SLUG + "@")
    }
    pins |= set(re.findall(re.escape(f"git+{REPOSITORY}@") + r"([^\s\"'`]+)", DOCS))
    return pins


def test_the_install_section_names_the_release_urls_and_says_none_exists_yet() -> None:
    readme = section("README.md", "## Install\n", "\n## ")
    assert "**Nothing is published yet**" in readme
    assert f"git clone {REPOSITORY}\npip install ./holodeck-mt " in readme  # a checkout, today
    assert f'pip install "holodeck-mt @ git+{REPOSITORY}@v{__version__}"' in readme
    assert "(docs/install.md)" in readme
    install = page("docs/install.md")  # where each thing will be published
    assert "**Nothing is published yet.**" in install
    for url in (
        REPOSITORY,
        BUNDLE_URL,
        RELEASE_BUNDLE_URL,
        "https://pypi.org/project/holodeck-mt/",
    ):
        assert url in install, url
    assert "`holodeck_mt/urls.py`" in install


def test_the_pre_commit_snippet_names_this_repository() -> None:
    (config,) = [_yaml(b) for b in _blocks("yaml") if "repos:" in b]
    assert [repo["repo"] for repo in config["repos"]] == [REPOSITORY]
    assert f"rev: v{__version__}" in page("docs/ci.md")


def test_every_pin_names_the_version_this_checkout_installs() -> None:
    """The pre-commit rev, the action's ref and pip's git ref all pin the release of this
    checkout's version: a pin never lags what it installs (``make schema`` stamps them)."""
    assert _pins() == {f"v{__version__}"}


def _one_block(language: str, marker: str) -> str:
    return one_block(language, marker)


def test_helix_snippet_runs_both_servers_and_hides_no_fault() -> None:
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads(_one_block("toml", "[language-server.holodeck-mt]"))
    ours = config["language-server"]["holodeck-mt"]
    assert (ours["command"], ours["args"]) == ("holodeck-mt", ["lsp"])
    assert "config" not in ours  # every diagnostic, the schema's too
    # The schema is bound in each file by `init-editor --modeline`, not by a URL not served.
    yaml_server = config["language-server"]["yaml-language-server"]["config"]["yaml"]
    assert yaml_server == {"yamlVersion": "1.1"}
    helix = section("docs/editors.md", "**Helix**", "```toml")
    assert "`holodeck-mt init-editor --modeline`" in helix
    (language,) = config["language"]
    assert language["name"] == "yaml"
    assert language["language-servers"] == ["yaml-language-server", "holodeck-mt"]


def _read_sexp(text: str) -> list[Any]:
    """The forms of an Emacs Lisp text: lists and vectors nested, strings and atoms as
    strings; raises ValueError on an unbalanced or unterminated form."""
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|;[^\n]*|[()\[\]]|[`\',]|[^\s()\[\]"`\',;]+', text)
    stack: list[list[Any]] = [[]]
    closers: list[str] = []
    for token in tokens:
        if token.startswith(";"):
            continue
        if token in "([":
            stack.append([])
            closers.append(")" if token == "(" else "]")
        elif token in ")]":
            if not closers or closers.pop() != token:
                raise ValueError(f"unbalanced {token}")
            done = stack.pop()
            stack[-1].append(done)
        elif token.startswith('"'):
            stack[-1].append(token[1:-1])
        else:
            stack[-1].append(token)
    if closers:
        raise ValueError("unclosed form")
    return stack[0]


def _atoms(form: Any) -> list[str]:
    return [form] if isinstance(form, str) else [a for f in form for a in _atoms(f)]


def test_emacs_snippet_reads_and_offers_both_servers() -> None:
    forms = _read_sexp(_one_block("elisp", "eglot-server-programs"))
    assert len(forms) == 1 and forms[0][:2] == ["with-eval-after-load", "'"]
    atoms = _atoms(forms)
    assert atoms[atoms.index("holodeck-mt") :][:2] == ["holodeck-mt", "lsp"]
    assert "yaml-language-server" in atoms and "--stdio" in atoms
    assert BUNDLE_ID not in " ".join(atoms)  # bound by `init-editor --modeline` instead
    assert "eglot-alternatives" in atoms
    assert atoms[atoms.index(":holodeck-mt") + 1 : atoms.index(":holodeck-mt") + 3] == [
        ":schemaDiagnostics",
        "t",
    ]


def test_the_emacs_reader_refuses_an_unbalanced_form() -> None:
    with pytest.raises(ValueError):
        _read_sexp('(setq a "b"')
    with pytest.raises(ValueError):
        _read_sexp("(a [b)]")


def test_no_editor_snippet_hides_the_schemas_faults_by_default() -> None:
    settings = json.loads(_one_block("json", "glspc.server.command"))
    assert settings == {
        "glspc.server.command": "holodeck-mt",
        "glspc.server.commandArguments": ["lsp"],
        "glspc.server.languageId": ["yaml"],
    }
    for block in _blocks("lua") + _blocks("toml") + _blocks("elisp"):
        assert "schemaDiagnostics = false" not in block
        assert "schemaDiagnostics false" not in block


# --- the README's sample output ---------------------------------------------------------------

SAMPLE = Path("docs", "examples", "readme", "agent.yaml")


def test_the_readme_sample_output_is_what_the_command_line_prints_today(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = page("README.md")
    assert f"]({SAMPLE.as_posix()})" in readme  # the README links the file it validates
    (sample,) = [b for b in blocks("text", readme) if b.startswith("$ holodeck-mt validate")]
    command, printed = sample.split("\n", 1)
    program, *args = command.removeprefix("$ ").split()
    assert program == "holodeck-mt"
    monkeypatch.chdir(ROOT / SAMPLE.parent)
    code = main(args)
    out, err = capsys.readouterr()
    assert (code, err) == (1, "")
    assert out == printed
    assert "[HMT102]" in out and "[HMT106]" in out
