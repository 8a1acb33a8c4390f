"""The repository's chores: the schema bundle and docs built from the schema files, their
checks, the site, the complexity ceiling and the Linux wheel's check.

Each is a module run from the repository's root (``python -m scripts.NAME``), a thin command
line over functions the tests import as ``scripts.NAME``.
"""
