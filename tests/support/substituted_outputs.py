"""Every output a user sees of one file, given the variables its ``${NAME}`` references
read: each validate format, ``--statistics``, ``explain`` (text and JSON), ``fix --diff``
and the language server's diagnostics, all in this process."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from unittest import mock

from holodeck_mt.app.cli import main
from holodeck_mt.lsp import checking

FORMATS = ("text", "json", "github", "sarif", "junit", "markdown")


@contextlib.contextmanager
def _in(folder: Path, variables: Mapping[str, str]) -> Iterator[None]:
    here = Path.cwd()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("HMT_")}
    with mock.patch.dict(os.environ, {**environ, **variables, "HOME": str(folder)}, clear=True):
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(here)


def _run(argv: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return f"{code}\n{out.getvalue()}\n{err.getvalue()}"


def outputs(folder: Path, text: str, variables: Mapping[str, str]) -> dict[str, str]:
    """What each output shows of ``text`` (written to ``folder/agent.yaml``), by its name."""
    path = folder / "agent.yaml"
    path.write_text(text)
    shown: dict[str, str] = {}
    with _in(folder, variables):
        for fmt in FORMATS:
            shown[fmt] = _run(["validate", "agent.yaml", "--format", fmt, "--no-cache", "-j", "1"])
        for fmt in ("text", "json"):
            argv = ["validate", "agent.yaml", "--statistics", "--format", fmt, "--no-cache"]
            shown[f"statistics-{fmt}"] = _run([*argv, "-j", "1"])
            shown[f"explain-{fmt}"] = _run(["explain", "agent.yaml", "--format", fmt])
        shown["fix"] = _run(["fix", "--diff", "--unsafe-fixes", "agent.yaml"])
        found = checking.diagnose(path, text, [folder]) or []
        shown["lsp"] = json.dumps([d.to_json() for d in found], sort_keys=True)
        with contextlib.suppress(ImportError):  # the [lsp] extra
            from holodeck_mt.lsp.positions import UTF16, Lines
            from holodeck_mt.lsp.server import to_lsp

            lines = Lines(text, UTF16)
            shown["lsp-wire"] = repr([to_lsp(d, lines) for d in found])
    assert path.read_text() == text  # nothing written
    return shown
