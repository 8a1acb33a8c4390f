"""A small sample validated when the server starts, before the editor's first document.

A first validation pays once for validators built and modules imported; paying it on
the sample makes the first document as fast as the next. The sample reads no file and
names none of the platform's sections (their models are slow to import); nothing of it
is published.
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
