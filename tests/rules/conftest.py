"""Each rule's tests run from the repository's root, as the fixture corpus does."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT


@pytest.fixture(autouse=True)
def _from_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
