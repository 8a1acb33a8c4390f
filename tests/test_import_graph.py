"""The package's import graph: acyclic, and renderers that only read results.

Read from the source with ``ast``: an import at a module's top level is an edge of
the graph; one inside a function (a lazy import, for start-up time) is an edge of
the wider graph, where the only cycles allowed are a package importing its own
modules (the checks' registry). No renderer reaches the YAML reader by any path.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "holodeck_mt"
READERS = {
    "holodeck_mt.read.loader",
    "holodeck_mt.read.builder",
    "holodeck_mt.read.parsers",
    "yaml",
}
#: The list of every code: its rule modules describe themselves beside their checks.
REGISTRY = "holodeck_mt.rules.registry"


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in PACKAGE.rglob("*.py")}


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imported(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        subs = {f"{node.module}.{alias.name}" for alias in node.names}
        return {node.module} | (subs & MODULES.keys())
    return set()


def _edges(module: str, *, lazy: bool) -> set[str]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    nodes: list[ast.AST] = []
    for statement in tree.body:
        if _is_type_checking(statement):
            continue  # annotations only: never imported at run time
        nodes.extend(ast.walk(statement) if lazy else [statement])
    found: set[str] = set()
    for node in nodes:
        found |= _imported(node)
    return {name for name in found if name != module}


def _graph(*, lazy: bool) -> dict[str, set[str]]:
    return {module: _edges(module, lazy=lazy) & MODULES.keys() for module in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                found.append([*path[path.index(other) :], other])
            elif other not in state:
                visit(other, path)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    return found


def test_the_import_graph_at_module_level_has_no_cycle() -> None:
    assert _cycles(_graph(lazy=False)) == []


def test_a_lazy_import_cycle_is_only_a_package_loading_its_own_modules() -> None:
    for cycle in _cycles(_graph(lazy=True)):
        package = min(cycle, key=len)
        assert all(module.startswith(package) for module in cycle), cycle


def test_no_renderer_reaches_the_yaml_reader() -> None:
    graph = _graph(lazy=True)
    external = {module: _edges(module, lazy=True) for module in MODULES}
    for renderer in (m for m in MODULES if m.startswith("holodeck_mt.render")):
        seen, pending = set(), [renderer]
        while pending:
            module = pending.pop()
            if module in seen:
                continue
            seen.add(module)
            assert not (external[module] & READERS), (renderer, module)
            if module == "holodeck_mt":  # its lazy attributes are the API's, not an import's
                continue
            if module == REGISTRY:  # a renderer reads the rules' descriptions, runs no check
                pending.extend(m for m in graph[module] if not m.startswith("holodeck_mt.rules."))
                pending.append("holodeck_mt.rules.rule")
                continue
            pending.extend(graph[module])


def test_the_graph_is_read_from_every_module() -> None:
    assert len(MODULES) > 60
    assert "holodeck_mt.read.document" in _graph(lazy=False)["holodeck_mt.pipeline"]
