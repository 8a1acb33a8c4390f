"""--import-graders (HMT111), in process: what each grader that does not import reports.

tests/hostile/test_graders_isolated.py runs the isolation through a child process, as
CI does; these run the validator in the test's own process, where each module a
grader's folder loaded must be forgotten before the next folder's grader imports.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import RunJson

AGENT = (
    "evaluations:\n  metrics:\n    - type: code\n      grader: {grader}\n"
    "test_cases:\n  - input: hi\n"
)


def _folder(root: Path, name: str, grader: str, **modules: str) -> None:
    """``root/name`` holding an agent.yaml naming ``grader`` and the ``modules`` given."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "agent.yaml").write_text(AGENT.format(grader=grader), encoding="utf-8")
    for module, source in modules.items():
        path = folder / (module.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")


def _seen(document: dict[str, Any]) -> list[tuple[str, str, int, str]]:
    """(file, path, line, message) of each diagnostic, files in order."""
    return [
        (Path(f["path"]).parent.name, d["path"], d["line"], d["message"])
        for f in document["files"]
        for d in f["diagnostics"]
        if d["code"] == "HMT111"
    ]


def test_a_helper_module_one_grader_imported_is_forgotten_before_the_next_folder(
    tmp_path: Path, run_json: RunJson
) -> None:
    """Two folders whose graders import a ``helpers`` module of their own (a plain
    module, and a namespace package found only by its ``__path__``): each gets its own."""
    _folder(
        tmp_path,
        "one",
        "graders_of_one:grade",
        graders_of_one="from helpers_mt import grade\nfrom space_mt.first import also\n",
        helpers_mt="def grade(*args):\n    return 1.0\n",
        **{"space_mt.first": "def also():\n    return 1\n"},
    )
    _folder(
        tmp_path,
        "two",
        "graders_of_two:score",
        graders_of_two="from helpers_mt import score\nfrom space_mt.second import also\n",
        helpers_mt="def score(*args):\n    return 1.0\n",
        **{"space_mt.second": "def also():\n    return 2\n"},
    )
    code, document = run_json(str(tmp_path), "--import-graders")
    assert (code, _seen(document)) == (0, [])


def test_a_grader_whose_module_imports_a_missing_module_names_that_module(
    tmp_path: Path, run_json: RunJson
) -> None:
    _folder(tmp_path, "a", "grader_needing_mt:grade", grader_needing_mt="import nowhere_mt_x\n")
    code, document = run_json(str(tmp_path / "a" / "agent.yaml"), "--import-graders")
    assert code == 1
    assert _seen(document) == [
        (
            "a",
            "evaluations.metrics[0].grader",
            4,
            "grader 'grader_needing_mt:grade': module 'nowhere_mt_x' not found",
        )
    ]


def test_a_grader_raising_without_a_message_names_only_the_exception(
    tmp_path: Path, run_json: RunJson
) -> None:
    _folder(tmp_path, "a", "grader_silent_mt:grade", grader_silent_mt="raise RuntimeError()\n")
    code, document = run_json(str(tmp_path / "a" / "agent.yaml"), "--import-graders")
    assert code == 1
    assert [m for *_, m in _seen(document)] == [
        "grader 'grader_silent_mt:grade': importing 'grader_silent_mt' raised RuntimeError"
    ]


def test_a_grader_raising_a_long_message_is_quoted_to_120_characters(
    tmp_path: Path, run_json: RunJson
) -> None:
    long = "w" * 130
    _folder(
        tmp_path,
        "a",
        "grader_long_mt:grade",
        grader_long_mt=f"raise ValueError('{long}\\nsecond line')\n",
    )
    _, document = run_json(str(tmp_path / "a" / "agent.yaml"), "--import-graders")
    assert [m for *_, m in _seen(document)] == [
        f"grader 'grader_long_mt:grade': importing 'grader_long_mt' raised ValueError: {'w' * 119}…"
    ]


def test_a_grader_attribute_that_is_not_callable_says_so(tmp_path: Path, run_json: RunJson) -> None:
    _folder(tmp_path, "a", "grader_value_mt:grade", grader_value_mt="grade = 3\n")
    code, document = run_json(str(tmp_path / "a" / "agent.yaml"), "--import-graders")
    assert code == 1
    assert [m for *_, m in _seen(document)] == [
        "grader 'grader_value_mt:grade': 'grader_value_mt.grade' is not callable"
    ]
