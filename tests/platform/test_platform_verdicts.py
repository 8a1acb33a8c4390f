"""Differential test: the validator's verdict is the platform's, except the documented deviations.

The platform (``holodeck-ai``, see ``tests/platform_oracle.py``) judges every
fixture, example, real sample and every document of ``scripts/platform_corpus.py``;
the validator must call a document valid (no error) exactly when the platform
loads it, except where the README's deviations table says otherwise. The
agreement figure is printed, whatever pytest captures.

``response_path`` is validated by the platform's ``holodeck.lib.evaluators.response_path``,
whose package ``__init__`` imports deepeval (not installed): the oracle loads that
subpackage without running its ``__init__`` (``platform_oracle._evaluators_without_init``).
"""

from __future__ import annotations

import math
import os
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from holodeck_mt import validate_file, validate_text
from holodeck_mt.model import Diagnostic, FileResult
from tests import platform_oracle as oracle
from tests.conftest import FIXTURES, ROOT, load_script, sample_files, unavailable

#: Seconds, not milliseconds: left out of ``make test-fast``.
pytestmark = pytest.mark.slow

corpus = load_script("platform_corpus")

_ENV_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _require_platform() -> None:
    problem = oracle.available()
    if problem is None:
        return
    unavailable(
        f"holodeck-ai {oracle.PLATFORM_VERSION} is not importable ({problem}); "
        "`make test` installs it into .venv."
    )


@contextmanager
def _environment(variables: Mapping[str, str]) -> Iterator[dict[str, str]]:
    """os.environ without the corpus's own variables, plus ``variables``."""
    saved = dict(os.environ)
    base = {k: v for k, v in saved.items() if not k.startswith("HMT_ORACLE_")}
    os.environ.clear()
    os.environ.update({**base, **variables})
    try:
        yield dict(os.environ)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _errors(results: list[FileResult]) -> list[Diagnostic]:
    return [d for r in results for d in r.diagnostics if d.severity == "error"]


def _ours(text: str, referenced: Mapping[str, str]) -> list[FileResult]:
    if not referenced:
        return [validate_text(text, path="agent.yaml")]
    with tempfile.TemporaryDirectory(prefix="ours-") as folder:
        for name, content in referenced.items():
            (Path(folder) / name).write_text(content, encoding="utf-8")
        agent = Path(folder) / "agent.yaml"
        agent.write_text(text, encoding="utf-8")
        return validate_file(agent)


# --- the documented deviations (README, "What the verdict means") -------------


def _at(data: Any, pointer: str) -> Any:
    node = data
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return _Missing
    return node


class _Missing:
    pass


def _deviation_of(error: Diagnostic, data: Any) -> str | None:
    """Which documented deviation an error of ours is, on a file the platform loads."""
    pointer = error.pointer
    value = _at(data, pointer)
    if error.code == "HMT002":
        return "duplicate key"
    if error.code == "HMT109" or (isinstance(value, float) and not math.isfinite(value)):
        return ".nan / .inf"
    if error.code == "HMT003" and "/args" in pointer:
        return "non-string args key"
    if error.code in ("HMT120", "HMT004") and pointer.endswith("/prompt_file"):
        return "prompt_file not read"
    if isinstance(value, (bytes, set)):
        return "!!binary / !!set value"
    if value == "" and re.search(r"/expected_tools/\d+$", pointer):
        return 'bare "" tool name'
    if value == "" and re.search(r"/evaluation_steps/\d+$", pointer):
        return "empty evaluation step"
    if value == "" and re.search(r"/evaluations?(/metrics)?/\d+/name$", pointer):
        return "empty metric name"
    if value == "" and pointer.endswith(("/path", "/url")):
        return "empty path or url beside the other"
    if (
        error.code == "HMT107"
        and isinstance(value, dict)
        and "" in (value.get("path"), value.get("url"))
    ):
        return "empty path or url beside the other"
    return None


def deviation(
    text: str, referenced: Mapping[str, str], verdict: oracle.Verdict, results: list[FileResult]
) -> str | None:
    """The documented deviation that explains a disagreement, or None."""
    if not verdict.loads:
        warned = {d.code for r in results for d in r.diagnostics}
        if "Environment variable" in verdict.reason and "HMT213" in warned:
            return "unset ${NAME}"
        return None
    errors = _errors(results)
    try:
        documents = [yaml.safe_load(text), *(yaml.safe_load(c) for c in referenced.values())]
    except yaml.YAMLError:
        return None
    kinds = set()
    for error in errors:
        found = None
        for data in documents:
            found = found or _deviation_of(error, data)
        if found is None:
            return None
        kinds.add(found)
    return ", ".join(sorted(kinds)) or None


# --- the corpus ---------------------------------------------------------------


def _judge_all() -> tuple[Counter[str], list[str]]:
    tally: Counter[str] = Counter()
    disagreements: list[str] = []
    for variant in corpus.corpus():
        if variant.environ or "${" in variant.text:
            with _environment(variant.environ) as environ:
                verdict = oracle.judge(variant.text, referenced=variant.referenced, environ=environ)
                results = _ours(variant.text, variant.referenced)
        else:  # nothing to substitute: the environment does not matter
            verdict = oracle.judge(variant.text, referenced=variant.referenced)
            results = _ours(variant.text, variant.referenced)
        valid = not _errors(results)
        if valid == verdict.loads:
            tally["agree"] += 1
            continue
        why = deviation(variant.text, variant.referenced, verdict, results)
        if why is not None:
            tally[f"deviation: {why}"] += 1
            continue
        tally["disagree"] += 1
        ours = "; ".join(f"{d.code} {d.path} {d.message}" for d in _errors(results))
        disagreements.append(
            f"{variant.id}: platform {'loads' if verdict.loads else 'fails'}"
            f" ({verdict.reason}); validator {'valid' if valid else 'errors: ' + ours[:300]}"
        )
    return tally, disagreements


def test_corpus_has_at_least_5000_documents_covering_every_family() -> None:
    variants = corpus.corpus()
    assert len(variants) >= 5000
    families = {v.id.split("=", 1)[1].split(":", 1)[0] for v in variants if "=" in v.id}
    assert set(corpus.FAMILIES) <= families


def test_validator_agrees_with_the_platform_on_the_corpus(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _require_platform()
    tally, disagreements = _judge_all()
    total = sum(tally.values())
    agreed = total - tally["disagree"]
    with capsys.disabled():
        print(
            f"\nplatform verdicts (holodeck-ai {oracle.PLATFORM_VERSION}): {total} documents, "
            f"{tally['agree']} the same verdict, "
            f"{agreed - tally['agree']} documented deviations, {tally['disagree']} disagreements "
            f"({100 * agreed / total:.2f}% agreement)"
        )
        for key, count in sorted(tally.items()):
            if key.startswith("deviation"):
                print(f"  {key}: {count}")
    assert not disagreements, "\n".join(disagreements[:60]) + f"\n({len(disagreements)} in all)"


# --- fixtures, examples, real samples ----------------------------------------


def _files() -> list[Path]:
    found = sorted(FIXTURES.rglob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))
    found += sample_files("agent.y*ml")
    # A test-cases file is judged through the agent.yaml that names it.
    return [p for p in found if not _named_by_an_agent(p)]


def _named_by_an_agent(path: Path) -> bool:
    for agent in path.parent.glob("*.yaml"):
        if agent != path and f"test_cases_file: {path.name}" in agent.read_text(errors="replace"):
            return True
    return "/data/" in path.as_posix() and path.name != "agent.yaml"


def _options(path: Path) -> list[str]:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("# options:"):
            return line.split(":", 1)[1].split()
    return []


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(p.parents[2])))
def test_validator_agrees_with_the_platform_on_every_fixture_example_and_sample(
    path: Path,
) -> None:
    _require_platform()
    if _options(path):
        pytest.skip("judged with an opt-in option (graders imported, files checked)")
    text = path.read_bytes().decode("utf-8", errors="replace")
    # Every variable a real file names is set, as it is when the platform runs it.
    variables = {name: "https://example.org/value" for name in _ENV_VAR.findall(text)}
    with _environment(variables) as environ:
        verdict = oracle.judge_file(path, environ=environ, whole=_an_agent(text))
        results = validate_file(path)
    valid = not _errors(results)
    if valid == verdict.loads:
        return
    referenced: dict[str, str] = {}
    why = deviation(text, referenced, verdict, results)
    assert why is not None, (
        f"platform {'loads' if verdict.loads else 'fails'} ({verdict.reason}); validator "
        + ("valid" if valid else "errors: " + "; ".join(d.message for d in _errors(results)))
    )


def _an_agent(text: str) -> bool:
    """Whether the platform judges the document whole: an agent configuration (with a
    ``model`` or ``instructions``); else, as the validator does, as an agent's test cases."""
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError):  # what the platform cannot load is judged as it is
        return False
    return isinstance(data, dict) and ("model" in data or "instructions" in data)


def _samples() -> list[Path]:
    return sample_files("agent.y*ml")


@pytest.mark.parametrize("path", _samples(), ids=lambda p: str(p.relative_to(p.parents[2])))
def test_a_real_sample_loads_through_the_platforms_own_entry_point_as_the_oracle_says(
    path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``ConfigLoader.load_agent_yaml`` itself, nothing replaced, on the real samples."""
    _require_platform()
    from holodeck.config.loader import ConfigLoader

    monkeypatch.setenv("HOME", str(tmp_path))  # no user config merged in
    monkeypatch.setattr(sys, "path", list(sys.path))  # it adds the agent's folder
    text = path.read_text(encoding="utf-8")
    for name in _ENV_VAR.findall(text):
        monkeypatch.setenv(name, "https://example.org/value")
    ConfigLoader().load_agent_yaml(str(path))
    assert oracle.judge_file(path).loads
    assert not _errors(validate_file(path))


# --- whole agent.yaml documents: the platform's own sections --------------------

#: `make platform-verdicts` judges every whole-agent document; `make test` a slice.
_FULL = os.environ.get("HOLODECK_MT_PLATFORM_VERDICTS") == "all"
_SLICE = 1 if _FULL else 4


def _field_of(loc: tuple[Any, ...], data: Any) -> tuple[Any, ...]:
    """The data path of the platform's first error (its ``loc`` without branch names)."""
    from holodeck_mt.contract import platform_models

    parts, _ = platform_models._located(loc, data)
    return parts


def _judge_whole() -> tuple[Counter[str], list[str], list[str]]:
    tally: Counter[str] = Counter()
    disagreements: list[str] = []
    misplaced: list[str] = []
    for variant in corpus.agent_corpus()[::_SLICE]:
        with _environment(variant.environ) as environ:
            verdict = oracle.judge(variant.text, environ=environ, whole=True)
            results = _ours(variant.text, variant.referenced)
        errors = _errors(results)
        if (not errors) == verdict.loads:
            tally["agree"] += 1
        elif deviation(variant.text, variant.referenced, verdict, results) is not None:
            tally["deviation"] += 1
        else:
            tally["disagree"] += 1
            ours = "; ".join(f"{d.code} {d.path} {d.message}" for d in errors)
            disagreements.append(
                f"{variant.id}: platform {'loads' if verdict.loads else 'fails'}"
                f" ({verdict.reason}); validator {'valid' if not errors else ours[:300]}"
            )
        if errors and not verdict.loads and verdict.loc:
            tally["both refuse, located"] += 1
            try:
                data = yaml.safe_load(_substituted(variant.text, environ))
            except yaml.YAMLError:
                data = None
            theirs = _field_of(verdict.loc, data)
            first = min(errors, key=Diagnostic.sort_key).pointer_parts
            if first == theirs or theirs[: len(first)] == first or first[: len(theirs)] == theirs:
                tally["same field"] += 1
            else:
                misplaced.append(f"{variant.id}: ours {first}, the platform's {theirs}")
    return tally, disagreements, misplaced


def _substituted(text: str, environ: Mapping[str, str]) -> str:
    return _ENV_VAR.sub(lambda m: environ.get(m.group(1), m.group(0)), text)


def test_validator_agrees_with_the_platform_on_whole_agent_documents(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each platform-owned section mutated, the platform loading the document as it is:
    the same verdict, and where both refuse, the same field first (or its parent)."""
    _require_platform()
    tally, disagreements, misplaced = _judge_whole()
    total = tally["agree"] + tally["deviation"] + tally["disagree"]
    located = tally["both refuse, located"]
    same = tally["same field"]
    with capsys.disabled():
        print(
            f"\nwhole agent.yaml verdicts (holodeck-ai {oracle.PLATFORM_VERSION}): {total} "
            f"documents{'' if _FULL else ' (a slice)'}, {tally['agree']} the same verdict, "
            f"{tally['deviation']} documented deviations, {tally['disagree']} disagreements; "
            f"first error on the platform's field on {same} of {located} "
            f"({100 * same / max(located, 1):.1f}%)"
        )
    assert not disagreements, "\n".join(disagreements[:60]) + f"\n({len(disagreements)} in all)"
    assert same >= 0.95 * located, "\n".join(misplaced[:40])
