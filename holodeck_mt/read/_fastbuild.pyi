# The interface of the compiled builder (_fastbuild.c); see holodeck_mt/read/loader.py.
from collections.abc import Callable
from typing import Any

def build(
    text: str,
    plain: Callable[[str], Any],
    bail: object,
    typed_first: str,
    index_depth: int,
    ends_depth: int,
    ends_left: int,
    max_depth: int,
    quoted_spans: bool,
    watch_question: bool,
    cache_size: int,
) -> (
    tuple[Any, tuple[int, int], dict[int, Any], dict[int, Any], dict[int, Any], list[Any]] | None
): ...
