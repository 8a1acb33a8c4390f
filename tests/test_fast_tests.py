"""A test that starts a process is marked slow: left out of ``make test-fast``, which stays
in seconds. The suite's conftest fails an unmarked test where it starts one."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_an_unmarked_test_that_starts_a_process_fails_there() -> None:
    with pytest.raises(pytest.fail.Exception, match="starts a process: mark it"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)


@pytest.mark.slow
def test_a_test_marked_slow_starts_one() -> None:
    done = subprocess.run([sys.executable, "-c", "print('started')"], capture_output=True)
    assert done.stdout.strip() == b"started"
