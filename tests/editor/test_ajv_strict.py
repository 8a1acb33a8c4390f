"""The published bundle compiles in Ajv 8 strict mode, the validator of SchemaStore's checks.

Strict mode (union types allowed) refuses a `required` key no `properties` beside it
defines, a type-specific keyword without its `type`, and any keyword it does not know:
only the keywords editors read are declared first, as a JavaScript tool using the bundle
would. The validator's own `x-holodeck-*` annotations stay in the schema files.
Ajv is pinned in editor/package.json and installed by `make test`, like the editor tests.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from holodeck_mt.contract.registry import bundle_path
from holodeck_mt.contract.walker import EDITOR_KEYWORDS, HOLODECK_KEYWORDS
from tests.conftest import unavailable

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "editor" / "compile-bundle.js"
AJV = ROOT / "editor" / "node_modules" / "ajv" / "package.json"


def _require_ajv() -> None:
    """Skip loudly without Node.js or Ajv; in CI (CI is set) fail instead."""
    missing = (
        "Node.js is not installed (node is not on the PATH)"
        if shutil.which("node") is None
        else f"{AJV.parent.relative_to(ROOT)} is missing"
        if not AJV.is_file()
        else None
    )
    if missing is None:
        return
    unavailable(
        f"AJV STRICT COMPILE NOT RUN: {missing}. Install Node.js (>= 20) and run `make test`."
    )


def require_ajv() -> None:
    """Skip (or in CI fail) without Node.js and the pinned Ajv."""
    _require_ajv()


def test_the_published_bundle_holds_no_annotation_of_the_validators() -> None:
    text = bundle_path().read_text(encoding="utf-8")
    assert [keyword for keyword in sorted(HOLODECK_KEYWORDS) if f'"{keyword}"' in text] == []
    assert '"x-holodeck' not in text


def test_the_bundle_compiles_in_ajv_strict_mode_with_only_the_editor_keywords() -> None:
    _require_ajv()
    keywords = sorted(EDITOR_KEYWORDS)
    done = subprocess.run(
        ["node", str(SCRIPT), str(bundle_path()), *keywords],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "compiled"), done.stdout + done.stderr
