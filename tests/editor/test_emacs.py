"""Emacs, set up as docs/editors.md says, shows each server's diagnostics through eglot.

A real ``emacs --batch`` (Debian 12's Emacs 28.2 with ``elpa-eglot`` and
``elpa-yaml-mode``, which .ci/run installs; Emacs 29 or later has eglot built in) starts
with a fresh HOME whose ``~/.emacs.d/init.el`` is the Emacs snippet of docs/editors.md,
read from that page here. The driver does what Emacs does at startup (activates the
installed packages, loads init.el), opens a file, runs ``M-x eglot`` answering its prompt
with one server, and writes the flymake diagnostics it got as JSON.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, NoReturn

import pytest

from tests.docs_pages import block
from tests.editor.lsp_client import editor_env, run_editor
from tests.timeouts import LSP_ANSWER, scaled

from .test_neovim import CONVFINQA

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

#: Set (as .ci/run and the Linux CI job do, having installed Emacs): a missing Emacs fails.
REQUIRE_EMACS = "HOLODECK_MT_REQUIRE_EMACS"

#: Startup as Emacs does it (packages, then init.el), then `M-x eglot` on the file, the
#: prompt answered with $HOLODECK_MT_EMACS_SERVER; reports in JSON.
DRIVER = r""";;; -*- lexical-binding: t -*-
(require 'json)
(package-activate-all)
(load (expand-file-name "init.el" user-emacs-directory) nil t)
(let ((report nil)
      (choice (getenv "HOLODECK_MT_EMACS_SERVER"))
      (deadline (+ (float-time) (string-to-number (getenv "HOLODECK_MT_EMACS_TIMEOUT")))))
  (condition-case err
      (progn
        (push (cons 'eglot (and (locate-library "eglot") t)) report)
        (push (cons 'yaml-mode (fboundp 'yaml-mode)) report)
        (find-file (getenv "HOLODECK_MT_EMACS_FILE"))
        (push (cons 'mode (symbol-name major-mode)) report)
        (when (locate-library "eglot")
          (advice-add 'completing-read :override (lambda (&rest _) choice))
          (call-interactively #'eglot)
          (while (and (not (eglot-managed-p)) (< (float-time) deadline))
            (accept-process-output nil 0.05))
          (push (cons 'program (car (process-command
                                     (jsonrpc--process (eglot-current-server)))))
                report)
          (flymake-start)
          (while (and (< (length (flymake-diagnostics)) 3) (< (float-time) deadline))
            (accept-process-output nil 0.05))
          (push (cons 'diagnostics
                      (vconcat
                       (mapcar (lambda (d)
                                 (vector (line-number-at-pos (flymake-diagnostic-beg d))
                                         (substring-no-properties (flymake-diagnostic-text d))))
                               (flymake-diagnostics))))
                report)
          (eglot-shutdown (eglot-current-server))))
    (error (push (cons 'error (error-message-string err)) report)))
  (with-temp-file (getenv "HOLODECK_MT_EMACS_OUT") (insert (json-encode report)))
  (kill-emacs 0))
"""

#: The Neovim tests' file, its first fault `1_000`: an integer in YAML 1.1 (the platform's
#: and the snippet's yamlVersion), a string in yaml-language-server's default 1.2.
FILE = CONVFINQA.replace("ground_truth: 206588", "ground_truth: 1_000")


def emacs_snippet() -> str:
    """The Emacs snippet of docs/editors.md, exactly as written there."""
    return block("elisp", "eglot-server-programs")


def _emacs() -> Path:
    found = shutil.which("emacs")
    if found is None:
        _missing("Emacs is not installed")
    return Path(found)


def _missing(reason: str) -> NoReturn:
    message = (
        f"EMACS TEST NOT RUN: {reason}. On Debian: apt-get install emacs-nox elpa-eglot "
        "elpa-yaml-mode (.ci/run installs them)."
    )
    if os.environ.get(REQUIRE_EMACS, "").strip() not in ("", "0"):
        pytest.fail(f"{message} {REQUIRE_EMACS} is set, so this is a failure.")
    pytest.skip(message)


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    (project / ".git").mkdir()  # the repository's root, as a clone has it
    (project / "data" / "convfinqa.yaml").write_text(FILE, encoding="utf-8")
    return project / "data" / "convfinqa.yaml"


def _run(tmp_path: Path, file: Path, server: str, path: tuple[Path, ...] = ()) -> dict[str, Any]:
    emacs = _emacs()
    home = tmp_path / "home"
    (home / ".emacs.d").mkdir(parents=True)
    (home / ".emacs.d" / "init.el").write_text(emacs_snippet(), encoding="utf-8")
    (tmp_path / "driver.el").write_text(DRIVER, encoding="utf-8")
    out = tmp_path / "report.json"
    wait = scaled(LSP_ANSWER)
    env = editor_env(
        path,
        HOME=str(home),
        HOLODECK_MT_EMACS_FILE=str(file),
        HOLODECK_MT_EMACS_SERVER=server,
        HOLODECK_MT_EMACS_OUT=str(out),
        HOLODECK_MT_EMACS_TIMEOUT=str(int(wait)),
    )
    argv = [str(emacs), "--batch", "-l", str(tmp_path / "driver.el")]
    completed, report = run_editor(argv, file.parent, env, out, wait)
    if not report.get("eglot") or not report.get("yaml-mode"):
        _missing(f"this Emacs lacks eglot or yaml-mode ({report})")
    assert report.get("error") is None, (report, completed.stderr[-2000:])
    assert report["mode"] == "yaml-mode", report
    return report


def test_emacs_with_the_snippet_shows_every_fault_of_holodeck_mt_with_its_hint(
    tmp_path: Path,
) -> None:
    report = _run(tmp_path, _project(tmp_path), "holodeck-mt")
    assert Path(report["program"]).name == "holodeck-mt", report
    assert sorted(tuple(d) for d in report["diagnostics"]) == [
        (
            5,
            "holodeck-mt [HMT102]: `ground_truth` must be a string, got integer 1000\n"
            'hint: quote it: ground_truth: "1_000"',
        ),
        (
            7,
            "holodeck-mt [HMT100]: unknown key 'ground_truht' in turn\n"
            "hint: did you mean 'ground_truth'?",
        ),
        (
            11,
            "holodeck-mt [HMT106]: an argument matcher holds both `fuzzy` and `regex`; "
            "a matcher is one or the other\nhint: keep `fuzzy` or `regex`, not both",
        ),
    ], report


def test_emacs_with_the_snippet_runs_yaml_language_server_on_yaml_1_1(tmp_path: Path) -> None:
    from holodeck_mt.app.cli import main

    from .test_language_server import SERVER, _require_server

    _require_server()
    file = _project(tmp_path)
    assert main(["init-editor", "--modeline", str(file.parent.parent)]) == 0  # as the page says
    report = _run(tmp_path, file, "yaml-language-server", (SERVER.parent,))
    assert Path(report["program"]).name == "yaml-language-server", report
    # The same three lines, one below for the modeline; the first is `1_000`, which only
    # YAML 1.1 (the snippet's :yamlVersion) reads as an integer.
    assert sorted(line for line, _ in report["diagnostics"]) == [6, 8, 12], report
    messages = dict(report["diagnostics"])
    assert "Incorrect type" in messages[6] and "ground_truht" in messages[8], report
