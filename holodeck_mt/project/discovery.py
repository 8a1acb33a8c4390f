"""Which files a run validates: HoloDeck's files found by their content, each once.

What holds test cases: docs/usage.md. Only the first document's top level is read, from
the parser's events: nothing is constructed, and reading stops once the answer is known.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from holodeck_mt.model import FileResult, reason_of
from holodeck_mt.read import confine
from holodeck_mt.read import files as opener
from holodeck_mt.read.decoding import UTF8_BOM
from holodeck_mt.text.safe_text import display_path

# PyYAML is imported where a file's head is parsed: a run may never need it (start-up).

AGENT_FILE_NAMES = ("agent.yaml", "agent.yml")
YAML_SUFFIXES = (".yaml", ".yml")
SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache"}
)

#: Keys that make a top-level mapping a HoloDeck file.
_MAPPING_KEYS = frozenset({"test_cases", "test_cases_file"})
#: A key this close to one of them misspells it (``test_case:``): validating says so.
_NEAR_MISS = 0.8
#: Longer keys are not compared (a hostile file's megabyte key costs nothing).
_LONGEST_KEY = 40
#: How many folders above a file are searched for the agent.yaml naming it.
LEVELS_UP = 4
#: Keys that make a mapping in a top-level list a test case.
_CASE_KEYS = frozenset({"input", "turns"})
#: The most keys of one mapping read to judge it a test case.
_MOST_KEYS = 64
#: A file is judged by its first bytes; when they do not parse before the content is
#: known, by a line that looks like a test-cases file's.
_SNIFF_BYTES = 1024 * 1024
_MARK = b"^(?:" + re.escape(UTF8_BOM) + b")?"
_LOOKS_LIKE = re.compile(
    _MARK + rb"(?:test_cases(?:_file)?|(?:[ \t]*-)?[ \t]+(?:input|turns))[ \t]*:", re.M
)
#: What only a HoloDeck file holds: its key at the top, or a top-level test case's key.
_SURELY = re.compile(
    _MARK + rb"(?:test_cases(?:_file)?|- (?:[^\n]*\n  )*?(?:input|turns))[ \t]*:", re.M
)


def is_agent_file(path: Path) -> bool:
    return path.name in AGENT_FILE_NAMES


def is_yaml_file(path: Path) -> bool:
    return path.suffix.lower() in YAML_SUFFIXES


def _head(path: Path) -> bytes | None:
    """The first bytes of a regular file; None for anything else (a FIFO would block; nor
    ``/proc``, ``/sys``, ``/dev``). Raises :class:`OSError` for a file not read."""
    try:
        return opener.read(path, _SNIFF_BYTES, head=True).raw
    except opener.Refused:
        return None
    except OSError as e:
        if e.errno == errno.EINVAL:
            return None
        raise


def _events(head: bytes) -> Iterator[Any]:
    """The first document's events after its start; raises :class:`EOFError` at its end."""
    import yaml

    try:  # the C parser (libyaml), reading the file as it goes
        from yaml._yaml import CParser as parser_of
    except ImportError:  # pragma: no cover - exercised only without libyaml
        from yaml import Loader as parser_of  # type: ignore[assignment]

    parser = parser_of(head)
    while True:
        event = parser.get_event()
        kind = type(event)
        if event is None or kind is yaml.DocumentEndEvent or kind is yaml.StreamEndEvent:
            raise EOFError
        if kind is not yaml.StreamStartEvent and kind is not yaml.DocumentStartEvent:
            yield event


def _holds_test_cases(head: bytes) -> bool:
    """Whether the first document's top level holds test cases (see :data:`_SNIFF_BYTES`)."""
    import yaml

    events = _events(head)
    try:
        root = type(next(events))
        if root is yaml.MappingStartEvent:
            keys = _scalar_keys(events)
            return any(key in _MAPPING_KEYS or _near_miss(key, _MAPPING_KEYS) for key in keys)
        if root is yaml.SequenceStartEvent:
            while True:
                kind = type(next(events))
                if kind is yaml.SequenceEndEvent:
                    return False
                if kind is yaml.MappingStartEvent and _is_test_case(events):
                    return True
                if kind is yaml.SequenceStartEvent:
                    _skip(kind, events)
        return False
    except (EOFError, StopIteration):
        return False
    except yaml.YAMLError:  # a syntax error, or bytes that do not decode
        return bool(_LOOKS_LIKE.search(head))


def _near_miss(key: str, keys: Iterable[str]) -> bool:
    """Whether ``key`` misspells one of ``keys`` (``test_case``, ``test-cases-file``, ``inptu``)."""
    if not 4 <= len(key) <= _LONGEST_KEY:
        return False
    import difflib  # only for a key that is not one of ours

    written = key.lower().replace("-", "_").replace(" ", "_")
    return any(difflib.SequenceMatcher(None, written, k).ratio() >= _NEAR_MISS for k in keys)


def _scalar_keys(events: Iterator[Any]) -> Iterator[str]:
    """After a mapping's start: each scalar key, as the mapping is read to its end."""
    import yaml

    while True:
        key = next(events)
        kind = type(key)
        if kind is yaml.MappingEndEvent:
            return
        if kind is yaml.ScalarEvent:
            yield key.value
        _skip(kind, events)  # a complex key
        _skip(type(next(events)), events)  # its value


def _is_test_case(events: Iterator[Any]) -> bool:
    """After a top-level list's mapping's start, read to its end: whether it has ``input`` or
    ``turns``, or misspells one (not ``inputs``) and has no key a test case never has."""
    found = _scalar_keys(events)
    keys = list(islice(found, _MOST_KEYS))
    for _ in found:  # the rest of the mapping, read but not kept
        pass
    if not _CASE_KEYS.isdisjoint(keys):
        return True
    prefixes = tuple(_CASE_KEYS)
    if not any(_near_miss(key, _CASE_KEYS) and not key.startswith(prefixes) for key in keys):
        return False
    from holodeck_mt.contract import field_facts  # only for a near miss

    known = field_facts.keys("test-case")
    return all(key in known or _near_miss(key, known) for key in keys)


def _skip(kind: type, events: Iterator[Any]) -> None:
    """When the event just read (of type ``kind``) starts a collection, read past its end."""
    import yaml

    depth = int(kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent)
    while depth:
        kind = type(next(events))
        if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            depth += 1
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            depth -= 1


def agent_target(path: Path) -> Path | None:
    """The test-cases file an agent.yaml names, as validating follows it; None: none, or inline."""
    try:
        head = _head(path)
    except (OSError, ValueError):
        return None
    if head is None:
        return None
    utf16 = head[:2] in (b"\xff\xfe", b"\xfe\xff")
    if b"test_cases_file" not in head and b"\\" not in head and not utf16:  # nor an escape
        return None
    import yaml

    try:
        target = _read_target(_events(head))
    except yaml.YAMLError:
        return None
    if not target or "\x00" in target:
        return None
    return path.parent / target


def order_followed_last(files: list[str]) -> tuple[list[str], list[str], list[Path]]:
    """``files`` as a run checks them: the others, then the test-cases files an agent.yaml among
    them names (alone only if not checked through it); and the files so named."""
    named_by = [agent_target(Path(file)) for file in files]
    targets = [target for target in named_by if target is not None]
    followed = {same_file_key(target) for target in targets}
    later = {
        file
        for file, target in zip(files, named_by, strict=True)
        if target is None and not is_agent_file(Path(file)) and same_file_key(file) in followed
    }
    return [f for f in files if f not in later], [f for f in files if f in later], targets


#: The results reported of each file, by its resolved path.
VerdictsByFile = dict[str, list[FileResult]]


def is_new_verdict(result: FileResult, verdicts: VerdictsByFile) -> bool:
    """Whether ``result`` says what no result of its file in ``verdicts`` (added to) said: a file
    judged in two roles is reported once per differing verdict."""
    said = verdicts.setdefault(same_file_key(result.source or result.path), [])
    if any(other.to_json() == result.to_json() for other in said):  # a file seen: rare
        return False
    said.append(result)
    return True


def _read_target(events: Iterator[Any]) -> str | None:
    """The top-level mapping's ``test_cases_file`` as far as the document reads; None
    beside inline ``test_cases`` (a null one is none) or when the top is not a mapping."""
    import yaml

    target: str | None = None
    try:
        if type(next(events)) is not yaml.MappingStartEvent:
            return None
        while True:
            key = next(events)
            kind = type(key)
            if kind is yaml.MappingEndEvent:
                return target
            _skip(kind, events)
            value = next(events)
            if kind is yaml.ScalarEvent and key.value == "test_cases" and not _is_null(value):
                return None
            _skip(type(value), events)
            if kind is yaml.ScalarEvent and key.value == "test_cases_file":
                target = value.value if type(value) is yaml.ScalarEvent else None
    except (EOFError, StopIteration):
        return target


def _is_null(event: Any) -> bool:
    """Whether a value is a plain null: the platform follows `test_cases_file` beside it."""
    import yaml

    from holodeck_mt.read.scalars import NULL

    return (
        type(event) is yaml.ScalarEvent
        and event.tag is None
        and event.implicit[0]
        and event.value in NULL
    )


def top_level_is_list(path: Path) -> bool:
    """Whether the YAML file's first document is a list (a bare list of test cases)."""
    try:
        return _top_level(_head(path)) == "SequenceStartEvent"
    except (OSError, ValueError):
        return False


def _top_level(head: bytes | None) -> str | None:
    """The name of the first document's first event's type (a string: only if it parses to
    the end); None for no document or no regular file, ``YAMLError`` for one not parsed."""
    import yaml

    if head is None:
        return None
    kind: str | None = None
    try:
        events = _events(head)
        kind = type(next(events)).__name__
        if kind == "ScalarEvent":
            next(events)  # the document's end, or a syntax error
    except EOFError:  # the document ends: at once (no document), or after its string
        return kind
    except (ValueError, yaml.YAMLError):
        return "YAMLError"
    return kind


def find_naming_agent(path: Path, tree: Path | None = None) -> Path | None:
    """The agent.yaml (as saved) naming ``path``, up to :data:`LEVELS_UP` folders above, never
    above its repository, else the working directory (``tree``: the editor's workspace)."""
    wanted = same_file_key(path)
    folder = path.parent
    top = None
    if tree is None:  # its repository, else the working directory holding it
        real = Path(os.path.realpath(folder))
        here = confine.holder(real)
        top = confine.repository_root(real) or (str(here) if here is not None else None)
    for _ in range(LEVELS_UP + 1):
        if tree is not None and not Path(same_file_key(folder)).is_relative_to(tree):
            break
        for name in AGENT_FILE_NAMES:
            agent = folder / name
            target = agent_target(agent)
            if target is not None and same_file_key(target) == wanted:
                return agent
        if os.path.realpath(folder) == top or folder.parent == folder:
            break
        folder = folder.parent
    return None


def same_file_key(path: Path | str) -> str:
    """What identifies a file however it is named: its resolved path."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


@dataclass
class Findings:
    """The files a run validates, each once, and the usage problems met finding them."""

    files: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: The YAML files a search, or ``named_by_content``, passed over, and why.
    passed: list[tuple[str, str]] = field(default_factory=list)


#: Why a YAML file is not validated (``--show-files``).
NOT_HOLODECK = "neither an agent.yaml nor a file holding test cases"
#: A file named on the command line that a folder search would pass over.
NOT_NAMED = (
    "'{}' is not a HoloDeck agent.yaml or test-cases file: not validated (an agent.yaml is "
    "named agent.yaml or agent.yml; a test-cases file holds `test_cases`, or is a list of "
    "test cases with `input` or `turns`)"
)


def search(
    folder: Path, problems: list[str] | None = None, passed: list[tuple[str, str]] | None = None
) -> Iterator[Path]:
    """Every HoloDeck file under ``folder``: agent files by name, the others by content; a
    link out of the folder is not read (an agent file so linked is refused later, HMT120)."""
    told = problems if problems is not None else []
    passed_over = passed if passed is not None else []
    inside = same_file_key(folder) + os.sep
    for root, files in walk_tree(folder, told):
        for name in files:
            path = root / name
            if is_agent_file(path):
                yield path
            elif not is_yaml_file(path):
                continue
            elif path.is_symlink() and not same_file_key(path).startswith(inside):
                passed_over.append((str(path), "a link to a file outside the folder searched"))
            elif _holds(_read_head(path, told)):
                yield path
            else:
                passed_over.append((str(path), NOT_HOLODECK))


def walk_tree(folder: Path, problems: list[str]) -> Iterator[tuple[Path, list[str]]]:
    """Each folder under ``folder`` (links not entered) and its file names, sorted, depth first."""
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as e:
            problems.append(f"cannot read folder '{display_path(current)}': {reason_of(e)}")
            continue
        folders, files = [], []
        for entry in entries:
            try:
                is_dir, is_link = entry.is_dir(), entry.is_symlink()
            except OSError:
                is_dir = is_link = False
            if not is_dir:
                files.append(entry.name)
            elif not is_link and entry.name not in SKIPPED_DIRS:
                folders.append(current / entry.name)
        yield current, files
        stack.extend(reversed(folders))


def _read_head(path: Path, problems: list[str]) -> bytes | None:
    """:func:`_head`, a file that cannot be read told in ``problems`` (then None)."""
    try:
        return _head(path)
    except (OSError, ValueError) as e:
        problems.append(f"cannot read '{display_path(path)}': {reason_of(e)}")
        return None


def _holds(head: bytes | None, quick: bool = False) -> bool:
    """Whether a YAML file's head holds test cases (a syntax error counts, to be reported);
    ``quick``: a line only test cases begin with is enough (PyYAML not imported)."""
    return head is not None and (bool(quick and _SURELY.search(head)) or _holds_test_cases(head))


def find(paths: Iterable[str], *, named_by_content: bool = False) -> Findings:
    """The files to validate for a command line's paths, each once: a folder searched, a file if
    a search would take it (else a problem, or passed over ``named_by_content``)."""
    found = Findings()
    unique: dict[str, str] = {}
    for given in list(paths) or ["agent.yaml"]:
        path = Path(given)
        try:  # stat can fail for reasons of its own: a name too long, a loop of links
            is_dir, is_file, exists = path.is_dir(), path.is_file(), path.exists()
        except (OSError, ValueError) as e:
            found.problems.append(f"cannot read '{given}': {reason_of(e)}")
            continue
        unread, files = len(found.problems), []
        if is_dir:
            files = [str(file) for file in search(path, found.problems, found.passed)]
            if not files and len(found.problems) == unread:
                found.problems.append(
                    f"no agent.yaml, agent.yml or YAML file holding test cases found under "
                    f"'{given}'"
                )
        elif is_file:
            files = _expand_named_file(path, given, found, named_by_content)
        elif exists:
            found.problems.append(f"'{given}' is not a regular file")
        else:
            found.problems.append(f"cannot read '{given}': no such file or directory")
        for file in files:
            unique.setdefault(same_file_key(file), file)
    found.files = list(unique.values())
    return found


def find_agent(path: Path, tree: Path | None = None) -> Path | None:
    """The agent.yaml naming ``path`` (:func:`find_naming_agent`), unless an agent.yaml itself."""
    return None if is_agent_file(path) else find_naming_agent(path, tree)


def _expand_named_file(path: Path, given: str, found: Findings, by_content: bool) -> list[str]:
    """What a named file makes a run validate: the agent.yaml naming it, if one does; itself if
    a search would take it or it holds nothing or a string (HMT006); else a problem."""
    if is_agent_file(path):
        return [given]
    agent = find_naming_agent(path)
    if agent is not None:
        return [str(agent), given]
    unread = len(found.problems)
    head = _read_head(path, found.problems)  # read once: sniffed, then its top level
    if len(found.problems) > unread:
        return []
    if _holds(head, quick=True):
        if is_yaml_file(path) or _top_level(head) != "YAMLError":
            return [given]
    elif not by_content and _top_level(head) in (None, "ScalarEvent"):
        return [given]
    if by_content:
        found.passed.append((given, NOT_HOLODECK))
    else:
        found.problems.append(NOT_NAMED.format(given))
    return []


def text_holds_test_cases(text: str) -> bool:
    """Whether a text (an editor's buffer) is a HoloDeck file by its content."""
    return _holds_test_cases(text.encode("utf-8", "surrogatepass")[:_SNIFF_BYTES])
