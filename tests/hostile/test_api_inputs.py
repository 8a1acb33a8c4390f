"""The Python API under hostile use: wrong types, odd paths, many threads."""

from __future__ import annotations

import errno
import gc
import io
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from holodeck_mt.pipeline import validate_file, validate_text
from holodeck_mt.read import loader
from holodeck_mt.render import renderer
from tests.timeouts import scaled


def test_validate_text_takes_bytes_as_a_file_content() -> None:
    result = validate_text(b"\xef\xbb\xbftest_cases:\n  - input: 1\n")
    assert [(d.code, d.line) for d in result.diagnostics] == [("HMT102", 2)]
    bad = validate_text(b"test_cases:\n  - input: \xff\n")
    assert [d.code for d in bad.diagnostics] == ["HMT005"]


def test_validate_text_refuses_another_type_clearly() -> None:
    with pytest.raises(TypeError, match="takes str or bytes, not int"):
        validate_text(5)  # type: ignore[arg-type]


def test_validate_file_with_a_nul_in_its_name_raises_oserror() -> None:
    with pytest.raises(OSError) as raised:
        validate_file("\x00")
    assert raised.value.errno == errno.EINVAL


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    """Each test starts with the collector on, whatever ran before it in the process (a
    test of its own order-independence, not of its neighbours), and leaves it as found."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.mark.parametrize(
    "case",
    [
        "  - input: {i}\n    name: n{i}\n",  # a fault on each: the locator reads them again
        "  - input: x{i}\n    input: y\n",  # a duplicate key: the whole index is read
    ],
)
def test_the_api_on_eight_threads_leaves_the_collector_on(case: str) -> None:
    text = "test_cases:\n" + "".join(case.format(i=i) for i in range(300))
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(5):
                validate_text(text)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch often: a race shows within a few runs
    try:
        threads = [threading.Thread(target=work) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert gc.isenabled()


def test_the_collector_runs_during_schema_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    from holodeck_mt.contract import compiled as fast_path

    seen: list[bool] = []
    original = fast_path.schema_faults

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fast_path, "schema_faults", spy)
    validate_text("test_cases:\n  - input: 1\n")
    assert seen == [True]


def test_junit_takes_test_case_names_from_the_result_without_parsing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    result = validate_text(
        "test_cases:\n  - name: first\n    input: 1\n  - name: second\n    input: hi\n"
    )
    assert result.test_cases == ["first", "second"]

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a renderer parsed YAML")

    monkeypatch.setattr(loader, "load", refuse)
    out = io.StringIO()
    renderer("junit")([result], out)
    assert 'name="first"' in out.getvalue() and 'name="second"' in out.getvalue()


def test_junit_names_survive_a_file_over_the_default_limits(tmp_path: Path) -> None:
    from holodeck_mt.limits import Limits

    deep = "x: " + "[" * 70 + "]" * 70
    text = f"test_cases:\n  - name: deep\n    input: 1\n    {deep}\n"
    result = validate_text(text, limits=Limits(max_depth=200))
    out = io.StringIO()
    renderer("junit")([result], out)
    assert 'name="deep"' in out.getvalue()


def test_builds_overlapping_on_two_threads_keep_the_collector_off_then_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A starts building, B starts building while A builds, A finishes while B still
    builds: the collector stays off for B and is on once both are done. The interleaving
    is forced with events, never with sleeps: the same on a loaded machine."""
    real_build = loader._build_as_the_platform
    a_building, b_building, a_done = threading.Event(), threading.Event(), threading.Event()
    wait = scaled(60)
    seen: dict[str, bool] = {}

    def build(*args: Any) -> Any:
        name = threading.current_thread().name
        if name == "A":
            a_building.set()
            b_building.wait(wait)
        elif name == "B":
            b_building.set()
            a_done.wait(wait)
        seen[name] = gc.isenabled()
        return real_build(*args)

    monkeypatch.setattr(loader, "_build_as_the_platform", build)

    def first() -> None:
        validate_text("test_cases:\n  - input: hi\n")
        a_done.set()

    def second() -> None:
        a_building.wait(wait)
        validate_text("test_cases:\n  - input: hi\n")

    threads = [threading.Thread(target=first, name="A"), threading.Thread(target=second, name="B")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(wait)
    monkeypatch.undo()
    enabled = gc.isenabled()
    gc.enable()
    assert b_building.is_set() and a_done.is_set()  # the interleaving meant, not another
    assert seen == {"A": False, "B": False}
    assert enabled
