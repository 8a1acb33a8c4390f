"""Nothing of the tests, the benchmarks or the chores puts a folder on ``sys.path``.

Each imports what it needs as a module of the repository (``scripts.gen_docs``,
``tests.support.corpus``, ``bench.speed``), run from its root. Reading ``sys.path`` is
fine, and so is a test taking a copy of it to undo what the code under test adds (the
platform's loader puts the agent's folder there) and putting that copy back;
inserting, appending, assigning or removing anything else is not, nor is pytest's
``syspath_prepend``. A test whose subject is what the code does with ``sys.path`` (the
result cache keys on the distributions found there) says so on the line that changes it,
with the comment ``# sys.path under test``, and restores it as it ends.
"""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT

#: The folders whose Python files are checked.
CHECKED = ("tests", "bench", "scripts")
#: Ends a line whose change of ``sys.path`` is the input of the code under test.
UNDER_TEST = "# sys.path under test"
#: The methods of a list that change it.
MUTATORS = frozenset(
    {"append", "clear", "extend", "insert", "pop", "remove", "reverse", "sort"}
    | {"__setitem__", "__delitem__", "__iadd__"}
)


def _is_sys_path(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    )


def _is_copy_of_sys_path(node: ast.AST) -> bool:
    """``list(sys.path)``, ``sys.path.copy()`` or ``sys.path[:]``."""
    if isinstance(node, ast.Call) and not node.keywords:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "list" and len(node.args) == 1:
            return _is_sys_path(node.args[0])
        if isinstance(func, ast.Attribute) and func.attr == "copy" and not node.args:
            return _is_sys_path(func.value)
    return (
        isinstance(node, ast.Subscript)
        and _is_sys_path(node.value)
        and isinstance(node.slice, ast.Slice)
        and node.slice.lower is node.slice.upper is node.slice.step is None
    )


def _names_sys_path(args: list[ast.expr]) -> bool:
    """``setattr(sys, "path", ...)`` or ``monkeypatch.setattr("sys.path", ...)``."""
    if args and isinstance(args[0], ast.Constant) and args[0].value == "sys.path":
        return True
    return (
        len(args) >= 2
        and isinstance(args[0], ast.Name)
        and args[0].id == "sys"
        and isinstance(args[1], ast.Constant)
        and args[1].value == "path"
    )


def _call_touches(node: ast.Call) -> bool:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if isinstance(func, ast.Attribute) and _is_sys_path(func.value):
        return name in MUTATORS
    if name in ("syspath_prepend", "addsitedir"):
        return True
    if name in ("setattr", "delattr") and _names_sys_path(node.args):
        value = node.args[-1]
        return name == "delattr" or len(node.args) < 2 or not _is_copy_of_sys_path(value)
    return False


def _target_touches(target: ast.AST) -> bool:
    return _is_sys_path(target) or (
        isinstance(target, ast.Subscript) and _is_sys_path(target.value)
    )


def _snapshots(tree: ast.AST) -> set[str]:
    """The names bound to a copy of ``sys.path`` (``saved = list(sys.path)``, or one name
    of a tuple assigned a tuple)."""
    names = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts, strict=False))
            names |= {t.id for t, v in pairs if isinstance(t, ast.Name) and _is_copy_of_sys_path(v)}
    return names


def _restores(node: ast.Assign, snapshots: set[str]) -> bool:
    """``sys.path[:] = saved``, where ``saved`` is a copy taken before: an undo."""
    return isinstance(node.value, ast.Name) and node.value.id in snapshots


def touches(source: str) -> list[int]:
    """The lines of ``source`` that change ``sys.path``."""
    tree = ast.parse(source)
    snapshots = _snapshots(tree)
    said = {n for n, line in enumerate(source.splitlines(), 1) if line.endswith(UNDER_TEST)}
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            hit = _call_touches(node)
        elif isinstance(node, ast.Assign):
            hit = any(_target_touches(t) for t in node.targets) and not _restores(node, snapshots)
        elif isinstance(node, ast.Delete):
            hit = any(_target_touches(t) for t in node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            hit = _target_touches(node.target)
        elif isinstance(node, ast.ImportFrom):
            hit = node.module == "sys" and any(a.name == "path" for a in node.names)
        else:
            continue
        if hit and node.lineno not in said:
            lines.append(node.lineno)
    return sorted(lines)


def test_no_test_benchmark_or_chore_changes_sys_path() -> None:
    sources = {
        path: path.read_text(encoding="utf-8")
        for folder in CHECKED
        for path in sorted((ROOT / folder).rglob("*.py"))
    }
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{line}"
        for path, source in sources.items()
        if "sys" in source or "addsitedir" in source  # the rest cannot name sys.path
        for line in touches(source)
    ]
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        "import sys\nsys.path.insert(0, 'scripts')\n",
        "import sys\nsys.path.append(str(ROOT))\n",
        "import sys\nsys.path.remove(folder)\n",
        "import sys\nsys.path = ['here', *sys.path]\n",
        "import sys\nsys.path[:0] = ['here']\n",
        "import sys\nextra = ['here']\nsys.path[:] = extra\n",
        "import sys\nsys.path += ['here']\n",
        "import sys\ndel sys.path[0]\n",
        "def test(monkeypatch):\n    monkeypatch.syspath_prepend('scripts')\n",
        "def test(monkeypatch):\n    monkeypatch.setattr(sys, 'path', ['scripts'])\n",
        "def test(monkeypatch):\n    monkeypatch.setattr('sys.path', ['scripts'])\n",
        "import site\nsite.addsitedir('scripts')\n",
        "from sys import path\n",
        f"import sys\n{UNDER_TEST}\nsys.path.append(str(site))\n",
    ],
)
def test_a_change_of_sys_path_is_found(source: str) -> None:
    assert touches(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "import sys\nentries = {*sys.path}\n",
        "import sys\nbefore = list(sys.path)\nassert sys.path == before\n",
        "import sys\nfor entry in sys.path:\n    print(entry)\n",
        "def test(monkeypatch):\n    monkeypatch.setattr(sys, 'path', list(sys.path))\n",
        "def test(monkeypatch):\n    monkeypatch.setattr(sys, 'path', sys.path[:])\n",
        "import sys\nsaved, cwd = list(sys.path), '.'\ntry:\n    pass\nfinally:\n"
        "    sys.path[:] = saved\n",
        "import os\nenv = {**os.environ, 'PYTHONPATH': str(ROOT)}\n",
        "import os\nfolder = os.path.join('a', 'b')\n",
        "paths = []\npaths.insert(0, 'scripts')\n",
        f"import sys\nsys.path.append(str(site))  {UNDER_TEST}\n",
    ],
)
def test_reading_sys_path_or_copying_it_is_no_change(source: str) -> None:
    assert touches(source) == []
