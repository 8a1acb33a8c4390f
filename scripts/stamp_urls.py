"""Stamp the public URLs of holodeck_mt/urls.py into every file that names them, the
checkout's version into the pages' release pins (``holodeck-mt@v0.1.0``, ``rev: v0.1.0``),
and urls.py's platform release into the files that install or name it (the Makefile,
action.yml, README.md and docs/: ``holodeck-ai 0.7.1``, ``PLATFORM_VERSION := 0.7.1``).

The URLs last stamped are read back from the repository itself: the schema folder from the
committed bundle's ``$id``, the repository (and its ``owner/name``, as ``uses:`` names it)
and its Pages site from pyproject.toml's ``[project.urls]``. Each is replaced by the value
urls.py gives now, in one pass over every text file of the repository (links are never
followed; CHANGELOG.md keeps its history).
``make schema`` runs this first, then rebuilds the bundle, the SchemaStore kit and the docs.

    python -m scripts.stamp_urls            # rewrite the files that name an old URL
    python -m scripts.stamp_urls --check    # exit 1 when a file still names one
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from holodeck_mt import urls
from scripts.repo import ROOT, write_atomically

#: Folders that are not the project's text: tools' caches, builds, installed packages.
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".venv",
        "node_modules",
        "build",
        "dist",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".hypothesis",
        "__pycache__",
        "bench-data",
        "mutants",
    }
)
#: Files whose old URLs are history, not a claim about where things are now.
KEPT = frozenset({"CHANGELOG.md"})
GITHUB = "https://github.com/"
#: No file of ours is this large; a larger one is not read.
MAX_BYTES = 16 * 1024 * 1024


def _project_url(pyproject: str, key: str) -> str | None:
    found = re.search(rf'^{re.escape(key)} = "([^"]+)"$', pyproject, re.M)
    return found.group(1) if found else None


def stamped(root: Path) -> dict[str, str]:
    """The URLs the files of ``root`` name now, by the urls.py constant they stand for."""
    bundle = root / "schema" / "bundle" / urls.BUNDLE_NAME
    found: dict[str, str] = {}
    if bundle.is_file():
        bundle_id = json.loads(bundle.read_text(encoding="utf-8")).get("$id", "")
        if isinstance(bundle_id, str) and bundle_id.endswith("/" + urls.BUNDLE_NAME):
            found["SCHEMA_BASE"] = bundle_id.removesuffix(urls.BUNDLE_NAME)
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    for constant, key in (("REPOSITORY", "Repository"), ("PAGES", "Documentation")):
        url = _project_url(pyproject, key)
        if url is not None:
            found[constant] = url
    if found.get("REPOSITORY", "").startswith(GITHUB):
        found["SLUG"] = found["REPOSITORY"].removeprefix(GITHUB)
    return found


def replacements(root: Path) -> dict[str, str]:
    """Old URL -> new URL, for every stamped URL urls.py now gives another value."""
    wanted = {
        "SCHEMA_BASE": urls.SCHEMA_BASE,
        "REPOSITORY": urls.REPOSITORY,
        "SLUG": urls.SLUG,
        "PAGES": urls.PAGES,
    }
    return {old: wanted[name] for name, old in stamped(root).items() if old != wanted[name]}


def version(root: Path) -> str:
    """The checkout's version, as ``holodeck_mt/__init__.py`` writes it."""
    init = (root / "holodeck_mt" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"$', init, re.M)
    if found is None:
        raise SystemExit("holodeck_mt/__init__.py names no __version__")
    return found.group(1)


def text_files(root: Path) -> Iterator[Path]:
    """Every regular file under ``root`` outside the skipped folders, links left alone."""
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            path = Path(folder) / name
            if name in KEPT and path.parent == root:
                continue
            if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
                continue
            yield path


#: A pin of a release in the hand-written pages: ``holodeck-mt@v0.1.0`` (the action,
#: pip's git URL) and pre-commit's ``rev: v0.1.0``.
PIN = re.compile(r"(?<=holodeck-mt@v)\d+\.\d+\.\d+\b|(?<=\brev: v)\d+\.\d+\.\d+\b")


def pinned_pages(root: Path) -> set[Path]:
    """The pages whose pins name the version of the checkout: the README and docs/."""
    return {root / "README.md", *(root / "docs").glob("*.md")}


#: The platform release where a file installs or names it: ``holodeck-ai 0.7.1``,
#: ``holodeck-ai==0.7.1``, the Makefile's ``PLATFORM_VERSION := 0.7.1`` and the action's
#: ``platform=0.7.1``.
PLATFORM = re.compile(
    r"(?<=holodeck-ai )\d+\.\d+\.\d+\b|(?<=holodeck-ai==)\d+\.\d+\.\d+\b"
    r"|(?<=^PLATFORM_VERSION := )\d+\.\d+\.\d+$|(?<=\bplatform=)\d+\.\d+\.\d+\b",
    re.M,
)


def platform_files(root: Path) -> set[Path]:
    """The files that install the platform release or name it: the pages, the Makefile and
    the action."""
    return {*pinned_pages(root), root / "Makefile", root / "action.yml"}


def stamp(root: Path, *, check: bool = False) -> list[Path]:
    """Rewrite (or with ``check`` only list) the files of ``root`` that name an old URL,
    or, in the pages, pin a release other than the checkout's version, or name a platform
    release other than urls.py's."""
    table = replacements(root)
    # One pass, longest first: a new URL that contains an old one is never replaced again.
    pattern = re.compile("|".join(re.escape(old) for old in sorted(table, key=len, reverse=True)))
    pages, platform = pinned_pages(root), platform_files(root)
    pinned = version(root)
    changed: list[Path] = []
    for path in text_files(root):
        if not table and path not in platform:
            continue
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        new = pattern.sub(lambda m: table[m.group(0)], text) if table else text
        if path in pages:
            new = PIN.sub(pinned, new)
        if path in platform:
            new = PLATFORM.sub(urls.PLATFORM_VERSION, new)
        if new != text:
            changed.append(path)
            if not check:
                write_atomically(path, new)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if a file names an old URL")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    root: Path = args.root
    changed = stamp(root, check=args.check)
    for path in changed:
        verb = "names an old URL, pin or platform release" if args.check else "stamped"
        print(f"{path.relative_to(root).as_posix()}: {verb}")
    if args.check and changed:
        print("run `make schema` and commit what it rewrites", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
