"""The one place holodeck-mt's public URLs, and the platform release it is checked against,
are written: everything else naming one is stamped from these by ``make schema``
(scripts/stamp_urls.py)."""

from __future__ import annotations

#: PLACEHOLDER: the GitHub account (user or organisation) that hosts the repository.
#: Replace it with the real owner before the first release tag.
OWNER = "placeholder-owner"

#: The repository (as `uses:` and pre-commit name it, and its URL), its GitHub Pages site,
#: and the schema's major version.
SLUG = f"{OWNER}/holodeck-mt"
REPOSITORY = f"https://github.com/{SLUG}"
PAGES = f"https://{OWNER}.github.io/holodeck-mt/"
SCHEMA_MAJOR = 1
#: The holodeck-ai release the verdicts are checked against: the Makefile and the tests'
#: oracle install it, the action's ``platform: true`` too, and the docs name it.
PLATFORM_VERSION = "0.7.1"

#: The folder every schema file's ``$id`` lives in (served by .github/workflows/pages.yml).
SCHEMA_BASE = f"{PAGES}schemas/v{SCHEMA_MAJOR}/"
#: The single-file schema editors and catalogues bind.
BUNDLE_NAME = "holodeck-mt.schema.json"
BUNDLE_URL = SCHEMA_BASE + BUNDLE_NAME
#: The same bundle, attached to every GitHub release (.github/workflows/release.yml).
RELEASE_BUNDLE_URL = f"{REPOSITORY}/releases/latest/download/{BUNDLE_NAME}"


def code_docs(code: str) -> str:
    """Where ``code`` (``HMT102``) is documented: its section (anchor ``#hmt102``) of
    docs/diagnostics.md as the repository renders it; the language server links to it."""
    return f"{REPOSITORY}/blob/main/docs/diagnostics.md#{code.lower()}"
