"""A folder search finds HoloDeck's files by content, and every file is validated once.

The scratch repository holds what a real one does: agent.yaml files (one with inline
test cases, one naming ``data/convfinqa.yaml``), a test-cases file no agent names,
another ``data/*.yaml`` test-cases file, and the non-HoloDeck YAML of
``tests/not_holodeck`` (CI workflows, compose, Kubernetes, OpenAPI, HoloDeck's own
config.yaml, ...). Each of the four faults is reported once, in every format, and
nothing is said about the other YAML files.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_mt.app.cli import main
from holodeck_mt.project import discovery
from holodeck_mt.render import FORMATS
from tests.conftest import ROOT, SAMPLES, RunJson

NOT_HOLODECK = ROOT / "tests" / "not_holodeck"

SUPPORT_AGENT = """\
name: support
model: {provider: openai, name: gpt-4o}
test_cases:
  - name: refund
    input: "Can I get a refund?"
    ground_truth: 14.10
instructions: {inline: Answer the customer.}
"""

FINANCE_AGENT = """\
name: finance
model: {provider: openai, name: gpt-4o}
test_cases_file: data/convfinqa.yaml
instructions: {inline: Answer the analyst.}
"""

CONVFINQA = """\
- name: convfinqa-0
  turns:
    - input: "what is the difference?"
      ground_truth: 25587
"""

ROUTING = """\
test_cases:
  - name: route-billing
    input: "My invoice is wrong"
    expected_tools: [route_to_billing]
    ground_truth: billing
  - name: route-tech
    input: "The app crashes"
    expected_tool: [route_to_support]
"""

EXTRA = """\
- name: extra-0
  turns:
    - input: "hello"
      ground_truth: "hi"
      files: {path: a.pdf}
"""

#: Each fault of the scratch repository: (file, line, code).
FAULTS = [
    ("agents/finance/data/convfinqa.yaml", 4, "HMT102"),
    ("agents/support/agent.yaml", 6, "HMT102"),
    ("data/extra.yaml", 5, "HMT102"),
    ("tests/routing.yaml", 8, "HMT100"),
]
HOLODECK_FILES = sorted(
    ["agents/finance/agent.yaml", *(f for f, _, _ in FAULTS)],
)


def make_repository(root: Path) -> Path:
    """The scratch repository: HoloDeck's files among a dozen others."""
    shutil.copytree(NOT_HOLODECK, root, dirs_exist_ok=True)
    files = {
        "agents/support/agent.yaml": SUPPORT_AGENT,
        "agents/finance/agent.yaml": FINANCE_AGENT,
        "agents/finance/data/convfinqa.yaml": CONVFINQA,
        "tests/routing.yaml": ROUTING,
        "data/extra.yaml": EXTRA,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def found_by_content(path: Path) -> bool:
    """Whether a search of its folder takes ``path`` (a YAML file, not an agent file)."""
    return path in set(discovery.search(path.parent))


def _not_holodeck_files() -> list[Path]:
    return sorted(p for p in NOT_HOLODECK.rglob("*") if p.is_file() and discovery.is_yaml_file(p))


def test_the_other_yaml_files_are_a_dozen_and_more() -> None:
    assert len(_not_holodeck_files()) >= 12


@pytest.mark.parametrize(
    "path", _not_holodeck_files(), ids=lambda p: p.relative_to(NOT_HOLODECK).as_posix()
)
def test_a_yaml_file_that_holds_no_test_cases_is_not_a_holodeck_file(path: Path) -> None:
    assert not found_by_content(path)


@pytest.mark.parametrize(
    "text",
    [
        "test_cases: []\n",
        "name: a\nmodel: {provider: openai}\ntest_cases_file: cases.yaml\n",
        "- input: hi\n",
        "- {turns: [{input: hi}]}\n",
        "- just a string\n- name: x\n  input: hi\n",
        "# comment\n---\ntest_cases:\n  - input: hi\n",
        "- name: x\n\tinput: hi\n",  # a tab: the YAML breaks before it tells; the lines do
        '- name: x\n  input: "unclosed\n',
        "\ufefftest_cases:\n  - input: \ud800\n",  # a mark, then bytes that do not decode
    ],
)
def test_a_file_holding_test_cases_is_found_whatever_its_name(tmp_path: Path, text: str) -> None:
    path = tmp_path / "whatever.yml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert found_by_content(path)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "just text\n",
        "- 1\n- 2\n",
        "- name: x\n  inputs: {a: 1}\n",
        "jobs:\n  test:\n    test_cases: []\n",
        "[1, {inputs: hi}\n",  # broken, and no line looks like a test case
    ],
)
def test_a_file_without_test_cases_at_its_top_level_is_not(tmp_path: Path, text: str) -> None:
    path = tmp_path / "other.yaml"
    path.write_text(text, encoding="utf-8")
    assert not found_by_content(path)


def _faults(document: dict[str, object], root: Path) -> list[tuple[str, int, str]]:
    files = document["files"]
    assert isinstance(files, list)
    return sorted(
        (Path(f["path"]).resolve().relative_to(root.resolve()).as_posix(), d["line"], d["code"])
        for f in files
        for d in f["diagnostics"]
    )


def _paths(document: dict[str, object], root: Path) -> list[str]:
    files = document["files"]
    assert isinstance(files, list)
    return sorted(Path(f["path"]).resolve().relative_to(root.resolve()).as_posix() for f in files)


def test_a_folder_search_reports_each_fault_once_and_nothing_else(
    tmp_path: Path, run_json: RunJson
) -> None:
    root = make_repository(tmp_path / "repo")
    code, document = run_json(str(root))
    assert code == 1
    assert _faults(document, root) == FAULTS
    assert _paths(document, root) == HOLODECK_FILES


def test_a_file_named_and_found_and_followed_is_validated_once(
    tmp_path: Path, run_json: RunJson
) -> None:
    # pre-commit --all-files names every file; the folder finds them again; the
    # finance agent names its data file a third time.
    root = make_repository(tmp_path / "repo")
    named = [str(root / f) for f in HOLODECK_FILES]
    code, document = run_json(str(root), *named, str(root / "data" / ".." / "data" / "extra.yaml"))
    assert code == 1
    assert _faults(document, root) == FAULTS
    assert _paths(document, root) == HOLODECK_FILES
    assert document["summary"]["files"] == len(HOLODECK_FILES)
    assert document["summary"]["errors"] == len(FAULTS)


def test_a_test_cases_file_is_validated_through_the_agent_that_names_it(
    tmp_path: Path, run_json: RunJson
) -> None:
    root = make_repository(tmp_path / "repo")
    data = str(root / "agents/finance/data/convfinqa.yaml")
    code, document = run_json(data, str(root / "agents/finance/agent.yaml"))
    assert code == 1
    # Reached through its agent.yaml, shown where the agent.yaml points.
    assert [f["path"] for f in document["files"]] == [
        str(root / "agents/finance/agent.yaml"),
        data,
    ]


def test_two_agents_naming_one_file_validate_it_once(
    tmp_path: Path, run_json: RunJson, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # ../cases.yaml must lie in the tree: the working directory
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "cases.yaml").write_text(CONVFINQA, encoding="utf-8")
    for name in ("a", "b"):
        text = FINANCE_AGENT.replace("data/convfinqa.yaml", "../cases.yaml")
        (tmp_path / name / "agent.yaml").write_text(text, encoding="utf-8")
    code, document = run_json(str(tmp_path))
    assert code == 1
    assert _faults(document, tmp_path) == [("cases.yaml", 4, "HMT102")]


def test_a_folder_holding_only_test_cases_files_is_validated(
    tmp_path: Path, run_json: RunJson
) -> None:
    (tmp_path / "cases.yaml").write_text(CONVFINQA, encoding="utf-8")
    (tmp_path / "ci.yml").write_text("on: push\njobs: {}\n", encoding="utf-8")
    code, document = run_json(str(tmp_path))
    assert code == 1
    assert _faults(document, tmp_path) == [("cases.yaml", 4, "HMT102")]


def test_by_content_skips_a_named_file_that_holds_no_test_cases(
    tmp_path: Path, run_json: RunJson
) -> None:
    root = make_repository(tmp_path / "repo")
    others = [str(p) for p in sorted(root.rglob("*.y*ml")) if "agents" not in p.parts]
    code, document = run_json("--by-content", *others)
    assert code == 1
    assert _paths(document, root) == ["data/extra.yaml", "tests/routing.yaml"]


@pytest.mark.parametrize(
    "name",
    [".github/workflows/ci.yml", "README.md", "config.yaml", "k8s/deployment.yaml"],
)
def test_a_named_file_a_search_passes_over_is_said_not_to_be_holodecks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """Judged as a folder search judges it, not as an agent.yaml with unknown keys."""
    monkeypatch.chdir(make_repository(tmp_path / "repo"))
    assert main(["validate", name, "data/extra.yaml", "--jobs", "1"]) == 2
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"holodeck-mt: error: '{name}' is not a HoloDeck agent.yaml or test-cases file: not "
        "validated (an agent.yaml is named agent.yaml or agent.yml; a test-cases file holds "
        "`test_cases`, or is a list of test cases with `input` or `turns`)"
    ]
    assert "unknown key" not in out and "data/extra.yaml:5:" in out  # the other is validated


def test_a_named_file_that_is_empty_or_a_string_is_validated_and_says_what_it_is(
    tmp_path: Path, run_json: RunJson
) -> None:
    (tmp_path / "empty.yaml").write_text("# nothing yet\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text("# Notes\n\nSome prose.\n", encoding="utf-8")
    code, document = run_json(str(tmp_path / "empty.yaml"), str(tmp_path / "notes.md"))
    assert code == 1
    assert [[d["code"] for d in f["diagnostics"]] for f in document["files"]] == [
        ["HMT006"],
        ["HMT006"],
    ]


def test_a_link_out_of_the_folder_is_not_read_by_the_search(
    tmp_path: Path, run_json: RunJson
) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text(CONVFINQA, encoding="utf-8")
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "cases.yaml").write_text(CONVFINQA, encoding="utf-8")
    (tmp_path / "repo" / "link.yaml").symlink_to(outside)
    _, document = run_json(str(tmp_path / "repo"))
    assert [Path(f["path"]).name for f in document["files"]] == ["cases.yaml"]


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_each_fault_appears_once_in_every_format(tmp_path: Path, fmt: str) -> None:
    root = make_repository(tmp_path / "repo")
    named = [str(root / f) for f in HOLODECK_FILES]
    done = subprocess.run(
        [sys.executable, "-m", "holodeck_mt", "validate", "--format", fmt, ".", *named],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    out = done.stdout
    for path, line, code in FAULTS:
        name = Path(path).name
        if fmt == "text":
            hits = out.count(f"{path}:{line}:")
        elif fmt == "json":
            hits = sum(
                d["code"] == code and d["line"] == line and f["path"].endswith(name)
                for f in json.loads(out)["files"]
                for d in f["diagnostics"]
            )
        elif fmt == "github":
            hits = sum(f"file={path},line={line}," in row for row in out.splitlines())
        elif fmt == "sarif":
            hits = sum(
                r["ruleId"] == code
                and r["locations"][0]["physicalLocation"]["region"]["startLine"] == line
                and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(name)
                for r in json.loads(out)["runs"][0]["results"]
            )
        elif fmt == "markdown":
            hits = out.count(f"| {path}\\:{line}\\:")
        else:
            hits = out.count(f"{path}:{line}:")
        assert hits == 1, (fmt, path, line, out[-4000:])
    for other in _not_holodeck_files():
        assert other.relative_to(NOT_HOLODECK).as_posix() not in out


@pytest.mark.usefixtures("samples")
def test_the_real_samples_data_file_no_agent_names_is_found_and_validated(
    run_json: RunJson,
) -> None:
    code, document = run_json(str(SAMPLES))
    assert code == 0
    paths = [f["path"] for f in document["files"]]
    assert sum(p.endswith("claude/data/convfinqa_subset.yaml") for p in paths) == 1
    assert len(paths) == len({discovery.same_file_key(p) for p in paths})


def test_the_command_line_default_is_still_agent_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["validate"]) == 2
    assert "cannot read 'agent.yaml'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "holds"),
    [
        ("- name: a\n  inptu: hi\n- name: b\n  inptu: ho\n", True),
        ("- turn:\n    - input: x\n", True),
        ("- inptu: hi\n", True),
        ("- name: a\n  imput: hi\n  runs-on: x\n", False),  # a key no test case has
        ("- name: a\n  inputs: hi\n", False),  # another word, not a misspelling
        ("- name: a\n  image: x\n", False),
        ("- inp: hi\n", False),  # too short to be a misspelling
    ],
)
def test_a_list_of_cases_misspelling_input_is_a_test_cases_file(
    tmp_path: Path, text: str, holds: bool
) -> None:
    (tmp_path / "cases.yaml").write_text(text, encoding="utf-8")
    assert found_by_content(tmp_path / "cases.yaml") is holds


def test_a_folder_of_cases_misspelling_input_is_validated_with_did_you_mean(
    tmp_path: Path, run_json: RunJson
) -> None:
    (tmp_path / "cases.yaml").write_text("- name: a\n  inptu: hi\n", encoding="utf-8")
    code, document = run_json(str(tmp_path), "--no-cache")
    assert code == 1
    (found,) = document["files"]
    (d,) = found["diagnostics"]
    assert (d["code"], d["line"], d["test_case"], d["hint"]) == (
        "HMT100",
        2,
        "a",
        "did you mean 'input'?",
    )


@pytest.mark.parametrize(
    ("written", "follows"),
    [
        ("test_cases:\n", True),
        ("test_cases: null\n", True),
        ("test_cases: ~\n", True),
        ("test_cases: []\n", False),
        ('test_cases: ""\n', False),
        ("test_cases: [{input: hi}]\n", False),
    ],
)
def test_a_null_test_cases_beside_the_file_is_none_written(
    tmp_path: Path, written: str, follows: bool
) -> None:
    """As the platform: `test_cases: null` is no test cases, and the file is followed."""
    agent = tmp_path / "agent.yaml"
    agent.write_text(f"name: a\n{written}test_cases_file: cases.yaml\n", encoding="utf-8")
    target = discovery.agent_target(agent)
    assert (target == tmp_path / "cases.yaml") if follows else target is None


def test_the_files_an_agent_yaml_names_come_last_whatever_they_are_called(
    tmp_path: Path,
) -> None:
    """Both validate and fix check a named test-cases file after the rest (through its
    agent.yaml): one order, whichever spelling of the path was given."""
    (tmp_path / "agent.yaml").write_text("name: a\ntest_cases_file: cases.yaml\n", "utf-8")
    (tmp_path / "cases.yaml").write_text("- input: hi\n", "utf-8")
    (tmp_path / "other.yaml").write_text("- input: hello\n", "utf-8")
    named = str(tmp_path / "sub" / ".." / "cases.yaml")
    (tmp_path / "sub").mkdir()
    files = [named, str(tmp_path / "agent.yaml"), str(tmp_path / "other.yaml")]
    first, later, targets = discovery.order_followed_last(files)
    assert first == files[1:]
    assert later == [named]
    assert targets == [tmp_path / "cases.yaml"]
