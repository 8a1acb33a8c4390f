"""Every command line the hand-written pages show is one the command line accepts.

A page's code blocks are what a user pastes: each line that starts `holodeck-mt` or
`python -I -m holodeck_mt` (after an optional `$ ` prompt) is parsed by the command's own
parser, so a renamed or removed option, a subcommand's wrong argument or a forgotten value
fails here instead of in a user's terminal. The editors page's commands also run
(tests/test_editors_page.py); the examples' outputs are generated (docs/diagnostics.md).
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex

import pytest

from holodeck_mt.app.cli import build_parser
from tests.docs_pages import pages

#: A command as a page writes it: the program, then its arguments.
_COMMAND = re.compile(
    r"^(?:\$ |- run: |run: |entry: )?(?:holodeck-mt|python -I -m holodeck_mt) (?P<args>[a-z-].*)$"
)
#: What a page writes in place of a value the reader chooses.
_PLACEHOLDER = re.compile(r"<[^>]+>|\.\.\.|…")


def _commands() -> list[tuple[str, str]]:
    """Each (page, command line) of the pages' fenced blocks and inline code."""
    found: dict[tuple[str, str], None] = {}
    for name, text in pages().items():
        lines = [s for b in re.findall(r"```[a-z]*\n(.*?)```", text, re.S) for s in b.splitlines()]
        # Inline, a command with arguments (a bare `holodeck-mt explain` names the command).
        lines += re.findall(r"`((?:holodeck-mt|python -I -m holodeck_mt) [^`\s]+ [^`]+)`", text)
        for line in lines:
            matched = _COMMAND.match(line.strip())
            if matched is not None and not _PLACEHOLDER.search(line):
                found[name, line.strip()] = None
    return list(found)


COMMANDS = _commands()
#: Where the command's own arguments end and the shell's begin.
_SHELL = {">", ">>", "|", "&&", "||", ";", "2>&1"}


def _arguments(line: str) -> list[str]:
    """The command's arguments, without its comment or what the shell does with it."""
    args = shlex.split(_COMMAND.match(line)["args"], comments=True)  # type: ignore[index]
    cut = next((i for i, a in enumerate(args) if a in _SHELL), len(args))
    return args[:cut]


def test_the_pages_show_commands_of_every_kind() -> None:
    """The extraction finds the pages' commands (a broken pattern would pass every check)."""
    shown = {_arguments(line)[0] for _, line in COMMANDS}
    assert {"validate", "explain", "fix", "init-editor", "schema"} <= shown


@pytest.mark.parametrize(("page", "line"), COMMANDS, ids=[f"{p}: {c}" for p, c in COMMANDS])
def test_a_command_a_page_shows_is_accepted(page: str, line: str) -> None:
    args = _arguments(line)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser().parse_args(args)
        except SystemExit as e:
            assert e.code == 0, f"{page}: `{line}` is refused: {err.getvalue().strip()}"
