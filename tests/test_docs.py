"""The generated reference docs: complete and exact (`make docs-check`: up to date)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from holodeck_mt.contract.registry import schema_files
from holodeck_mt.rules.registry import CODES
from scripts import gen_docs
from tests.docs_pages import pages

ROOT = Path(__file__).resolve().parent.parent


LIVE = [code for code, c in CODES.items() if not c.retired]


def test_every_code_has_one_example_and_every_example_a_code() -> None:
    examples = {p.stem for p in (ROOT / "docs" / "examples").glob("*.yaml")}
    assert examples == set(LIVE)


def test_a_retired_code_is_documented_with_its_reason_and_never_produced() -> None:
    page = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    for code in set(CODES) - set(LIVE):
        assert f"## {code}" in page and CODES[code].retired in page


@pytest.mark.parametrize("code", LIVE)
def test_each_example_produces_its_code_and_the_page_shows_the_exact_output(code: str) -> None:
    example = gen_docs.run_example(CODES[code])
    assert f"[{code}]" in example.output
    assert example.exit_code == (1 if CODES[code].severity == "error" else 0)
    page = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    assert example.output.rstrip("\n") in page


def test_an_output_needing_the_platform_says_so_beside_what_a_plain_install_prints() -> None:
    """HMT130 is the platform's own verdict: a plain install finds the file valid."""
    page = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    section = page.split("## HMT130\n", 1)[1].split("\n## ", 1)[0]
    assert "prints (exit code 1) with the platform's models importable" in section
    assert "A plain install, without them, prints (exit code 0):" in section
    assert (
        "All 1 file valid.\nNot checked: name, model, instructions (the platform's own " in section
    )
    assert "holodeck-ai is not installed; `pip install holodeck-ai` checks them)." in section
    assert gen_docs.run_example(CODES["HMT102"]).plain is None  # the same either way


def test_an_example_that_no_longer_produces_its_code_fails_generation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "docs" / "examples").mkdir(parents=True)
    (tmp_path / "docs" / "examples" / "HMT102.yaml").write_text(
        'test_cases:\n  - input: "fine"\n', encoding="utf-8"
    )
    monkeypatch.setattr(gen_docs, "ROOT", tmp_path)
    with pytest.raises(gen_docs.ExampleError, match="does not produce HMT102"):
        gen_docs.run_example(CODES["HMT102"])


def test_reference_documents_every_key_of_every_definition() -> None:
    page = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    for schema in schema_files().values():
        for name, definition in schema.get("$defs", {}).items():
            assert f'id="{gen_docs._def_id(name)}"' in page
            props, _, _ = gen_docs._properties(definition)
            for key in props:
                assert f'id="{gen_docs._key_id(name, key)}"' in page, f"{name}.{key}"


# --- links between the pages ------------------------------------------------------------------

_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return {_anchor(h) for h in re.findall(r"^#+ (.*)$", prose, re.M)}


def _targets() -> list[tuple[str, str]]:
    return [
        (name, target)
        for name, text in pages().items()
        for target in _LINK.findall(re.sub(r"```.*?```", "", text, flags=re.S))
        if not re.match(r"[a-z]+:", target)
    ]


def test_every_link_between_the_pages_leads_to_a_file_and_a_heading_of_it() -> None:
    broken = []
    for name, target in _targets():
        path, _, anchor = target.partition("#")
        file = (ROOT / name).parent / path if path else ROOT / name
        found = file.exists() and (
            not anchor or anchor in _anchors(file.read_text(encoding="utf-8"))
        )
        if not found:
            broken.append((name, target))
    assert _targets() and broken == []


def test_the_anchor_of_a_heading_is_githubs() -> None:
    assert _anchor("`holodeck-mt lsp`: the validator in the editor") == (
        "holodeck-mt-lsp-the-validator-in-the-editor"
    )
    assert _anchors("# Install\n```sh\n# not a heading\n```\n## Tests\n") == {"install", "tests"}


def test_the_readme_is_a_first_screen_and_links_every_page() -> None:
    readme = pages()["README.md"]
    assert len(readme.splitlines()) <= 200
    linked = {target.split("#")[0] for name, target in _targets() if name == "README.md"}
    assert {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")} <= linked
