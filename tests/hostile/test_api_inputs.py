"""The Python API under hostile use: wrong types, odd paths, many threads."""

from __future__ import annotations

import errno
import gc
import io
import threading
from collections.abc import Iterator
from pathlib import Path

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


def test_the_api_on_eight_threads_leaves_the_collector_on() -> None:
    text = "test_cases:\n" + "".join(f"  - input: {i}\n    name: n{i}\n" for i in range(300))
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(5):
                validate_text(text)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
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


def test_a_thread_pausing_the_collector_late_cannot_leave_it_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thread B sees the collector off (A paused it) and pauses it again only after A is done:
    whoever finishes last, the collector ends on. The interleaving is forced with events
    (A loads only once B waits to pause), never with sleeps: the same on a loaded machine."""
    real_disable, real_load = gc.disable, loader.load
    a_loading, b_pausing, a_done = threading.Event(), threading.Event(), threading.Event()
    wait = scaled(60)

    def disable() -> None:
        if threading.current_thread().name == "B":
            b_pausing.set()
            a_done.wait(wait)
        real_disable()

    def load(*args: object, **kwargs: object) -> object:
        if threading.current_thread().name == "A":
            a_loading.set()
            b_pausing.wait(wait)
        return real_load(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(gc, "disable", disable)
    monkeypatch.setattr(loader, "load", load)

    def first() -> None:
        validate_text("test_cases:\n  - input: hi\n")
        a_done.set()

    def second() -> None:
        a_loading.wait(wait)
        validate_text("test_cases:\n  - input: hi\n")

    threads = [threading.Thread(target=first, name="A"), threading.Thread(target=second, name="B")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(wait)
    monkeypatch.undo()
    enabled = gc.isenabled()
    gc.enable()
    assert b_pausing.is_set() and a_done.is_set()  # the interleaving meant, not another
    assert enabled
