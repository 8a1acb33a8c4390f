"""Each fact of the package is written once: a second definition anywhere fails here.

The package's source is searched for what writes each fact (a table of line breaks, a
``clip``, an escaper, the lookup of a repository's root, the list of output formats, a
code's severity); only the module that owns it may hold it, and everything else imports
it from there.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "holodeck_mt"

#: Each fact: what writes it (a pattern over a module's source) and the one module that may.
FACTS: dict[str, tuple[str, str]] = {
    # The line breaks: a table of them, an alternation of them, or a name kept for one.
    "line-break table": (
        r"\\r\\n\||\\x85|\\u2028\\u2029|\\x1c\\x1d"
        r"|^\s*_?(LINE_BREAKS?|SPLITLINES\w*|NOT_LF|BREAKS|_LF)\s*=",
        "text/lines.py",
    ),
    "clip": (r"^\s*def _?clip\b", "model.py"),
    "escaper": (
        r"^\s*def _?escape\w*\(|\"Cc\", \"Cf\"|\\x00-\\x1f|\\x7f-\\x9f|\"%25\"",
        "text/safe_text.py",
    ),
    "JSON pointer segment": (r'"~0"', "model.py"),
    "repository root": (
        r'(/|,)\s*"\.git"|^\s*def _?(tree_of|repository_root)\b',
        "read/confine.py",
    ),
    "output formats": (r"[\"'](sarif|junit)[\"']", "render/__init__.py"),
    "severity": (
        r"^def severity\b|Literal\[\"error\", \"warning\"\]|severity=\"(error|warning)\"",
        "model.py",
    ),
    "code selector": (r"HMT\\d\{0,3\}", "selection.py"),
    "platform choices": (r"[\"']auto[\"'],\s*[\"']off[\"']", "project/config.py"),
    "error reason": (r"\bstrerror\b", "model.py"),
    "exit codes": (
        r"^[ \t]*(EXIT_\w+,[ \t]*)*EXIT_(OK|INVALID|REFUSED|USAGE)\b[\w, \t]*=",
        "model.py",
    ),
    "UTF-8 byte-order mark": (r"\\xef\\xbb\\xbf", "read/decoding.py"),
    "usage error prefix": (r"holodeck-mt: error", "model.py"),
    # A count and its noun, the noun in the plural unless the count is one.
    "plural": (
        r"^\s*def \w+\(\w+: int, \w+: str\b[^)]*\) -> str:|^\s*return .*\bif \w+ [!=]= 1 else\b",
        "wording/hints.py",
    ),
}


def holders(pattern: str, sources: dict[str, str]) -> set[str]:
    """The modules (by path) whose source writes what ``pattern`` finds."""
    found = re.compile(pattern, re.M)
    return {name for name, source in sources.items() if found.search(source)}


SOURCES = {
    path.relative_to(PACKAGE).as_posix(): path.read_text(encoding="utf-8")
    for path in PACKAGE.rglob("*.py")
}


@pytest.mark.parametrize("fact", sorted(FACTS))
def test_each_fact_is_written_in_one_module(fact: str) -> None:
    pattern, owner = FACTS[fact]
    assert holders(pattern, SOURCES) == {owner}


SECOND_DEFINITIONS = {
    "line-break table": '_LINE_BREAK = re.compile(r"\\r\\n|\\r|\\n")\n',
    "clip": "def clip(text: str, limit: int = 60) -> str:\n",
    "escaper": 'def escape_data(text: str) -> str:\n    return text.replace("%", "%25")\n',
    "JSON pointer segment": 'name.replace("~", "~0").replace("/", "~1")\n',
    "repository root": 'if (candidate / ".git").exists():\n',
    "output formats": 'FORMATS = ("text", "json", "sarif")\n',
    "severity": "def severity(code: str) -> Severity:\n",
    "code selector": '_SELECTOR = re.compile(r"HMT\\d{0,3}")\n',
    "platform choices": '"--platform": {"choices": ("auto", "off", "required")},\n',
    "error reason": "return f\"cannot read '{path}': {e.strerror or e}\"\n",
    "exit codes": "EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2\n",
    "UTF-8 byte-order mark": '_BOM = b"\\xef\\xbb\\xbf"\n',
    "usage error prefix": 'print(f"holodeck-mt: error: {message}", file=sys.stderr)\n',
    "plural": 'def _count(n: int, word: str) -> str:\n    return f"{n} {word}"\n',
}
#: What looks like a fact without writing it: the same words, used, not defined.
NEAR_MISSES = {
    "line-break table": "from holodeck_mt.text.lines import CR_LF_BREAKS as _LINE_BREAK\n",
    "clip": "from holodeck_mt.model import clip\nshown = clip(name)\n",
    "escaper": (
        "out.write(escape(line))\ndef _unknown_escape(text: str) -> None:\n"
        'unicodedata.category(ch) == "Sc"\n'
    ),
    "JSON pointer segment": 'pointer = "/" + pointer_segment(name)\n',
    "repository root": 'SKIPPED = {".git", ".hg", ".venv"}\nroot = confine.repository_root(here)\n',
    "output formats": "choices = list(FORMATS)\n",
    "severity": 'if d.severity == "error":\n    @property\n    def severity(self) -> str:\n',
    "code selector": "if SELECTOR.fullmatch(code):\n",
    "platform choices": '"--platform": {"choices": PLATFORM_CHOICES},\nif platform == "off":\n',
    "error reason": "return f\"cannot read '{path}': {reason_of(e)}\"\n",
    "exit codes": (
        "from holodeck_mt.model import (\n    EXIT_OK,\n    EXIT_USAGE,\n)\n"
        "EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143\nreturn EXIT_USAGE if bad else EXIT_OK\n"
    ),
    "UTF-8 byte-order mark": "bom = decoding.bom_of(raw)\nshift = text.startswith(BOM)\n",
    "usage error prefix": "print(usage_error(message), file=sys.stderr)\n",
    "plural": 'def _count(rows: list[str]) -> str:\n    return plural(len(rows), "row")\n',
}


@pytest.mark.parametrize("fact", sorted(FACTS))
def test_a_second_definition_is_found_and_a_use_is_not(fact: str) -> None:
    pattern, owner = FACTS[fact]
    sources = {owner: SOURCES[owner], "elsewhere.py": SECOND_DEFINITIONS[fact]}
    assert holders(pattern, sources) == {owner, "elsewhere.py"}
    sources["elsewhere.py"] = NEAR_MISSES[fact]
    assert holders(pattern, sources) == {owner}
