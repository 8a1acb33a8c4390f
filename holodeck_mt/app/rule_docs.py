"""``holodeck-mt rule CODE``: a code's section of docs/diagnostics.md (generated from the
registry), then its rule module's documentation and the page's link, offline."""

from __future__ import annotations

from pathlib import Path

from holodeck_mt.rules.registry import REGISTRY, Code, Rule
from holodeck_mt.urls import code_docs

PAGE = "diagnostics.md"


class UnknownCode(Exception):
    """A code (or rule name) the registry does not hold."""


def page_path() -> Path:
    """docs/diagnostics.md: the installed copy first, else the checkout's."""
    package = Path(__file__).resolve().parent.parent
    for folder in (package / "docs", package.parent / "docs"):
        if (folder / PAGE).is_file():
            return folder / PAGE
    raise FileNotFoundError(f"{PAGE} is installed neither in {package / 'docs'} nor beside it")


def entry(name: str) -> Code:
    """The registry's entry for a code (``HMT102``, ``hmt102``) or a rule name (``wrong-type``)."""
    wanted = name.strip()
    for code in REGISTRY:
        if wanted.upper() == code.code or wanted.lower() == code.name:
            return code
    raise UnknownCode(wanted)


def documentation(code: Code, page: str) -> str:
    """What ``holodeck-mt rule CODE`` prints: the code's section of the page, then its rule's."""
    start = page.find(f"\n## {code.code}\n")
    if start < 0:
        raise UnknownCode(code.code)
    end = page.find("\n## ", start + 1)
    parts = [page[start + 1 : end if end >= 0 else len(page)].strip("\n")]
    if isinstance(code, Rule) and code.documentation:
        parts.append(code.documentation)
    parts.append(f"Documentation: {code_docs(code.code)}")
    return "\n\n".join(parts) + "\n"


def text(code: str | None) -> str:
    """What ``holodeck-mt rule`` prints: ``code``'s documentation, or every code's (None)."""
    page = page_path().read_text(encoding="utf-8")
    codes = REGISTRY if code is None else [entry(code)]
    return "\n".join(documentation(found, page) for found in codes)


def listing() -> str:
    """``holodeck-mt rule --list``: every code, its severity and name, as ``--statistics``."""
    return "".join(
        f"{c.code}  {c.severity:<7}  {c.name}{c.retired and ' (retired)'}\n" for c in REGISTRY
    )
