"""``${NAME}`` replaced before parsing, as the platform does, with a map back to the file.

The platform substitutes the raw text (comments and quotes included); an unset reference
becomes a plain word of its length, nothing found on it told; a fault inside a value
stands at its ``${``. What came from a set reference is told by :attr:`Substituted.spans`
(``locate/provenance``), never by a value's characters. An unset variable is a warning
(HMT213): the platform refuses the file, but it may be set where the tests run (CI secrets).
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import operator
import os
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from holodeck_mt.model import Diagnostic, clip, make
from holodeck_mt.text.lines import CR_LF_BREAKS

#: The largest ``.env`` file read; a larger one is refused.
MAX_ENV_FILE = 256 * 1024
#: The most characters the expansion of one ``.env`` file's references may read and make.
MAX_ENV_EXPANSION = 4 * MAX_ENV_FILE
#: An unset reference as :func:`substitute` writes it, its name in the group.
UNSET = re.compile(r"\$_([A-Za-z_][A-Za-z0-9_]*)_")
#: Where the ``holodeck`` command reads variables from, after the environment.
ENV_FILES = (Path(".env"), Path("~/.holodeck/.env"))


#: Said of a variable the path of `test_cases_file` needs: the file is not followed.
_UNFOLLOWED = "; the test-cases file `test_cases_file` names was not validated: its path needs {}"
#: Said of a variable only the ``.env`` of the file's folder sets (not the working folder's).
_FOLDER_ONLY = (
    "`holodeck test` reads ./.env where it runs (the working folder), not the .env in this "
    "file's folder, which sets {}: set it in ./.env, or run from this file's folder"
)
#: The platform's reference syntax: ``${`` a name ``}``, nothing else (no defaults).
REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _unset(
    text: str,
    environ: Mapping[str, str],
    unfollowed: Collection[str] = (),
    folder_only: Collection[str] = (),
) -> list[Diagnostic]:
    """One warning per unset variable, at its first reference (ranged by
    :func:`check_references`). ``environ``: the variables a ``holodeck`` command sees
    (:func:`environment`), never the environment alone;
    ``unfollowed``: those in a `test_cases_file` that was therefore not validated;
    ``folder_only``: those the ``.env`` of the file's own folder sets, which the command ignores."""
    if "${" not in text:
        return []
    first: dict[str, int] = {}
    count: dict[str, int] = {}
    for match in REFERENCE.finditer(text):
        name = match.group(1)
        if name in environ:
            continue
        first.setdefault(name, match.start())
        count[name] = count.get(name, 0) + 1
    if not first:
        return []
    starts = [0] + [m.end() for m in CR_LF_BREAKS.finditer(text)]
    out = []
    for name, offset in first.items():
        line, column = _position(starts, offset)
        more = count[name] - 1
        also = f" ({more} more reference{'s' if more != 1 else ''})" if more else ""
        shown = clip(name)
        out.append(
            make(
                "HMT213",
                f"environment variable {shown} is not set: the platform refuses to load this "
                f"file unless it is set when it runs{also}"
                + (_UNFOLLOWED.format(shown) if name in unfollowed else ""),
                line,
                column,
                hint=(
                    _FOLDER_ONLY if name in folder_only else "set {} where `holodeck test` runs"
                ).format(shown)
                + (", and here to validate the test-cases file too" if name in unfollowed else "")
                + f", or remove ${{{shown}}}",
            )
        )
    return out


@dataclass
class Substituted:
    """The text as the platform parses it, and how its offsets map back."""

    text: str
    #: Each replaced reference: its start and end in the new text, then in the file.
    spans: list[tuple[int, int, int, int]] = field(default_factory=list)
    #: The spans of unset references in the new text.
    unset: list[tuple[int, int]] = field(default_factory=list)
    #: Each referenced variable that is set, with its value: what no output may show.
    used: dict[str, str] = field(default_factory=dict)

    def original(self, offset: int, *, end: bool = False) -> int:
        """The file's offset for ``offset`` of the new text; inside a replaced value, the
        reference's start (its end, for the end of a range)."""
        i = bisect.bisect_right(self.spans, offset, key=operator.itemgetter(0)) - 1
        if i < 0:
            return offset
        new_start, new_end, old_start, old_end = self.spans[i]
        if end and new_start < offset <= new_end:
            return old_end  # a range ending inside the value ends with the reference
        if offset < new_end:
            return old_start
        return offset - new_end + old_end

    def blames_unset(self, start: int, end: int) -> bool:
        """Whether the range ``[start, end)`` of the new text touches an unset reference."""
        end = max(end, start + 1)
        # Sorted and apart: only the last span starting before ``end`` can reach ``start``.
        i = bisect.bisect_left(self.unset, (end,)) - 1
        return i >= 0 and start < self.unset[i][1]

    def place(
        self, d: Diagnostic, starts: Sequence[int], written: Sequence[int]
    ) -> Diagnostic | None:
        """``d``, found on :attr:`text` (its lines starting at ``starts``), at its place in the
        file as written (its lines at ``written``); None on an unset reference. A search by
        halves per diagnostic."""
        start = _offset(starts, d.line, d.column)
        end = _offset(starts, d.end_line or d.line, d.end_column or d.column)
        if self.blames_unset(start, end):
            return None
        line, column = _position(written, self.original(start))
        end_line, end_column = _position(written, self.original(max(end, start), end=True))
        return dataclasses.replace(
            d,
            line=line,
            column=column,
            end_line=end_line if d.end_line is not None else None,
            end_column=end_column if d.end_column is not None else None,
        )


@dataclass(frozen=True)
class Environment:
    """The variables a ``holodeck`` command sees, and the ``.env`` files refused here."""

    variables: dict[str, str]
    #: Each refused file's name as shown and why (never its content).
    refused: tuple[str, ...] = ()


def environment(
    folder: Path | None = None, environ: Mapping[str, str] | None = None
) -> Environment:
    """The variables a ``holodeck`` command run in ``folder`` (default: the working
    directory) sees: the environment, then ``folder/.env``, then ``~/.holodeck/.env``, each
    file as ``load_dotenv(override=False)`` loads it, nothing put in this process's
    environment. ``folder/.env`` stays in ``folder``'s tree, neither file is read from
    ``/proc``, ``/sys`` or ``/dev``, nor past :data:`MAX_ENV_FILE` bytes."""
    found = dict(os.environ if environ is None else environ)
    refused: list[str] = []
    for shown, path, tree in _env_files(folder):
        if _dotenv_disabled(found):
            break
        values, why = _env_file(path, tree, found)
        if why is not None:
            refused.append(f"{shown} {why}")
        for name, value in values.items():
            found.setdefault(name, value)
    return Environment(found, tuple(refused))


#: The braces of a text looked at one by one before it is searched for ``${`` whole.
_BRACES_LOOKED_AT = 1024


def may_reference(text: str) -> bool:
    """``"${" in text``, each brace found by a one-character search (memchr, twenty times faster
    than a two-character search on a text full of ``$``); past so many, the rest searched whole."""
    at = text.find("{", 1)
    for _ in range(_BRACES_LOOKED_AT):
        if at < 0:
            return False
        if text[at - 1] == "$":
            return True
        at = text.find("{", at + 1)
    return at >= 0 and text.find("${", at - 1) >= 0


def check_references(
    text: str, env: Environment, unfollowed: Collection[str], folder_only: Collection[str]
) -> list[Diagnostic]:
    """What substituting ``text`` found, each with its range: one HMT213 per variable unset
    in ``env`` (``unfollowed``, ``folder_only``: see :func:`_unset`), one per ``.env`` refused."""
    found = [*_unset(text, env.variables, unfollowed, folder_only), *_refused(text, env)]
    if not found:
        return []
    from holodeck_mt.text import ranges

    return ranges.with_ranges(text, found)


def _refused(text: str, env: Environment) -> list[Diagnostic]:
    """One HMT213 per ``.env`` file refused, at the first ``${NAME}`` of ``text`` (a text
    naming no variable does not depend on it); never quoting the file."""
    if not env.refused:
        return []
    first = REFERENCE.search(text)
    if first is None:
        return []
    from holodeck_mt.text import lines

    line, column = _position(lines.starts(text), first.start())
    return [
        make(
            "HMT213",
            f"{why}, so its variables are not used here: a variable set only there counts "
            "as unset, though the `holodeck` command reads the file",
            line,
            column,
            hint=f"make it a regular UTF-8 file of at most {MAX_ENV_FILE // 1024} KiB "
            "(`.env`: inside the repository)",
        )
        for why in env.refused
    ]


def _env_files(folder: Path | None) -> list[tuple[str, Path, Path | None]]:
    """Each ``.env`` file the command reads: its name as shown, its path, its tree."""
    files: list[tuple[str, Path, Path | None]] = []
    with contextlib.suppress(OSError, ValueError):  # a working directory removed meanwhile
        here = Path(os.path.realpath(folder if folder is not None else Path.cwd()))
        files.append((f"`{ENV_FILES[0]}`", here / ENV_FILES[0], here))
    with contextlib.suppress(OSError, RuntimeError):  # no home to expand
        home = Path(os.path.expanduser(ENV_FILES[1]))
        if home.is_absolute():
            files.append((f"`{ENV_FILES[1]}`", home, None))
    return files


def _dotenv_disabled(variables: Mapping[str, str]) -> bool:
    """python-dotenv's own switch: ``load_dotenv`` reads nothing while it is true."""
    return variables.get("PYTHON_DOTENV_DISABLED", "").casefold() in {"1", "true", "t", "yes", "y"}


def _env_file(
    path: Path, tree: Path | None, seen: Mapping[str, str]
) -> tuple[dict[str, str], str | None]:
    """The variables a ``.env`` file sets, expanded with those ``seen``, and why it was
    refused (None: read, or absent)."""
    import errno

    from holodeck_mt.read import files

    try:
        raw = files.read(path, MAX_ENV_FILE, tree=tree).raw
    except files.Refused as e:  # but a link to nothing, or to a folder, the command ignores
        return {}, str(e) if os.path.exists(path) and not os.path.isdir(path) else None
    except files.TooLarge:
        return {}, f"is larger than {MAX_ENV_FILE // 1024} KiB"
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.ENAMETOOLONG):
            return {}, None  # the command sees no file there, and reads none
        if e.errno == errno.EINVAL:  # python-dotenv reads nothing from a folder
            return {}, None if os.path.isdir(path) else "is not a regular file"
        return {}, "cannot be read"
    except ValueError:
        return {}, None
    try:
        return _expand(raw, seen), None
    except UnicodeDecodeError:
        return {}, "is not UTF-8 text (the `holodeck` command fails reading it)"
    except _TooLarge:
        return {}, f"is over {MAX_ENV_EXPANSION // 1024} KiB once its references are expanded"


class _TooLarge(Exception):
    pass


def _expand(raw: bytes, seen: Mapping[str, str]) -> dict[str, str]:
    """``raw`` expanded as ``load_dotenv(override=False)`` does (``seen`` first, then the
    lines above); :class:`_TooLarge` once the work passes :data:`MAX_ENV_EXPANSION`
    characters (a line can double the one above, unclosed ``${`` make the search quadratic)."""
    import collections
    import io

    from dotenv.parser import parse_stream
    from dotenv.variables import parse_variables

    above: dict[str, str | None] = {}
    visible = collections.ChainMap(seen, above)  # type: ignore[arg-type]
    work = 0
    with io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8") as stream:
        for binding in parse_stream(stream):
            if binding.key is None:
                continue  # a line python-dotenv cannot parse: skipped, as it skips it
            value = binding.value
            if value is not None and "${" in value:
                work += _search_cost(value)
                if work > MAX_ENV_EXPANSION:
                    raise _TooLarge
                parts = [atom.resolve(visible) for atom in parse_variables(value)]
                work += sum(map(len, parts))
                if work > MAX_ENV_EXPANSION:
                    raise _TooLarge
                value = "".join(parts)
            above[binding.key] = value
    return {name: value for name, value in above.items() if value is not None}


def _search_cost(value: str) -> int:
    """At most how many characters python-dotenv's search for references reads."""
    closing = [m.start() for m in re.finditer(r"\}", value)]
    cost = 0
    for match in re.finditer(r"\$\{", value):
        i = bisect.bisect_left(closing, match.end())
        cost += (closing[i] if i < len(closing) else len(value)) - match.start()
    return cost


def substitute(text: str, variables: Mapping[str, str]) -> Substituted:
    """``text`` with each set ``${NAME}`` replaced by its value, each unset one by a plain
    word of its length."""
    if "${" not in text:
        return Substituted(text)
    out: list[str] = []
    spans: list[tuple[int, int, int, int]] = []
    unset: list[tuple[int, int]] = []
    used: dict[str, str] = {}
    written = 0  # length of the new text so far
    last = 0
    for match in REFERENCE.finditer(text):
        out.append(text[last : match.start()])
        written += match.start() - last
        name = match.group(1)
        value = variables.get(name)
        if value is None:
            value = f"$_{name}_"  # parses as a plain scalar anywhere, keeps offsets (UNSET)
            unset.append((written, written + len(value)))
        else:
            used.setdefault(name, value)
        out.append(value)
        spans.append((written, written + len(value), match.start(), match.end()))
        written += len(value)
        last = match.end()
    out.append(text[last:])
    return Substituted("".join(out), spans, unset, used)


def _offset(starts: Sequence[int], line: int, column: int) -> int:
    line = min(max(line, 1), len(starts))
    return starts[line - 1] + max(column, 1) - 1


def _position(starts: Sequence[int], offset: int) -> tuple[int, int]:
    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1
