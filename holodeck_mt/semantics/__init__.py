"""What the platform does with a test case at run time, as a library.

- :mod:`~holodeck_mt.semantics.matchers`: tool names, `{name, args, count}` entries,
  literal, fuzzy and regex argument matchers.
- :mod:`~holodeck_mt.semantics.metrics`: the deterministic metrics `equality` and `numeric`.
- :mod:`~holodeck_mt.semantics.precedence`: which metrics run on each turn, and whose
  settings they run with.
- :mod:`~holodeck_mt.semantics.vectors`: runs the shared table of vectors
  (``vectors/runtime-semantics.jsonl``) against these functions.
"""
