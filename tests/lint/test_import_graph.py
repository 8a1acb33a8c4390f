"""The package's layers: every import runs down the order below, and none closes a circle.

Read from the source with ``ast``: every import is an edge, whether at a module's top
level, under ``if TYPE_CHECKING`` (an annotation still names its layer) or inside a
function (a lazy import, for start-up time). ``from package import module`` is an edge to
the module; ``from package import name`` one to the package. A module may import its own
layer and those below it, never one above, and no chain of imports comes back to where it
started. No renderer reaches the YAML reader by any path.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "holodeck_mt"

#: The layers, bottom to top, each with the modules and folders it holds (a folder is a
#: layer). The one place the order is written; README's "How it is built" draws it.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("records", ("model", "limits", "selection", "urls")),
    ("text", ("text",)),
    ("read", ("read", "semantics", "layout")),
    ("wording", ("wording",)),
    ("contract", ("contract",)),
    ("rules", ("rules",)),
    ("locate", ("locate",)),
    ("pipeline", ("pipeline",)),
    ("render", ("render",)),
    ("project", ("project",)),
    ("front ends", ("explain", "fix", "lsp")),
    ("app", ("app", "", "__main__")),
)
#: The records every layer speaks: they import nothing of the package.
RECORDS = "holodeck_mt.model"
READERS = {
    "holodeck_mt.read.loader",
    "holodeck_mt.read.builder",
    "yaml",
}
#: The list of every code: its rule modules describe themselves beside their checks.
REGISTRY = "holodeck_mt.rules.registry"


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in PACKAGE.rglob("*.py")}


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module``'s layer: its longest prefix listed."""
    best, index = -1, -1
    for at, (_, members) in enumerate(LAYERS):
        for member in members:
            prefix = f"holodeck_mt.{member}" if member else "holodeck_mt"
            inside = module.startswith(prefix + ".") and bool(member)  # the root: itself
            if (module == prefix or inside) and len(prefix) > best:
                best, index = len(prefix), at
    assert index >= 0, f"{module} is in no layer: add it to LAYERS"
    return index


def _base(module: str, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` reads from, a relative one resolved."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".")
    if MODULES[module].name != "__init__.py":
        package = package[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, *([node.module] if node.module else [])])


def _imported(module: str, node: ast.AST) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if isinstance(node, ast.ImportFrom):
        base = _base(module, node)
        subs = {f"{base}.{alias.name}" for alias in node.names}
        modules = subs & MODULES.keys()
        return modules | ({base} if len(modules) < len(subs) else set())
    return set()


@cache
def imports(module: str) -> frozenset[str]:
    """Every name ``module`` imports anywhere in its source, but itself."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        found |= _imported(module, node)
    return frozenset(found - {module})


def graph() -> dict[str, set[str]]:
    return {module: set(imports(module) & MODULES.keys()) for module in MODULES}


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Each import that runs up the order: the importer, the imported, their layers."""
    found = []
    for module in sorted(edges):
        for other in sorted(edges[module]):
            below, above = layer_of(module), layer_of(other)
            if above > below:
                found.append(f"{module} ({LAYERS[below][0]}) imports {other} ({LAYERS[above][0]})")
    return found


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(edges[module]):
            if state.get(other) == 1:
                found.append([*path[path.index(other) :], other])
            elif other not in state:
                visit(other, path)
        path.pop()
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [])
    return found


def test_no_import_runs_up_the_layers() -> None:
    assert upward(graph()) == []


def test_no_import_closes_a_circle() -> None:
    assert cycles(graph()) == []


def test_the_records_import_nothing_of_the_package() -> None:
    assert {m for m in imports(RECORDS) if m.startswith("holodeck_mt")} == set()


def test_every_module_has_a_layer_and_every_layer_a_module() -> None:
    held = {layer_of(module) for module in MODULES}
    assert held == set(range(len(LAYERS)))


def test_an_upward_import_is_named_with_both_layers() -> None:
    edges = {"holodeck_mt.model": {"holodeck_mt.locate.suppressions"}}
    assert upward(edges) == [
        "holodeck_mt.model (records) imports holodeck_mt.locate.suppressions (locate)"
    ]


def test_a_circle_is_found_through_every_kind_of_import(tmp_path: Path) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from holodeck_mt.pipeline import FileResult\n"
        "def late() -> None:\n    from . import report\n"
    )
    tree = ast.parse(source)
    found: set[str] = set()
    for node in ast.walk(tree):
        found |= _imported("holodeck_mt.locate.worded", node)
    assert found == {"typing", "holodeck_mt.pipeline", "holodeck_mt.locate.report"}
    assert cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]


def test_the_readme_draws_the_layers_in_their_order() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    built = readme.split("## How it is built", 1)[1].split("\n## ", 1)[0]
    drawing = next(block for block in built.split("```")[1::2] if "│" in block)
    drawn = re.findall(r"^([a-z ]+?) +│ (.*)$", drawing, re.M)
    assert [name for name, _ in drawn] == [name for name, _ in reversed(LAYERS)]
    for (name, members), (_, line) in zip(reversed(LAYERS), drawn, strict=True):
        named = {m for m in members if m and m != "__main__"}
        paths = {f"{m}/" if (PACKAGE / m).is_dir() else f"{m}.py" for m in named}
        assert set(re.findall(r"\b[a-z_]+(?:/|\.py\b)", line)) == paths, name


def test_no_renderer_reaches_the_yaml_reader() -> None:
    edges = graph()
    for renderer in (m for m in MODULES if m.startswith("holodeck_mt.render")):
        seen, pending = set(), [renderer]
        while pending:
            module = pending.pop()
            if module in seen:
                continue
            seen.add(module)
            assert not (imports(module) & READERS), (renderer, module)
            if module == REGISTRY:  # a renderer reads the rules' descriptions, runs no check
                pending.extend(m for m in edges[module] if not m.startswith("holodeck_mt.rules."))
                pending.append("holodeck_mt.rules.rule")
                continue
            pending.extend(edges[module])


def test_the_graph_is_read_from_every_module() -> None:
    assert len(MODULES) > 60
    assert "holodeck_mt.read.document" in graph()["holodeck_mt.pipeline"]
