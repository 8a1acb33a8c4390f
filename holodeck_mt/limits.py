"""Safety limits on what one input file may cost, each overridable by an option."""

from __future__ import annotations

from dataclasses import dataclass

#: Defaults. The full ConvFinQA conversion (11 MB, depth 7, no aliases) is far
#: inside every one of them.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64
MAX_ALIAS_NODES = 100_000
MAX_DIAGNOSTICS = 1000


@dataclass(frozen=True)
class Limits:
    #: A larger file is rejected before it is parsed (``--max-file-size``).
    max_bytes: int = MAX_FILE_BYTES
    #: Deeper nesting of mappings and lists is rejected at its line (``--max-depth``).
    max_depth: int = MAX_DEPTH
    #: Nodes reached through aliases, each alias counted at its expanded size
    #: (``--max-alias-nodes``): an alias bomb trips this before anything walks it.
    max_alias_nodes: int = MAX_ALIAS_NODES
    #: Diagnostics shown per file (``--max-diagnostics``; 0 shows all): past it, one
    #: line counts the rest, so output stays bounded whatever the number of faults.
    max_diagnostics: int = MAX_DIAGNOSTICS

    @property
    def max_examined(self) -> int:  # invalid test cases: counted past the cap, not shown
        return 10 * self.max_diagnostics
