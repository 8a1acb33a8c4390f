"""The linters of `make lint` that are tests: left out of `make test` (tests/conftest.py)."""
