"""``!!omap`` and ``!!pairs`` read as ``yaml.safe_load`` reads them: lists of pairs."""

from __future__ import annotations

import yaml

from holodeck_mt import validate_text
from holodeck_mt.read import loader

TEXT = """\
test_cases:
  - input: What is 2 + 2?
    expected_tools:
      - name: add
        args:
          a: !!omap [{x: 1}, {y: 2}]
          b: !!pairs [{x: 1}, {x: 2}]
"""


def test_omap_and_pairs_load_as_lists_of_pairs_where_any_value_is_accepted() -> None:
    assert validate_text(TEXT, path="agent.yaml").diagnostics == []
    args = loader.load(TEXT).data["test_cases"][0]["expected_tools"][0]["args"]
    platform = yaml.safe_load(TEXT)["test_cases"][0]["expected_tools"][0]["args"]
    assert args == {"a": [["x", 1], ["y", 2]], "b": [["x", 1], ["x", 2]]}
    assert args == {k: [list(pair) for pair in v] for k, v in platform.items()}
