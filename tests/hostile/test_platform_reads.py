"""The platform's models open nothing the validator would not, and say nothing raw.

With holodeck-ai importable, an agent.yaml's own sections are handed to the platform's
``Agent`` model, whose subagent validator opens ``claude.agents.<name>.prompt_file``
itself (from the working folder, absolute paths allowed), and whose validators warn and
log with the input quoted raw. A pull request's agent.yaml must not make the run read
``/etc/passwd`` or ``/proc/self/environ`` (nor tell whether they exist), block on
``/dev/stdin`` or a FIFO, fill memory from ``/dev/zero``, or print an ESC or a
``::error`` workflow command on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from holodeck_mt import validate_file, validate_text
from holodeck_mt.contract import platform_models
from tests.hostile.test_hostile import GUARD, ROOT, diagnostics, run_cli


@pytest.fixture(autouse=True)
def _platform() -> None:
    if platform_models.agent_model() is None:
        pytest.skip("holodeck-ai is not importable here")


AGENT = """\
name: a
model: {{provider: anthropic, name: claude-sonnet-4-5}}
instructions: {{inline: Answer.}}
claude:
  agents:
    spy:
      description: reads a file
      prompt_file: {target}
test_cases:
  - input: hi
"""
#: Where every diagnostic on the prompt_file above stands.
AT = (8, "/claude/agents/spy/prompt_file")

SECRET = "aws_secret_access_key = SECRET-VALUE-42"

#: Each hostile prompt_file: the code told at it.
HOSTILE = {
    "etc-passwd": ("/etc/passwd", "HMT120"),
    "proc-environ": ("/proc/self/environ", "HMT120"),
    "dot-dot": ("../../../../../../../../etc/passwd", "HMT120"),
    "beside-the-tree": ("../secret.md", "HMT120"),
    "dev-zero": ("/dev/zero", "HMT120"),
    "dev-stdin": ("/dev/stdin", "HMT120"),
    "link-out": ("link.md", "HMT120"),
    "fifo": ("fifo", "HMT130"),
    "folder": ("prompts", "HMT130"),
    "huge": ("huge.md", "HMT004"),
    "missing": ("missing.md", "HMT130"),
}


def _repo(tmp_path: Path) -> Path:
    """A checkout at tmp/repo holding every hostile agent.yaml, a secret beside it."""
    (tmp_path / "secret.md").write_text(SECRET + "\n")
    repo = tmp_path / "repo"
    (repo / "prompts").mkdir(parents=True)
    (repo / "link.md").symlink_to(tmp_path / "secret.md")
    os.mkfifo(repo / "fifo")
    with open(repo / "huge.md", "wb") as huge:  # sparse: 100 MB, over the 64 MB limit
        huge.truncate(100 * 1024 * 1024)
    (repo / "prompts" / "spy.md").write_text("You read files.\n")
    (repo / "warm.yaml").write_text(AGENT.format(target="prompts/spy.md"))
    # A document with an error too: locating it imports what a clean one does not.
    warm = AGENT.format(target="prompts/spy.md")
    (repo / "warm-error.yaml").write_text(warm.replace("name: a", "name: 1", 1))
    for name, (target, _) in HOSTILE.items():
        (repo / f"{name}.yaml").write_text(AGENT.format(target=target))
    return repo


#: Validates the files named, once every module it needs is imported, with an audit hook
#: noting every file or folder opened outside the working folder (the tree).
PROBE = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path
    from holodeck_mt import validate_file

    tree = Path(os.path.realpath(os.getcwd()))
    for warm in ("warm.yaml", "warm-error.yaml"):  # every import the run needs, first
        validate_file(warm)
    outside = []

    def watch(event, args):
        if event in ("open", "os.listdir", "os.scandir") and args:
            target = args[0]
            if isinstance(target, (str, bytes, os.PathLike)):
                real = os.path.realpath(os.fsdecode(target))
                if not Path(real).is_relative_to(tree):
                    outside.append(event + " " + real)

    sys.addaudithook(watch)
    found = {}
    for name in sys.argv[1:]:
        results = validate_file(name + ".yaml")
        found[name] = [(d.code, d.line, d.pointer) for r in results for d in r.diagnostics]
    print(json.dumps({"outside": outside, "found": found}))
    """
)


def test_validating_hostile_prompt_files_opens_nothing_outside_the_tree(tmp_path: Path) -> None:
    """Audit hooks cannot be removed: the run is a process of its own, its stdin a pipe
    that stays open (``/dev/stdin`` read would block), its memory capped."""
    repo = _repo(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    read_end, write_end = os.pipe()
    try:
        probe = subprocess.Popen(
            [sys.executable, "-c", PROBE, *HOSTILE],
            cwd=repo,
            stdin=read_end,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            preexec_fn=_capped,
        )
        os.close(read_end)
        try:
            out, err = probe.communicate(timeout=GUARD)
        finally:
            probe.kill()
            probe.wait()
    finally:
        os.close(write_end)
    assert probe.returncode == 0, err
    assert err == ""
    report = json.loads(out)
    assert report["outside"] == []
    for name, (_, code) in HOSTILE.items():
        assert report["found"][name] == [[code, *AT]], name


def _capped() -> None:
    """A process that reads ``/dev/zero`` fails at 1 GB, not at the machine's limit."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("name", ["etc-passwd", "proc-environ", "link-out", "dot-dot"])
def test_a_refused_prompt_file_is_told_at_its_line_and_never_quoted(
    name: str, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    for fmt in ("text", "github", "json"):
        code, out, err = run_cli(f"{name}.yaml", "--format", fmt, cwd=repo)
        assert code == 1, err
        assert "SECRET" not in out + err and "root:" not in out + err
    _, out, _ = run_cli(f"{name}.yaml", "--format", "json", cwd=repo)
    [found] = diagnostics(out)
    assert (found["code"], found["line"], found["pointer"]) == ("HMT120", *AT)
    assert found["message"].startswith("prompt_file ")
    assert "leaves the repository tree" in found["message"] or "/proc" in found["message"]


def test_whether_an_outside_path_exists_is_not_told(tmp_path: Path) -> None:
    """``/etc/passwd`` and a path that does not exist read the same: no oracle in a log."""
    told = []
    for target in ("/etc/passwd", "/etc/no-such-file-here"):
        (tmp_path / "agent.yaml").write_text(AGENT.format(target=target))
        _, out, _ = run_cli("agent.yaml", "--format", "json", cwd=tmp_path)
        told.append([(d["code"], d["message"]) for d in diagnostics(out)])
    assert told[0] == told[1]


def test_a_prompt_file_in_the_tree_is_read_once_and_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The near miss: a prompt file inside the tree is valid; its real path is a read."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "spy.md").write_text("You read files.\n")
    (tmp_path / "agent.yaml").write_text(_twin(AGENT.format(target="prompts/spy.md")))
    [result] = validate_file("agent.yaml")
    assert result.diagnostics == []
    assert result.reads == [os.path.realpath(tmp_path / "prompts" / "spy.md")]


def test_the_platform_judges_the_text_of_a_prompt_file_as_it_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A blank prompt file is the platform's own refusal; one not UTF-8 is refused too."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "blank.md").write_text("  \n\t\n")
    (tmp_path / "latin.md").write_bytes("caf\u00e9\n".encode("latin-1"))
    found = {}
    for target in ("blank.md", "latin.md"):
        result = validate_text(AGENT.format(target=target), path="agent.yaml", base_dir=tmp_path)
        found[target] = [(d.code, d.line, d.pointer, d.message) for d in result.diagnostics]
    assert found == {
        "blank.md": [("HMT130", 6, "/claude/agents/spy", "subagent prompt must be non-empty")],
        "latin.md": [("HMT130", *AT, "prompt_file is not UTF-8 text (invalid continuation byte)")],
    }


def test_a_prompt_file_beside_a_prompt_is_not_looked_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The platform refuses the two together before it opens the file: so does the model."""
    monkeypatch.chdir(tmp_path)
    text = AGENT.format(target="/etc/passwd").replace(
        "      description:", "      prompt: Read.\n      description:"
    )
    [result] = validate_file(_write(tmp_path, text))
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("HMT130", "prompt and prompt_file are mutually exclusive")
    ]
    assert result.reads == []


def test_the_prompt_files_of_one_document_share_one_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    from holodeck_mt.limits import Limits

    (tmp_path / "one.md").write_text("a" * 600)
    (tmp_path / "two.md").write_text("b" * 600)
    text = _twin(AGENT.format(target="one.md"), "two.md")
    result = validate_text(text, path="agent.yaml", base_dir=tmp_path, limits=Limits(1000))
    assert [(d.code, d.line, d.message) for d in result.diagnostics] == [
        (
            "HMT004",
            11,
            "prompt_file is 600 bytes, over what the document's other prompt files leave "
            "of the limit of 1,000; it was not read",
        )
    ]


def _twin(text: str, target: str = "prompts/spy.md") -> str:
    """``text`` with a second subagent, ``twin``, its prompt_file ``target`` at line 11."""
    twin = f"    twin:\n      description: b\n      prompt_file: {target}\n"
    return text.replace("test_cases:", twin + "test_cases:")


def _write(folder: Path, text: str) -> str:
    (folder / "agent.yaml").write_text(text)
    return str(folder / "agent.yaml")


#: The platform warns about a subagent's tool name it does not know, and logs about an
#: ``auth_provider`` its provider ignores: each quotes the input.
WARNED = """\
name: a
model: {provider: openai, name: gpt-4o, auth_provider: custom}
instructions: {inline: Answer.}
claude:
  agents:
    spy:
      description: reads
      prompt: Read.
      tools: ["Read\\e[31m", "x\\n::error file=README.md,line=1::forged"]
test_cases:
  - input: hi
"""


def test_the_platforms_warnings_and_logs_never_reach_a_stream_raw(tmp_path: Path) -> None:
    (tmp_path / "agent.yaml").write_text(WARNED)
    for fmt in ("text", "github", "json"):
        code, out, err = run_cli("agent.yaml", "--format", fmt, cwd=tmp_path)
        assert code == 0, err
        assert err == ""
        assert "\x1b" not in out and "forged" not in out
        assert not any(line.startswith("::error file=README.md") for line in out.splitlines())


def test_a_platform_warning_is_no_error_even_where_warnings_are_errors() -> None:
    """Under pytest every warning is an error: the platform's are dropped before that."""
    assert validate_text(WARNED, path="agent.yaml").diagnostics == []


def test_importing_the_platform_leaves_logging_as_it_was(tmp_path: Path) -> None:
    """The platform's import sets up logging for its own command line (its handler on
    stderr, a log file the environment names): none of it stays, no file is written."""
    probe = textwrap.dedent(
        """
        import logging
        from holodeck_mt.contract import platform_models
        root = logging.getLogger()
        before = (root.level, list(root.handlers))
        assert platform_models.agent_model() is not None
        assert (root.level, list(root.handlers)) == before, root.handlers
        """
    )
    log = tmp_path / "logs" / "holodeck.log"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HOLODECK_LOG_FILE": str(log),
        "HOLODECK_LOG_LEVEL": "DEBUG",
    }
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=GUARD,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert not log.parent.exists()
    assert "Logging configured" not in done.stderr


def test_a_relative_prompt_file_is_read_from_the_folder_holodeck_runs_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The editor's workspace is where ``holodeck`` runs, wherever the server started."""
    workspace, elsewhere = tmp_path / "workspace", tmp_path / "elsewhere"
    (workspace / "prompts").mkdir(parents=True)
    elsewhere.mkdir()
    (workspace / "prompts" / "spy.md").write_text("You read files.\n")
    monkeypatch.chdir(elsewhere)
    text = AGENT.format(target="prompts/spy.md")
    result = validate_text(text, path="agent.yaml", tree=workspace, workdir=workspace)
    assert (result.diagnostics, result.reads) == ([], [str(workspace / "prompts" / "spy.md")])
    result = validate_text(text, path="agent.yaml", tree=workspace)
    assert [(d.code, d.line, d.message) for d in result.diagnostics] == [
        (
            "HMT120",
            8,
            "prompt_file is read from the working folder, which lies outside the repository tree",
        )
    ]
