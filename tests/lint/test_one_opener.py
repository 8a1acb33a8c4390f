"""One module opens the files of the judged tree: ``holodeck_mt/read/files.py``.

Read from the source with ``ast``: every call that opens or reads a file (``open``,
``os.open``, ``os.fdopen``, ``io.open``, any ``.open(``, ``.read_text(``, ``.read_bytes(``,
``io.FileIO``) sits in one of the functions listed below, each with why it may; a new one
elsewhere fails here, and so does a listed function that no longer opens anything.
"""

from __future__ import annotations

import ast

from tests.conftest import ROOT

PACKAGE = ROOT / "holodeck_mt"

#: The only functions that open a file, by module and function, and why they may.
ALLOWED: dict[tuple[str, str], str] = {
    ("read/files.py", "read"): "the opener: confined, regular, non-blocking, bounded",
    ("app/cache.py", "_secret"): "the cache's key, in the user's cache folder",
    ("app/cache.py", "_entry_folder"): "the cache's folders, never links",
    ("app/cache.py", "_read_own"): "a cache entry, never a link",
    ("app/cache.py", "_store"): "a cache entry written",
    ("app/cache.py", "_tool_state"): "package data: the schema files the key describes",
    ("contract/registry.py", "source_files"): "package data: the schema files",
    ("app/cli.py", "_schema"): "package data: the bundled schema printed",
    ("app/editor_setup.py", "init_editor"): "package data: the bundled schema copied",
    ("app/rule_docs.py", "text"): "package data: docs/diagnostics.md",
    ("app/cli.py", "_detach_stdout"): "os.devnull, standard output gone",
    ("rules/graders_import.py", "_silence"): "os.devnull, a grader's output discarded",
}

_OPENERS = {"open", "fdopen", "read_text", "read_bytes", "FileIO"}


def openings(source: str) -> list[tuple[str, int]]:
    """Each call in ``source`` that opens a file: its function's name, and its line."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = function or child.name  # a nested function counts as its outer one
            if isinstance(child, ast.Call):
                called = child.func
                name = called.attr if isinstance(called, ast.Attribute) else None
                name = called.id if isinstance(called, ast.Name) else name
                if name in _OPENERS:
                    found.append((inner or "<module>", child.lineno))
            if isinstance(child, ast.ImportFrom) and any(a.name in _OPENERS for a in child.names):
                found.append((inner or "<module>", child.lineno))  # `from os import open`
            visit(child, inner)

    visit(ast.parse(source), "")
    return found


def _package_openings() -> dict[tuple[str, str], list[int]]:
    found: dict[tuple[str, str], list[int]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        for function, line in openings(path.read_text(encoding="utf-8")):
            found.setdefault((module, function), []).append(line)
    return found


def test_only_the_listed_functions_open_files() -> None:
    found = _package_openings()
    strays = [f"holodeck_mt/{m}:{lines[0]} ({f})" for (m, f), lines in found.items()]
    strays = [s for (key, s) in zip(found, strays, strict=True) if key not in ALLOWED]
    assert not strays, "a file opened outside holodeck_mt/read/files.py: " + ", ".join(strays)


def test_every_listed_function_still_opens_a_file() -> None:
    stale = sorted(set(ALLOWED) - set(_package_openings()))
    assert not stale, f"listed but opening nothing, remove them: {stale}"


def test_each_way_of_opening_is_found() -> None:
    source = """
import os, io
from pathlib import Path
x = open("a")
def f():
    os.open("a", 0)
    def g():
        return Path("a").read_text()
def h():
    os.fdopen(3); io.open("a"); Path("a").read_bytes(); Path("a").open(); io.FileIO("a")
def k():
    from os import open
    len("a")
"""
    assert openings(source) == [
        ("<module>", 4),
        ("f", 6),
        ("f", 8),
        ("h", 10),
        ("h", 10),
        ("h", 10),
        ("h", 10),
        ("h", 10),
        ("k", 12),
    ]
