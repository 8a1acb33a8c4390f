"""Where the real samples are found, and what a test that reads them does without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import conftest
from tests.support import samples


def test_the_samples_folder_is_the_one_the_environment_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(samples.SAMPLES_VARIABLE, str(tmp_path))
    assert samples.samples_folder() == tmp_path.resolve()
    monkeypatch.delenv(samples.SAMPLES_VARIABLE)
    expected = conftest.ROOT.parent / "shared" / "data" / "holodeck-samples"
    assert samples.samples_folder() == expected


def test_missing_samples_skip_with_where_they_were_looked_for(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(conftest, "SAMPLES", tmp_path / "absent")
    monkeypatch.delenv(conftest.REQUIRE_SAMPLES_VARIABLE, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"absent.*HOLODECK_MT_SAMPLES"):
        conftest.need_samples()
    assert conftest.sample_files("*.yaml") == []


def test_missing_samples_fail_when_they_are_required(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(conftest, "SAMPLES", tmp_path / "absent")
    monkeypatch.setenv(conftest.REQUIRE_SAMPLES_VARIABLE, "1")
    with pytest.raises(pytest.fail.Exception, match="HOLODECK_MT_REQUIRE_SAMPLES is set"):
        conftest.need_samples()


def test_present_samples_are_handed_to_the_test(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "a" / "data").mkdir(parents=True)
    (tmp_path / "a" / "agent.yaml").write_text("name: a\n")
    monkeypatch.setattr(conftest, "SAMPLES", tmp_path)
    monkeypatch.setenv(conftest.REQUIRE_SAMPLES_VARIABLE, "1")
    assert conftest.need_samples() == tmp_path
    assert conftest.sample_files("agent.yaml") == [tmp_path / "a" / "agent.yaml"]
