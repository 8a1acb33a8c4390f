"""The bundle compiles in Ajv 8 strict mode, the validator of SchemaStore's checks.

Strict mode (union types allowed) refuses a `required` key no `properties` beside it
defines, and a type-specific keyword without its `type`; the keywords only editors and
holodeck-mt read are declared first, as a JavaScript tool using the bundle would.
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


def test_the_bundle_compiles_in_ajv_strict_mode() -> None:
    _require_ajv()
    keywords = sorted(EDITOR_KEYWORDS | HOLODECK_KEYWORDS)
    done = subprocess.run(
        ["node", str(SCRIPT), str(bundle_path()), *keywords],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "compiled"), done.stdout + done.stderr
