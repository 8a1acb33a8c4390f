"""Bundle the schema files into one self-contained draft 2020-12 document.

Editors and schema catalogues bind one URL or one file; our schema is one file per concept,
joined by relative ``$ref``s resolved against ``$id``s nobody can fetch. The bundle's root is
document.schema.json's root; every definition of every file moves into the bundle's ``$defs``
(under its own name, or prefixed with its file's name when two files define the same name)
and every ``$ref`` becomes a local ``#/$defs/<Name>`` pointer. Titles, descriptions and the
editor keywords travel with the definitions unchanged; the validator's own annotations
(``x-holodeck-*``, read only from the schema files) are left out, so that the published
bundle is plain JSON Schema plus the keywords editors read. The files are read expanded
(holodeck_mt/contract/expansion.py), as the validator reads them: a turn's fields, written
once, are in each definition that takes them, each closed by ``additionalProperties``.

    python -m scripts.bundle_schema           # write schema/bundle/holodeck-mt.schema.json
    python -m scripts.bundle_schema --check   # exit 1 when the committed bundle is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

from holodeck_mt.contract.registry import BASE_URI, DOCUMENT, schema_files
from holodeck_mt.contract.walker import HOLODECK_KEYWORDS, rebuild
from scripts.repo import ROOT, write_atomically

BUNDLE_ID = BASE_URI + "holodeck-mt.schema.json"
BUNDLE_PATH = ROOT / "schema" / "bundle" / "holodeck-mt.schema.json"

#: Keywords of a file's root that the bundle does not carry over into a definition.
_RESOURCE_KEYWORDS = frozenset({"$schema", "$id", "$defs"})


class BundleError(ValueError):
    """A schema file uses a reference the bundler cannot rewrite."""


def _camel(stem: str) -> str:
    return "".join(part.capitalize() for part in stem.replace("_", "-").split("-"))


def _stem(uri: str) -> str:
    return uri.rsplit("/", 1)[-1].removesuffix(".schema.json")


class _Bundler:
    def __init__(self, files: dict[str, dict[str, Any]]) -> None:
        self.files = files
        counts = Counter(name for schema in files.values() for name in schema.get("$defs", {}))
        taken = {name for name, count in counts.items() if count == 1}
        #: (file $id, definition name) -> name in the bundle.
        self.names: dict[tuple[str, str], str] = {}
        for uri, schema in files.items():
            for name in schema.get("$defs", {}):
                if counts[name] == 1:
                    self.names[uri, name] = name
                else:
                    self.names[uri, name] = self._fresh(_camel(_stem(uri)) + name, taken)
        self.defs: dict[str, Any] = {}
        self._roots: dict[str, str] = {}  # file $id -> definition holding its root
        self._taken = taken

    @staticmethod
    def _fresh(name: str, taken: set[str]) -> str:
        candidate, n = name, 2
        while candidate in taken:
            candidate, n = f"{name}{n}", n + 1
        taken.add(candidate)
        return candidate

    def _root_ref(self, uri: str) -> str:
        """The bundle pointer that stands for a whole file."""
        if uri == DOCUMENT:
            return "#"
        if uri not in self._roots:
            root = {k: v for k, v in self.files[uri].items() if k not in _RESOURCE_KEYWORDS}
            target = root.get("$ref")
            annotations = {"$ref", "title", "description", "markdownDescription"}
            if isinstance(target, str) and set(root) <= annotations:
                # A root that only points at one of its definitions is that definition.
                self._roots[uri] = self.rewrite_ref(uri, target)
            else:
                name = self._fresh(_camel(_stem(uri)) + "File", self._taken)
                self._roots[uri] = "#/$defs/" + name
                self.defs[name] = self.rewrite(uri, root)
        return self._roots[uri]

    def rewrite_ref(self, base: str, ref: str) -> str:
        target, fragment = urldefrag(urljoin(base, ref))
        if target not in self.files:
            raise BundleError(f"{base}: $ref {ref!r} points outside the schema files")
        if not fragment:
            return self._root_ref(target)
        parts = fragment.split("/")
        if parts[0] != "" or len(parts) < 3 or parts[1] != "$defs":
            raise BundleError(f"{base}: $ref {ref!r} is not a pointer into $defs")
        name = parts[2].replace("~1", "/").replace("~0", "~")
        if (target, name) not in self.names:
            raise BundleError(f"{base}: $ref {ref!r} names an unknown definition")
        rest = "/".join(parts[3:])
        return "#/$defs/" + self.names[target, name] + ("/" + rest if rest else "")

    def rewrite(self, base: str, node: Any) -> Any:
        """A copy of ``node`` with every ``$ref`` rewritten (data keywords left as they are)."""
        return rebuild(
            node,
            keep=lambda keyword: keyword not in HOLODECK_KEYWORDS,
            ref=lambda target: self.rewrite_ref(base, target),
        )

    def bundle(self) -> dict[str, Any]:
        for uri, schema in self.files.items():
            for name, definition in schema.get("$defs", {}).items():
                self.defs[self.names[uri, name]] = self.rewrite(uri, definition)
        document = self.files[DOCUMENT]
        root: dict[str, Any] = {"$schema": document["$schema"], "$id": BUNDLE_ID}
        for key, value in document.items():
            if key not in _RESOURCE_KEYWORDS:
                root[key] = self.rewrite(DOCUMENT, value)
        root["$defs"] = self.defs
        return root


def bundle(files: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The bundled schema, built from ``files`` (default: the schema files, by ``$id``)."""
    return _Bundler(schema_files() if files is None else files).bundle()


def render(schema: dict[str, Any]) -> str:
    """The bundle's text, as committed."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def expanded_files() -> dict[str, str]:
    """File name -> text of each schema file as the validator reads it (expanded: see
    holodeck_mt/contract/expansion.py), what the site serves at the file's ``$id``."""
    return {uri.rsplit("/", 1)[-1]: render(schema) for uri, schema in schema_files().items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if the committed bundle is not up to date"
    )
    parser.add_argument("--output", type=Path, default=BUNDLE_PATH, help="where the bundle goes")
    args = parser.parse_args(argv)
    text = render(bundle())
    output: Path = args.output
    if args.check:
        current = output.read_text(encoding="utf-8") if output.is_file() else None
        if current != text:
            print(
                f"{output} is stale: run `python -m scripts.bundle_schema` and commit it",
                file=sys.stderr,
            )
            return 1
        print(f"{output} is up to date")
        return 0
    output.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(output, text)
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
