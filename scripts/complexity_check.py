"""Fail when a function of the validator is too tangled or too long to read at once.

Every function and method under ``holodeck_mt/`` (closures included) keeps a
cyclomatic complexity of at most 15, as radon measures it, and at most 60 lines,
from its ``def`` to its last line. One past the ceiling asks for a table instead
of an if-chain, or a well-named helper per idea; `make lint` runs this.

    python -m scripts.complexity_check [PATH ...]    # files or folders; holodeck_mt by default
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator, Sequence
from pathlib import Path

from radon.complexity import add_inner_blocks, cc_visit
from radon.visitors import Function

MAX_COMPLEXITY = 15
MAX_LINES = 60
ROOT = Path(__file__).resolve().parent.parent


def _sources(paths: Sequence[Path]) -> Iterator[Path]:
    for path in paths:
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _too_complex(path: Path, source: str) -> Iterator[tuple[int, str]]:
    for block in add_inner_blocks(cc_visit(source)):
        if isinstance(block, Function) and block.complexity > MAX_COMPLEXITY:
            yield (
                block.lineno,
                f"{path}:{block.lineno}: {block.fullname} has a complexity of "
                f"{block.complexity} (at most {MAX_COMPLEXITY})",
            )


def _too_long(path: Path, source: str) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > MAX_LINES:
                yield (
                    node.lineno,
                    f"{path}:{node.lineno}: {node.name} has {lines} lines (at most {MAX_LINES})",
                )


def _shown(path: Path) -> Path:
    """The path from the checkout's top when it lies inside (as `make lint` prints it)."""
    resolved = path.resolve()
    return resolved.relative_to(ROOT) if resolved.is_relative_to(ROOT) else path


def problems(paths: Sequence[Path]) -> list[str]:
    """Every function past the ceiling, file by file, in line order."""
    found: list[str] = []
    for path in _sources(paths):
        source = path.read_text(encoding="utf-8")
        shown = _shown(path)
        both = [*_too_complex(shown, source), *_too_long(shown, source)]
        found += [message for _, message in sorted(both)]
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT / "holodeck_mt"])
    args = parser.parse_args(argv)
    found = problems(args.paths)
    for message in found:
        print(message)
    if found:
        print(f"{len(found)} function(s) past the ceiling: split them")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
