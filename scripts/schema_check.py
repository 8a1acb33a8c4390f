#!/usr/bin/env python3
"""Check the schema files before anyone relies on them.

Run by ``make schema-check``. Every check returns a list of problems (empty when
it passes), so the tests can call the checks one by one:

- every schema file is valid against the draft 2020-12 metaschema, as written and as
  expanded (holodeck_mt/contract/expansion.py), and the expansion can be made;
- no ``markdownDescription`` written in a file only repeats its node's ``description``
  around a YAML example: such a node says ``x-holodeck-yaml`` and the markdown is written
  from it;
- every ``$ref`` resolves offline through :func:`holodeck_mt.contract.registry.registry`;
- every property is documented for editors (description, markdownDescription,
  examples; enumDescriptions beside an enum);
- every ``examples`` value validates against the subschema that holds it;
- every ``defaultSnippets`` body, its placeholders replaced by their defaults,
  validates against the subschema that holds it;
- every contract example (sections 1, 3, 5, 6, 8.1 to 8.4), as committed under
  ``examples/contract/``, validates; when the contract is at hand, each committed
  copy still holds its contract block verbatim (give or take a uniform indentation).

Exit status: 0 when every check passes (one summary line on stdout), 1 otherwise
(one line per problem on stderr), 2 for a bad option.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, best_match
from referencing import Registry
from referencing.exceptions import Unresolvable
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from holodeck_mt.contract import registry as schemas
from holodeck_mt.contract.expansion import ExpansionError, expand, markdown
from holodeck_mt.contract.walker import YAML as YAML_EXAMPLE
from holodeck_mt.contract.walker import subschemas
from scripts.repo import ROOT

REPO = ROOT
CONTRACT_EXAMPLES_DIR = REPO / "examples" / "contract"
DEFAULT_CONTRACT = REPO.parent / "shared" / "contract" / "test-case-schema.md"

#: Contract section -> committed copy of its YAML example (wrapped into a document).
CONTRACT_EXAMPLES: dict[str, str] = {
    "1": "section-1-grammar.yaml",
    "3": "section-3-expected-tools.yaml",
    "5": "section-5-evaluators.yaml",
    "6": "section-6-files-per-turn.yaml",
    "8.1": "section-8.1-minimal-multi-turn.yaml",
    "8.2": "section-8.2-ground-truth-and-tools.yaml",
    "8.3": "section-8.3-fuzzy-and-regex.yaml",
    "8.4": "section-8.4-numeric-and-code.yaml",
}

Schemas = Mapping[str, Mapping[str, Any]]


@dataclass
class Report:
    """What the checks found, and what they counted on the way."""

    problems: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, name: str, problems: list[str], count: int) -> None:
        self.problems.extend(problems)
        self.counts[name] = count


# --- walking the schema files ----------------------------------------------------


def uri_of(file_id: str, pointer: str) -> str:
    """The URI of the subschema at ``pointer`` of the file ``file_id``."""
    return f"{file_id}#{quote(pointer, safe='/~$')}"


def short(file_id: str) -> str:
    return file_id.rsplit("/", 1)[-1]


def registry_for(files: Schemas) -> Registry[Any]:
    """An offline registry of ``files`` (the checked-in files: :func:`schemas.registry`)."""
    return schemas.registry_for({uri: dict(contents) for uri, contents in files.items()})


def validator_at(uri: str, registry: Registry[Any]) -> Draft202012Validator:
    """A validator for the subschema at ``uri``, its relative ``$ref``s resolved from its file."""
    return Draft202012Validator({"$ref": uri}, registry=registry)


def explain(validator: Draft202012Validator, instance: Any) -> str | None:
    """The most telling error of ``instance``, or None when it is valid."""
    error = best_match(validator.iter_errors(instance))
    if error is None:
        return None
    return f"{error.message} (at {error.json_path})"


# --- the checks ---------------------------------------------------------------------


def check_metaschema(files: Schemas) -> list[str]:
    """Every file is a valid draft 2020-12 schema."""
    problems = []
    for file_id, schema in files.items():
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as e:
            where = "/" + "/".join(str(p) for p in e.absolute_path)
            problems.append(f"{short(file_id)}: not a valid 2020-12 schema at {where}: {e.message}")
    return problems


def repeated_yaml(node: dict[str, Any]) -> str | None:
    """The YAML example of a written ``markdownDescription`` that ``x-holodeck-yaml`` would
    write the same, or None."""
    written, description = node.get("markdownDescription"), node.get("description")
    if not isinstance(written, str) or not isinstance(description, str):
        return None
    blocks = re.findall(r"\n\n```yaml\n(.*?)\n```", written, re.S)
    if len(blocks) == 1 and markdown(description, blocks[0]) == written:
        return str(blocks[0])
    return None


def check_source(files: Schemas) -> tuple[list[str], int]:
    """The files as written (:func:`schemas.source_files`): valid 2020-12 schemas that expand,
    and no node whose written markdown could be written from its description."""
    written = {uri: dict(contents) for uri, contents in files.items()}
    problems = check_metaschema(written)
    try:
        expand(written)
    except ExpansionError as e:
        problems.append(f"cannot expand: {e}")
    count = 0
    for file_id, schema in written.items():
        for pointer, sub in subschemas(schema):
            count += "description" in sub
            yaml_block = repeated_yaml(sub)
            if yaml_block is not None:
                problems.append(
                    f"{short(file_id)}#{pointer}: `markdownDescription` repeats `description`"
                    f" around its example: write the example as `{YAML_EXAMPLE}` instead"
                )
    return problems, count


def refs(files: Schemas) -> Iterator[tuple[str, str, str]]:
    """Every ``$ref``: (file id, pointer of the subschema holding it, the reference)."""
    for file_id, schema in files.items():
        for pointer, sub in subschemas(schema):
            ref = sub.get("$ref")
            if isinstance(ref, str):
                yield file_id, pointer, ref


def check_refs(files: Schemas, registry: Registry[Any] | None = None) -> tuple[list[str], int]:
    """Every ``$ref`` resolves offline, relative to its file's ``$id``."""
    registry = registry if registry is not None else schemas.registry()
    problems = []
    count = 0
    for file_id, pointer, ref in refs(files):
        count += 1
        try:
            registry.resolver(base_uri=file_id).lookup(ref)
        except Unresolvable as e:
            problems.append(
                f"{short(file_id)}#{pointer}: $ref {ref!r} does not resolve offline: {e}"
            )
    return problems, count


_ENUM_DOCS = ("enumDescriptions", "markdownEnumDescriptions")


def check_docs(files: Schemas) -> tuple[list[str], int]:
    """Every property has description, markdownDescription and examples (or snippets);
    enums are explained."""
    problems = []
    count = 0
    for file_id, schema in files.items():
        for pointer, sub in subschemas(schema):
            where = f"{short(file_id)}#{pointer}"
            if "enum" in sub:
                for keyword in _ENUM_DOCS:
                    docs = sub.get(keyword)
                    if not isinstance(docs, list) or len(docs) != len(sub["enum"]):
                        problems.append(f"{where}: `{keyword}` must explain each `enum` value")
            for name, prop in (sub.get("properties") or {}).items():
                if prop is True:  # only named, so that a `required` beside it names a property
                    continue
                count += 1
                # A property named only to be refused (a single-turn field on a multi-turn
                # test case, hidden from completion) has nothing valid to exemplify.
                # A snippet is an example an editor can insert; a property whose example is
                # a list of mappings has one instead (yaml-language-server inserts such an
                # example as `[object Object]`).
                wanted = ["description", "markdownDescription"]
                if not prop.get("doNotSuggest") and "defaultSnippets" not in prop:
                    wanted.append("examples")
                for keyword in wanted:
                    if keyword not in prop:
                        problems.append(f"{where}/properties/{name}: no `{keyword}`")
    return problems, count


def _holding(
    files: Schemas, keyword: str, registry: Registry[Any] | None
) -> Iterator[tuple[str, Any, Draft202012Validator]]:
    """Each subschema holding ``keyword``: where it is, the keyword's value, and a
    validator of that subschema."""
    registry = registry if registry is not None else schemas.registry()
    for file_id, schema in files.items():
        for pointer, sub in subschemas(schema):
            if sub.get(keyword) is not None:
                validator = validator_at(uri_of(file_id, pointer), registry)
                yield f"{short(file_id)}#{pointer}", sub[keyword], validator


def check_examples(files: Schemas, registry: Registry[Any] | None = None) -> tuple[list[str], int]:
    """Every ``examples`` value validates against the subschema that holds it."""
    problems = []
    count = 0
    for where, examples, validator in _holding(files, "examples", registry):
        if not isinstance(examples, list):
            problems.append(f"{where}: `examples` must be a list")
            continue
        for i, example in enumerate(examples):
            count += 1
            error = explain(validator, example)
            if error is not None:
                problems.append(f"{where}: examples[{i}] {json.dumps(example)} is invalid: {error}")
    return problems, count


_PLACEHOLDER = re.compile(r"\$\{(\d+):([^}$\\]*)\}")
_BARE_PLACEHOLDER = re.compile(r"\$(\d+)|\$\{(\d+)\}")


def expand_snippet(body: Any) -> Any:
    """The value an author gets by accepting every default of a snippet body.

    ``${1:text}`` becomes ``text``. A placeholder without a default (``$1``, ``${1}``)
    would leave an empty value, so it raises ValueError: every placeholder needs one.
    yaml-language-server writes a string of the body into the document as it stands
    (after a leading ``^``, as YAML text; ``true``/``false`` quoted), so it is read back
    as YAML reads it: ``"25587"`` becomes a number unless the body quotes it
    (``"^\"${2:25587}\""``).
    """
    if isinstance(body, str):
        if _BARE_PLACEHOLDER.search(body):
            raise ValueError(f"placeholder without a default in {body!r}")
        text = _PLACEHOLDER.sub(lambda m: m.group(2), body)
        if text in ("true", "false"):
            return text
        return yaml.safe_load(text.removeprefix("^") or "''")
    if isinstance(body, list):
        return [expand_snippet(item) for item in body]
    if isinstance(body, dict):
        return {str(expand_snippet(k)): expand_snippet(v) for k, v in body.items()}
    return body


def check_snippets(files: Schemas, registry: Registry[Any] | None = None) -> tuple[list[str], int]:
    """Every ``defaultSnippets`` body validates against the subschema that holds it."""
    problems = []
    count = 0
    for where, snippets, validator in _holding(files, "defaultSnippets", registry):
        for i, snippet in enumerate(snippets):
            count += 1
            label = snippet.get("label") if isinstance(snippet, dict) else None
            missing = [k for k in ("label", "description", "body") if k not in snippet]
            if missing:
                problems.append(f"{where}: defaultSnippets[{i}] lacks {', '.join(missing)}")
                continue
            try:
                body = expand_snippet(snippet["body"])
            except ValueError as e:
                problems.append(f"{where}: snippet {label!r}: {e}")
                continue
            error = explain(validator, body)
            if error is not None:
                problems.append(f"{where}: snippet {label!r} is invalid here: {error}")
    return problems, count


# --- contract examples ---------------------------------------------------------------

_HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.?\s")


def contract_blocks(markdown: str) -> dict[str, str]:
    """The first ```yaml block of each numbered section of the contract, by section."""
    blocks: dict[str, str] = {}
    section: str | None = None
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        heading = _HEADING.match(lines[i])
        if heading:
            section = heading.group(1)
        elif lines[i].strip() == "```yaml" and section is not None:
            end = i + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            blocks.setdefault(section, "\n".join(lines[i + 1 : end]))
            i = end
        i += 1
    return blocks


def contains_block(text: str, block: str) -> bool:
    """True when ``text`` holds every line of ``block`` in order, each under the same indent."""
    lines = text.splitlines()
    want = block.splitlines()
    if not want:
        return True
    for start in range(len(lines) - len(want) + 1):
        first = lines[start]
        if not first.endswith(want[0]):
            continue
        indent = first[: len(first) - len(want[0])]
        if indent.strip():
            continue
        if all(
            lines[start + j] == indent + line if line else not lines[start + j].strip()
            for j, line in enumerate(want)
        ):
            return True
    return False


def load_yaml(text: str) -> Any:
    return YAML(typ="safe").load(text)


def check_contract_examples(
    examples_dir: Path = CONTRACT_EXAMPLES_DIR,
    contract: str | None = None,
    registry: Registry[Any] | None = None,
) -> tuple[list[str], int]:
    """Each committed contract example validates, and (with the contract) is not stale."""
    registry = registry if registry is not None else schemas.registry()
    validator = validator_at(schemas.DOCUMENT, registry)
    blocks = contract_blocks(contract) if contract is not None else {}
    problems = []
    for section, name in CONTRACT_EXAMPLES.items():
        path = examples_dir / name
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            problems.append(f"{path}: cannot read the copy of contract section {section}: {e}")
            continue
        if not text.startswith(f"# Contract section {section}"):
            problems.append(
                f"{path}: must start with '# Contract section {section}' and say how it was wrapped"
            )
        try:
            data = load_yaml(text)
        except YAMLError as e:
            problems.append(f"{path}: not YAML: {e}")
            continue
        error = explain(validator, data)
        if error is not None:
            problems.append(f"{path}: invalid: {error}")
        if contract is not None:
            block = blocks.get(section)
            if block is None:
                problems.append(f"contract: section {section} has no ```yaml block any more")
            elif not contains_block(text, block):
                problems.append(
                    f"{path}: stale: no longer holds the ```yaml block of contract section "
                    f"{section} verbatim; copy it again and re-wrap it"
                )
    return problems, len(CONTRACT_EXAMPLES)


# --- running ----------------------------------------------------------------------------


def run(contract_path: Path | None, examples_dir: Path = CONTRACT_EXAMPLES_DIR) -> Report:
    files = schemas.schema_files()
    report = Report()
    report.add("files", check_metaschema(files), len(files))
    report.add("described nodes as written", *check_source(schemas.source_files()))
    report.add("$refs", *check_refs(files))
    report.add("properties documented", *check_docs(files))
    report.add("examples", *check_examples(files))
    report.add("snippets", *check_snippets(files))
    contract = None
    if contract_path is not None and contract_path.is_file():
        contract = contract_path.read_text(encoding="utf-8")
    report.add("contract examples", *check_contract_examples(examples_dir, contract))
    report.counts["verbatim"] = int(contract is not None)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--contract",
        type=Path,
        default=None,
        help=f"the contract's Markdown (default: {DEFAULT_CONTRACT}, when it exists)",
    )
    args = parser.parse_args(argv)
    contract_path: Path | None = args.contract
    if contract_path is not None and not contract_path.is_file():
        print(f"schema-check: --contract {contract_path}: no such file", file=sys.stderr)
        return 2
    if contract_path is None and DEFAULT_CONTRACT.is_file():
        contract_path = DEFAULT_CONTRACT
    report = run(contract_path)
    if report.problems:
        for problem in report.problems:
            print(f"schema-check: {problem}", file=sys.stderr)
        print(f"schema-check: {len(report.problems)} problem(s)", file=sys.stderr)
        return 1
    c = report.counts
    verbatim = (
        f"verbatim against {contract_path}"
        if c["verbatim"]
        else "contract not found, copies not compared"
    )
    print(
        f"schema-check: ok: {c['files']} files valid 2020-12 as written and expanded, "
        f"{c['described nodes as written']} descriptions with no markdown repeating them, "
        f"{c['$refs']} $refs resolved "
        f"offline, {c['properties documented']} properties documented, {c['examples']} "
        f"examples and {c['snippets']} snippets valid, {c['contract examples']} contract "
        f"examples valid ({verbatim})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
