"""Tests of the schema in a real editor back end (the YAML language server over LSP)."""
