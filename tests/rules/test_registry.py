"""The registry is the one list of codes, and adding a rule is one module and one line.

Every code written in the package is registered; every module of holodeck_mt/rules/
that has a check describes its rule and is registered once; a rule's module produces
exactly the codes its rule names (its fixtures and near misses are found by its code:
tests/rules/test_each_rule.py). A scratch rule added to a copy of the package
by one module and one registry line is validated, selected and listed in SARIF.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from holodeck_mt.contract.registry import schema_files
from holodeck_mt.contract.walker import CODES as CODES_KEYWORD
from holodeck_mt.contract.walker import subschemas
from holodeck_mt.model import severity
from holodeck_mt.rules.registry import CODES, REGISTRY, RULES
from holodeck_mt.rules.rule import Rule
from tests.conftest import ROOT

PACKAGE = ROOT / "holodeck_mt"
RULES_DIR = PACKAGE / "rules"
#: The modules of rules/ that are no rule: the context, the record, the list, the runner,
#: a shared plan.
NOT_RULES = {"__init__", "rule", "registry", "running", "runtime_plan"}
_LITERAL = re.compile(r"""["'](HMT\d{3})["']""")
_CODE = re.compile(r"HMT\d{3}")


def _produced(source: str) -> set[str]:
    """The codes passed to a call as its first argument or as ``code=`` (``Fault(...)``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id == "Rule"
        ):
            values = node.args[:1] + [k.value for k in node.keywords if k.arg == "code"]
            found |= {
                str(v.value)
                for v in values
                if isinstance(v, ast.Constant) and _CODE.fullmatch(str(v.value))
            }
    return found


def test_every_code_written_in_the_package_is_registered() -> None:
    written: dict[str, set[str]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        for code in _LITERAL.findall(path.read_text(encoding="utf-8")):
            written[code].add(path.relative_to(PACKAGE).as_posix())
    assert {code: sorted(where) for code, where in written.items() if code not in CODES} == {}


def test_codes_and_names_are_unique() -> None:
    assert len(CODES) == len(REGISTRY)
    names = [entry.name for entry in REGISTRY]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name) for name in names)


def test_a_codes_severity_is_told_by_its_number() -> None:
    """0xx and 1xx are errors, 2xx and 3xx warnings, in the registry and in a diagnostic."""
    shown = {code: CODES[code].severity for code in ("HMT001", "HMT120", "HMT201", "HMT302")}
    assert shown == {"HMT001": "error", "HMT120": "error", "HMT201": "warning", "HMT302": "warning"}
    assert [severity(code) for code in shown] == list(shown.values())


def test_every_module_of_rules_is_a_registered_rule() -> None:
    modules = sorted(p.stem for p in RULES_DIR.glob("*.py") if p.stem not in NOT_RULES)
    registered = sorted(rule.check.__module__.rsplit(".", 1)[-1] for rule in RULES)
    assert registered == modules


def test_a_rules_module_produces_exactly_the_codes_its_rule_names() -> None:
    for rule in RULES:
        module = rule.check.__module__.rsplit(".", 1)[-1]
        source = (RULES_DIR / f"{module}.py").read_text(encoding="utf-8")
        assert _produced(source) == set(rule.codes), module


def test_every_rule_is_documented_by_its_module_and_an_example() -> None:
    for rule in RULES:
        assert rule.documentation.startswith(rule.code), rule.code
        assert (ROOT / "docs" / "examples" / f"{rule.code}.yaml").is_file(), rule.code


def test_an_opt_in_rule_names_its_option_and_flag() -> None:
    from holodeck_mt.selection import Options

    for rule in RULES:
        if rule.runs == "opt-in":
            assert hasattr(Options(), rule.option) and rule.flag.startswith("--"), rule.code
        else:
            assert (rule.option, rule.flag) == ("", ""), rule.code


def test_a_code_the_schema_gives_a_node_is_registered_and_no_rule() -> None:
    for schema in schema_files().values():
        for _, node in subschemas(schema):
            for code in node.get(CODES_KEYWORD, {}).values():
                assert not isinstance(CODES[code], Rule), code


SCRATCH = '''"""HMT399: a scratch rule, to show that a rule is one module and one registry line."""

from __future__ import annotations

from collections.abc import Iterator

from holodeck_mt.model import Fault
from holodeck_mt.rules import Context
from holodeck_mt.rules.rule import Rule


def check(context: Context) -> Iterator[Fault]:
    if isinstance(context.data, dict) and "name" in context.data:
        yield Fault("HMT399", "the agent has a name", ("name",))


RULE = Rule(
    code="HMT399",
    name="scratch-rule",
    description="An agent with a name.",
    check=check,
)
'''


@pytest.mark.slow
def test_a_scratch_rule_is_one_module_and_one_registry_line(tmp_path: Path) -> None:
    shutil.copytree(PACKAGE, tmp_path / "holodeck_mt", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "schema", tmp_path / "schema")
    (tmp_path / "holodeck_mt" / "rules" / "scratch.py").write_text(SCRATCH, encoding="utf-8")
    registry = tmp_path / "holodeck_mt" / "rules" / "registry.py"
    source = registry.read_text(encoding="utf-8")
    source = source.replace("    regex_compiles,\n", "    regex_compiles,\n    scratch,\n", 1)
    source = source.replace(
        "    fuzzy_unnormalised.RULE,\n", "    fuzzy_unnormalised.RULE,\n    scratch.RULE,\n", 1
    )
    registry.write_text(source, encoding="utf-8")
    agent = tmp_path / "agent.yaml"
    agent.write_text("name: a\ntest_cases:\n  - name: t\n    input: hi\n", encoding="utf-8")

    def run(*args: str) -> tuple[int, str]:
        done = subprocess.run(
            [sys.executable, "-m", "holodeck_mt", "validate", "-j", "1", *args, str(agent)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env={"PATH": "", "PYTHONPATH": str(tmp_path)},
            check=False,
        )
        return done.returncode, done.stdout + done.stderr

    code, out = run("--format", "json", "--isolated")
    assert code == 0 and [d["code"] for d in json.loads(out)["files"][0]["diagnostics"]] == [
        "HMT399"
    ]
    code, out = run("--format", "sarif", "--isolated", "--select", "HMT399")
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    assert [(r["id"], r["name"]) for r in rules] == [("HMT399", "scratch-rule")]
    code, out = run("--format", "json", "--isolated", "--ignore", "HMT3")
    assert json.loads(out)["files"][0]["diagnostics"] == []
