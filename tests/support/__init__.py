"""What the tests use beside their fixtures: the generated corpora (``corpus``), the golden
updaters that ``make goldens`` runs, and the call-path measure of the pipeline.

Modules of the test suite, imported as ``tests.support.NAME`` and run from the repository's
root as ``python -m tests.support.NAME``; the benchmarks (``bench/``) take their inputs from
the same generators.
"""
