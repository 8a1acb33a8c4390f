"""A small sample validated when the server starts, before the editor's first document.

A process's first validation pays once for what every later one finds ready: the
schema's validators built, the modules only a fault needs imported (its message, its
hint, its place and range in the text). The editor sends its first document right
after ``initialize``; the worker validates this sample meanwhile, so that the first
document's diagnostics come as fast as the next ones. The sample reads no file and
names none of the platform's own sections (whose models take a fifth of a second to
import, and are imported by the first agent.yaml that has them); nothing of it is
published.
"""

from __future__ import annotations

from pathlib import Path

from holodeck_mt.model import Diagnostic
from holodeck_mt.pipeline import validate_document_text

#: A key misspelt, a number where text belongs, a regex that does not compile, a
#: duplicated tool: the schema's, the reader's and the rules' faults, located.
SAMPLE = """\
evaluations:
  metrics: []
test_cases:
  - name: sample
    turns:
      - input: "q"
        ground_truth: 206588.10
        ground_truht: "x"
        expected_tools:
          - subtract
          - subtract
          - name: lookup
            args:
              b: {regex: "(2009"}
"""


def warm() -> list[Diagnostic]:
    """Validate the sample as an open document is validated; its diagnostics."""
    here = Path(__file__).parent
    results = validate_document_text(
        SAMPLE, path=str(here / "agent.yaml"), base_dir=here, tree=here
    )
    return [d for result in results for d in result.diagnostics]
