"""CONTRIBUTING.md's recipes stay true: the files they name exist, the facts they rely on hold."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_mt import __version__, urls
from holodeck_mt.render import MODULES
from scripts import stamp_urls
from tests.conftest import ROOT, SAMPLES, copy_checkout

GUIDE = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def test_every_file_and_folder_the_guide_names_exists() -> None:
    named = re.findall(r"`((?:holodeck_mt|tests|schema|scripts|bench|docs)/[^`<>*\s]*)`", GUIDE)
    assert named
    assert [name for name in named if not (ROOT / name).exists()] == []


def test_every_stage_folder_of_the_package_is_in_the_guide() -> None:
    package = ROOT / "holodeck_mt"
    folders = sorted(p.name for p in package.iterdir() if (p / "__init__.py").is_file())
    assert [f for f in folders if f"`holodeck_mt/{f}/`" not in GUIDE] == []


def test_each_output_format_is_one_module_of_the_render_folder() -> None:
    render = ROOT / "holodeck_mt" / "render"
    assert [m for m in MODULES.values() if not (render / f"{m}.py").is_file()] == []


# --- the recipes, followed in a scratch copy of the checkout ----------------------------
#
# Each writes exactly the files its recipe names into a copy of the checkout, runs the
# `make` target the recipe names (its commands, read from the Makefile, with this
# interpreter), and then checks that nothing but those files changed and that the tests
# that read what it adds pass in the copy: a recipe that needs one more edit fails here.

#: A run of the copy's tests prints at most this much of its output on failure.
_SHOWN = 4000


def _make_recipe(target: str) -> list[tuple[dict[str, str], list[str]]]:
    """The commands of ``make <target>``, each its variables and its command line (``$(PY)``
    standing for this interpreter)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    block = makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]
    commands = []
    for line in block.splitlines()[1:]:
        if not line.startswith("\t"):
            break
        words = line.split()
        variables = {}
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
            name, value = words.pop(0).split("=", 1)
            variables[name] = value
        command = [sys.executable if w == "$(PY)" else w for w in words]
        assert "$(" not in " ".join(command), line  # only the interpreter is substituted
        commands.append((variables, command))
    return commands


def _run_in(copy: Path, command: list[str], **variables: str) -> str:
    """Run ``command`` in the copy, its package and tests first on the path; the output."""
    env = {**os.environ, "PYTHONPATH": str(copy), "NO_COLOR": "1", **variables}
    if SAMPLES.is_dir():  # the copy has no shared/ beside it: it reads the checkout's samples
        env["HOLODECK_MT_SAMPLES"] = str(SAMPLES)
    done = subprocess.run(
        command, cwd=copy, env=env, capture_output=True, text=True, check=False, timeout=900
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(command[1:])} failed in the copy:\n{out[-_SHOWN:]}"
    return out


def _make(copy: Path, target: str) -> None:
    for variables, command in _make_recipe(target):
        _run_in(copy, command, **variables)


def _digests(copy: Path) -> dict[str, str]:
    """Each file of the copy (but caches) and a digest of its bytes."""
    skipped = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
    return {
        path.relative_to(copy).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in copy.rglob("*")
        if path.is_file() and not skipped.intersection(path.relative_to(copy).parts)
    }


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}


def _tests_reading(copy: Path, pattern: str) -> list[str]:
    """The copy's test modules whose source matches ``pattern``: the tests that read what a
    recipe adds (every rule, every fixture, every format), found rather than listed."""
    found = re.compile(pattern)
    return sorted(
        path.relative_to(copy).as_posix()
        for path in (copy / "tests").rglob("test_*.py")
        if found.search(path.read_text(encoding="utf-8"))
    )


def _pytest(copy: Path, tmp: Path, *args: str) -> str:
    options = ["-p", "no:cacheprovider", "--basetemp", str(tmp), *args]
    out = _run_in(copy, [sys.executable, "-m", "pytest", *options])
    assert re.search(r"\b[1-9]\d* passed\b", out), out[-_SHOWN:]
    return out


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    copy = copy_checkout(tmp_path / "repository")
    where = _run_in(copy, [sys.executable, "-c", "import holodeck_mt; print(holodeck_mt.__file__)"])
    assert Path(where.strip()).is_relative_to(copy), where  # the copy's code, not ours
    return copy


NEW_LINT_CODE = "HMT398"  # tests/rules/test_registry.py's scratch rule is HMT399
NEW_LINT_MODULE = "shouting_name"
NEW_LINT_NAME = "shouting-name"
NEW_LINT = f'''"""{NEW_LINT_CODE}: a test case's name written in capitals only.

A name in capitals is shouted in every report that names the test case.
"""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt import layout
from holodeck_mt.model import Fault
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule


def check(context: Context) -> Iterator[Fault]:
    found = layout.test_case_list(context.data)
    cases, base = found if found is not None else ([], ())
    for index, case in enumerate(cases):
        name = case.get("name") if isinstance(case, dict) else None
        if isinstance(name, str) and name.isupper():
            yield Fault(
                "{NEW_LINT_CODE}",
                "the test case's name is in capitals only",
                (*base, index, "name"),
                hint="write the name in lower case",
            )


RULE = Rule(
    code="{NEW_LINT_CODE}",
    name="{NEW_LINT_NAME}",
    description="A test case's name in capitals only: every report shouts it.",
    check=check,
    runs="runtime",
)
'''
NEW_LINT_EXPECTED = {
    "code": NEW_LINT_CODE,
    "test_case": "LOUD",
    "test_case_index": 0,
    "path": "name",
    "line": 4,
    "message": "the test case's name is in capitals only",
    "hint": "write the name in lower case",
}
NEW_LINT_FIRES = f"""\
# rule: a test case's name in capitals only is a warning
# expect: {json.dumps(NEW_LINT_EXPECTED)}
test_cases:
  - name: LOUD
    input: hello
  - name: quiet
    input: hello
"""
NEW_LINT_NEAR_MISS = f"""\
# near miss of {NEW_LINT_CODE}: a name with one lower-case letter, and a name without letters
test_cases:
  - name: Loud
    input: hello
  - name: "42"
    input: hello
"""
NEW_LINT_EXAMPLE = "test_cases:\n  - name: LOUD\n    input: hello\n"


def _add_to_registry(copy: Path, module: str) -> None:
    """The recipe's registry line: the module imported, its rule last among the lints."""
    registry = copy / "holodeck_mt" / "rules" / "registry.py"
    source = registry.read_text(encoding="utf-8")
    imports = source.replace("    axis_range,\n", f"    axis_range,\n    {module},\n", 1)
    entry = "    # Warnings: the platform loads it, but the contract writes it otherwise.\n"
    added = imports.replace(entry, f"    {module}.RULE,\n{entry}", 1)
    assert added.count(f"{module}") == 2, "the registry no longer reads as the recipe says"
    registry.write_text(added, encoding="utf-8")


def _add_new_lint(copy: Path, module: str = NEW_LINT, fires: str = NEW_LINT_FIRES) -> set[str]:
    """The new-rule recipe's files and registry line, written into the copy: what changed."""
    written = {
        f"holodeck_mt/rules/{NEW_LINT_MODULE}.py": module,
        f"tests/fixtures/warnings/runtime/{NEW_LINT_NAME}.yaml": fires,
        f"tests/fixtures/near-misses/{NEW_LINT_NAME}.yaml": NEW_LINT_NEAR_MISS,
        f"docs/examples/{NEW_LINT_CODE}.yaml": NEW_LINT_EXAMPLE,
    }
    for name, text in written.items():
        (copy / name).write_text(text, encoding="utf-8")
    _add_to_registry(copy, NEW_LINT_MODULE)
    return {*written, "holodeck_mt/rules/registry.py"}


@pytest.mark.slow  # copies the checkout and runs a test selection in it
@pytest.mark.recipe
def test_a_new_lint_is_its_module_a_registry_line_its_fixtures_and_its_example(
    copy: Path, tmp_path: Path
) -> None:
    before = _digests(copy)
    written = _add_new_lint(copy)
    _make(copy, "docs")
    assert _changed(before, _digests(copy)) == {*written, "docs/diagnostics.md"}  # `make docs`
    reading = _tests_reading(
        copy, r"rules\.registry|rules\.codes|import codes|\bFIXTURES\b|fixture_header"
    )
    assert "tests/rules/test_each_rule.py" in reading and "tests/test_docs.py" in reading
    out = _pytest(copy, tmp_path / "runs", "-m", "not slow", "-v", *reading)
    each_rule = "tests/rules/test_each_rule.py::test_"
    for ran in (
        f"each_rule_has_a_fixture_that_fires_it_and_a_near_miss[{NEW_LINT_CODE}]",
        f"a_rule_alone_reports_what_its_fixture_expects[{NEW_LINT_CODE}-warnings/runtime/"
        f"{NEW_LINT_NAME}]",
        f"a_rule_alone_reports_nothing_on_its_near_miss[{NEW_LINT_CODE}-near-misses/"
        f"{NEW_LINT_NAME}]",
    ):
        assert f"{each_rule}{ran} PASSED" in out, ran
    corpus = "test_fixture_corpus.py::test_fixture_reports_exactly_its_expected_diagnostics"
    assert f"{corpus}[warnings/runtime/{NEW_LINT_NAME}] PASSED" in out


#: The new lint again, its fault carrying a fix (the recipe "A fault with a fix").
FIXED_LINT = NEW_LINT.replace(
    "from holodeck_mt.model import Fault\n", "from holodeck_mt.model import Fault, Rename\n"
).replace('hint="write the name in lower case"', "fix=Rename(name.lower())")
FIXED_LINT_FIRES = NEW_LINT_FIRES.replace(
    '"hint": "write the name in lower case"', '"hint": "did you mean \'loud\'?"'
)
FIX_EXAMPLE = f"""    (
        "{NEW_LINT_CODE}",
        Rename,
        "document",
        "test_cases:\\n  - name: LOUD\\n    input: q\\n",
        "LOUD",
        "loud",
    ),
"""


@pytest.mark.slow  # copies the checkout and runs a test selection in it
@pytest.mark.recipe
def test_a_fault_with_a_fix_is_its_intent_its_example_and_its_row_of_the_fixes(
    copy: Path, tmp_path: Path
) -> None:
    assert FIXED_LINT.count("Rename") == 2 and FIXED_LINT_FIRES.count("mean 'loud'?") == 1
    _add_new_lint(copy, FIXED_LINT, FIXED_LINT_FIRES)
    examples = copy / "tests" / "fix" / "test_fix_intents.py"
    source = examples.read_text(encoding="utf-8")
    end = "]\nIDS = "
    assert source.count(end) == 1, "the examples no longer read as the recipe says"
    examples.write_text(source.replace(end, FIX_EXAMPLE + end, 1), encoding="utf-8")
    page = copy / "docs" / "fix.md"
    rows = page.read_text(encoding="utf-8").splitlines(keepends=True)
    [at] = [i for i, row in enumerate(rows) if row.startswith("| rename |")]
    rows[at] = rows[at].removesuffix(" |\n") + f", `{NEW_LINT_CODE}` |\n"
    page.write_text("".join(rows), encoding="utf-8")
    before = _digests(copy)
    _make(copy, "docs")
    assert _changed(before, _digests(copy)) == {"docs/diagnostics.md"}
    assert "hint: did you mean 'loud'?" in (copy / "docs" / "diagnostics.md").read_text("utf-8")
    reading = [
        *_tests_reading(copy, r"holodeck_mt\.fix|\bINTENTS\b"),
        "tests/rules/test_each_rule.py",
        "tests/test_fixture_corpus.py",
    ]
    assert "tests/fix/test_fix_intents.py" in reading, reading
    out = _pytest(copy, tmp_path / "runs", "-m", "not slow", "-v", *reading)
    for ran in (
        f"test_each_intent_makes_its_edit_with_its_safety[Rename-{NEW_LINT_CODE}]",
        "test_the_examples_show_every_intent_and_every_code_the_corpus_fixes",
        "test_the_docs_table_of_fixes_is_the_intents",
    ):
        assert f"tests/fix/test_fix_intents.py::{ran} PASSED" in out, ran


NEW_FORMAT = "compact"
NEW_FORMAT_MODULE = '''"""``--format compact``: ``path:line:column: CODE message``, one a line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from holodeck_mt.text.safe_text import display_path, escape, guard_lines

if TYPE_CHECKING:
    from holodeck_mt.model import FileResult


def render(results: Sequence[FileResult], stream: TextIO) -> None:
    for result in results:
        path = escape(display_path(result.path))
        for d in result.diagnostics:
            line = f"{path}:{d.line}:{d.column}: {d.code} {escape(d.message)}"
            stream.write(guard_lines(line) + "\\n")
'''


@pytest.mark.slow  # copies the checkout and runs a test selection in it
@pytest.mark.recipe
def test_a_new_output_format_is_its_module_a_table_line_and_the_goldens_make_writes(
    copy: Path, tmp_path: Path
) -> None:
    before = _digests(copy)
    module = f"holodeck_mt/render/{NEW_FORMAT}.py"
    (copy / module).write_text(NEW_FORMAT_MODULE, encoding="utf-8")
    table = copy / "holodeck_mt" / "render" / "__init__.py"
    source = table.read_text(encoding="utf-8")
    line = '    "markdown": "markdown",\n'
    assert line in source, "the format table no longer reads as the recipe says"
    table.write_text(
        source.replace(line, f'{line}    "{NEW_FORMAT}": "{NEW_FORMAT}",\n', 1), encoding="utf-8"
    )
    _make(copy, "goldens")
    _make(copy, "docs")
    goldens = {
        n
        for n in _digests(copy)
        if n.startswith("tests/golden/expected/") and n.endswith(f".{NEW_FORMAT}")
    }
    assert goldens, "`make goldens` wrote no golden for the new format"
    written = {module, "holodeck_mt/render/__init__.py", *goldens}
    assert _changed(before, _digests(copy)) == {*written, "docs/usage.md"}  # `make docs`
    row = "| `compact` | ``path:line:column: CODE message``, one a line. |"
    assert row in (copy / "docs" / "usage.md").read_text(encoding="utf-8")
    golden = copy / "tests/golden/expected" / f"several-faults.{NEW_FORMAT}"
    assert "tests/golden/inputs/several-faults.yaml:" in golden.read_text(encoding="utf-8")
    reading = _tests_reading(copy, r"holodeck_mt\.render|holodeck_mt import render|update_goldens")
    assert "tests/render/test_golden.py" in reading
    _pytest(copy, tmp_path / "runs", "-q", "-m", "not slow", *reading)
    # The suites that run every format on hostile input (slow ones among them), for this one.
    every_format = _tests_reading(copy, r"\bFORMATS\b")
    assert "tests/hostile/test_escaping.py" in every_format
    out = _pytest(copy, tmp_path / "formats", "-q", "-k", NEW_FORMAT, *every_format)
    assert "deselected" in out


NEW_PLATFORM = "0.9.3"
#: What `make schema` stamps a new platform release into, beside urls.py itself.
PLATFORM_STAMPED = {"Makefile", "action.yml", "README.md", "docs/ci.md", "docs/verdict.md"}


@pytest.mark.slow  # copies the checkout and runs a test selection in it
@pytest.mark.recipe
def test_a_new_platform_version_is_one_constant_and_make_schema(copy: Path, tmp_path: Path) -> None:
    before = _digests(copy)
    constants = copy / "holodeck_mt" / "urls.py"
    source = constants.read_text(encoding="utf-8")
    line = f'PLATFORM_VERSION = "{urls.PLATFORM_VERSION}"\n'
    assert source.count(line) == 1, "urls.py no longer reads as the recipe says"
    constants.write_text(source.replace(line, f'PLATFORM_VERSION = "{NEW_PLATFORM}"\n'))
    _make(copy, "schema")
    assert _changed(before, _digests(copy)) == {"holodeck_mt/urls.py", *PLATFORM_STAMPED}
    for name in PLATFORM_STAMPED:
        text = (copy / name).read_text(encoding="utf-8")
        assert NEW_PLATFORM in text and urls.PLATFORM_VERSION not in text.replace(
            f"such as '{urls.PLATFORM_VERSION}'",
            "",  # the action's example of a version
        ), name
    _make(copy, "schema-check")
    reading = _tests_reading(copy, r"\bPLATFORM_VERSION\b")
    assert "tests/test_action.py" in reading
    # The differential test needs the release installed (`make test` installs it), and this
    # module would follow the recipe again: both left out.
    left_out = {"tests/platform/test_platform_verdicts.py", "tests/test_contributing.py"}
    _pytest(copy, tmp_path / "fast", "-q", "-m", "not slow", *sorted(set(reading) - left_out))
    # The action's install step (run with a stand-in python) installs the new release.
    _pytest(copy, tmp_path / "action", "-q", "-k", "platform", "tests/test_action.py")


NEW_VERSION = "0.99.0"


@pytest.mark.slow  # copies the checkout and runs a test selection in it
@pytest.mark.recipe
def test_a_release_bumps_one_version_and_make_schema_stamps_every_pin(
    copy: Path, tmp_path: Path
) -> None:
    pinned = {
        page.relative_to(ROOT).as_posix()
        for page in stamp_urls.pinned_pages(ROOT)
        if stamp_urls.PIN.search(page.read_text(encoding="utf-8"))
    }
    assert "README.md" in pinned and "docs/ci.md" in pinned
    before = _digests(copy)
    init = copy / "holodeck_mt" / "__init__.py"
    line = f'__version__ = "{__version__}"\n'
    assert init.read_text(encoding="utf-8").count(line) == 1
    init.write_text(
        init.read_text(encoding="utf-8").replace(line, f'__version__ = "{NEW_VERSION}"\n')
    )
    changelog = copy / "CHANGELOG.md"
    entries = changelog.read_text(encoding="utf-8")
    assert entries.count("\n## Unreleased\n") == 1
    changelog.write_text(
        entries.replace("\n## Unreleased\n", f"\n## Unreleased\n\n## {NEW_VERSION}\n")
    )
    _make(copy, "schema")
    assert _changed(before, _digests(copy)) == {"holodeck_mt/__init__.py", "CHANGELOG.md", *pinned}
    assert f"holodeck-mt@v{NEW_VERSION}" in (copy / "README.md").read_text(encoding="utf-8")
    _make(copy, "schema-check")
    reading = _tests_reading(copy, r"\b__version__\b")
    assert "tests/test_version.py" in reading and "tests/test_readme_snippets.py" in reading
    # `make dist` is tests/app/test_installed_package.py's (it builds and installs both).
    _pytest(copy, tmp_path / "runs", "-q", "-m", "not slow", *reading)
