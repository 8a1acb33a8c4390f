"""Build the GitHub Pages site: every schema file at the URL its ``$id`` names, and the docs.

The site's root is holodeck_mt/urls.py's ``PAGES``; each schema file goes to its ``$id``
below it (``schemas/v1/turn.schema.json``), the bundle too, so that the per-concept files'
relative ``$ref``s resolve where they are served; a per-concept file is served expanded, as
the validator reads it (scripts/bundle_schema.py's ``expanded_files``). The generated docs
(docs/*.md) and the changelog are copied beside them, with an index page linking everything.

    python -m scripts.build_site              # write site/
    python -m scripts.build_site --output DIR
"""

from __future__ import annotations

import argparse
import html
import json
import shutil
import sys
from pathlib import Path

from holodeck_mt import urls
from scripts.bundle_schema import expanded_files
from scripts.repo import ROOT

SITE = ROOT / "site"


def schema_files() -> dict[str, Path]:
    """Path under the site's root -> schema file (the bundle included), by ``$id``."""
    found: dict[str, Path] = {}
    sources = sorted((ROOT / "schema").glob("*.schema.json"))
    sources.append(ROOT / "schema" / "bundle" / urls.BUNDLE_NAME)
    for path in sources:
        schema_id = json.loads(path.read_text(encoding="utf-8"))["$id"]
        if not schema_id.startswith(urls.SCHEMA_BASE):
            raise ValueError(f"{path}: $id {schema_id} is not under {urls.SCHEMA_BASE}")
        found[schema_id.removeprefix(urls.PAGES)] = path
    return found


def pages() -> dict[str, Path]:
    """Path under the site's root -> source file, for every file of the site but the index."""
    found = schema_files()
    for path in sorted((ROOT / "docs").glob("*.md")):
        found[f"docs/{path.name}"] = path
    found["CHANGELOG.md"] = ROOT / "CHANGELOG.md"
    return found


def _link(url: str) -> str:
    return f'<a href="{html.escape(url)}">{html.escape(url)}</a>'


def index(files: dict[str, Path]) -> str:
    items = "\n".join(
        f'    <li><a href="{html.escape(name)}">{html.escape(name)}</a></li>' for name in files
    )
    return (
        '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8">'
        "<title>holodeck-mt</title></head>\n<body>\n"
        "  <h1>holodeck-mt</h1>\n"
        f"  <p>The JSON Schema of HoloDeck's test cases: bind {_link(urls.BUNDLE_URL)}. "
        f"Source, README and releases: {_link(urls.REPOSITORY)}.</p>\n"
        f"  <ul>\n{items}\n  </ul>\n</body>\n</html>\n"
    )


def build(output: Path) -> dict[str, Path]:
    """Write the site into ``output`` (a site built before is removed first)."""
    files = pages()
    expanded = expanded_files()
    if output.exists():
        shutil.rmtree(output)
    for name, source in files.items():
        target = output / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.parent == ROOT / "schema":
            target.write_text(expanded[source.name], encoding="utf-8")
        else:
            shutil.copyfile(source, target)
    (output / "index.html").write_text(index(files), encoding="utf-8")
    # Served as they are: no Jekyll pass over the Markdown or the underscore-free names.
    (output / ".nojekyll").write_text("", encoding="utf-8")
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--output", type=Path, default=SITE, help="the site's folder")
    args = parser.parse_args(argv)
    output: Path = args.output.resolve()
    if output.exists() and any(output.iterdir()) and not (output / ".nojekyll").is_file():
        print(
            f"{output} is not empty and not a site this script built: not replaced", file=sys.stderr
        )
        return 2
    files = build(output)
    print(f"wrote {len(files) + 1} files to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
