"""The hostile-input corpus: each case's bytes and what the validator must say.

The bytes are built here rather than committed, so that byte-exact inputs
(BOMs, NULs, CRLF, invalid UTF-8) survive every checkout and the large ones
(a 100,000-character regex, a 5,000-digit integer) cost nothing in the tree.
``python -m tests.hostile.cases OUTDIR`` writes them out as files.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Case:
    name: str
    data: Callable[[], bytes]
    #: The CLI's exit code.
    exit: int
    #: ``(code, line)`` of every diagnostic that must be reported (others may follow).
    expect: tuple[tuple[str, int], ...] = ()
    #: Extra CLI options.
    options: tuple[str, ...] = ()
    #: Words the first expected diagnostic's message or hint must hold.
    says: tuple[str, ...] = field(default=())


def _text(text: str) -> Callable[[], bytes]:
    return lambda: text.encode("utf-8")


def _bytes(data: bytes) -> Callable[[], bytes]:
    return lambda: data


def alias_bomb() -> bytes:
    """Billion laughs: nine levels of ten aliases each, 10**9 nodes once expanded."""
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 10) + "]")
    return ("\n".join(lines) + "\n").encode()


def deep_flow(depth: int = 10_000) -> bytes:
    return ("[" * depth + "]" * depth + "\n").encode()


def deep_block(depth: int = 200) -> bytes:
    return "".join("  " * i + "a:\n" for i in range(depth)).encode()


def long_regex(length: int = 100_000) -> bytes:
    return _one_tool_arg(f"{{regex: '{'a' * length}'}}")


def _one_tool_arg(value: str) -> bytes:
    return (
        "test_cases:\n"
        "  - input: hi\n"
        "    expected_tools:\n"
        "      - name: lookup\n"
        "        args:\n"
        f"          a: {value}\n"
    ).encode()


def _count(value: str) -> bytes:
    return (
        "test_cases:\n"
        "  - input: hi\n"
        "    expected_tools:\n"
        "      - name: lookup\n"
        f"        count: {value}\n"
    ).encode()


def big_file(size: int = 4096) -> bytes:
    """Over ``--max-file-size 1k``, and not even YAML: it must not be parsed."""
    return b"test_cases: [\n" + b"  - {input: }}}\n" * (size // 16)


def _utf16(text: str, order: str) -> bytes:
    return (b"\xff\xfe" if order == "le" else b"\xfe\xff") + text.encode(f"utf-16-{order}")


_VALID = "test_cases:\n  - input: hi\n"
_UNKNOWN_KEY_LINE_3 = "test_cases:\n  - input: hi\n    bogus: 1\n"

CASES: list[Case] = [
    # Bounded work.
    Case(
        "alias-bomb",
        alias_bomb,
        1,
        (("HMT004", 5),),
        says=("alias", "--max-alias-nodes"),
    ),
    Case("recursive-alias", _text("a: &a [1, *a]\n"), 1, (("HMT004", 1),), says=("recursive",)),
    Case("deep-flow-nesting", deep_flow, 1, (("HMT004", 1),), says=("64", "--max-depth")),
    Case("deep-block-nesting", deep_block, 1, (("HMT004", 65),), says=("64",)),
    Case(
        "over-size-limit",
        big_file,
        1,
        (("HMT004", 1),),
        options=("--max-file-size", "1k"),
        says=("not parsed", "--max-file-size"),
    ),
    # Nothing runs.
    Case(
        "python-object-apply",
        _text('test_cases:\n  - input: !!python/object/apply:os.system ["touch MARKER"]\n'),
        1,
        (("HMT003", 2),),
        says=("never run",),
    ),
    Case(
        "python-name",
        _text("test_cases: !!python/name:os.system\n"),
        1,
        (("HMT003", 1),),
        says=("never run",),
    ),
    Case(
        "python-object-mapping",
        _text("test_cases:\n  - !!python/object:os.system\n    input: hi\n"),
        1,
        (("HMT003", 2),),
        says=("never run",),
    ),
    Case(
        "unknown-tag",
        _text("test_cases:\n  - name: x\n    input: !Ref bar\n"),
        1,
        (("HMT003", 3),),
        says=("unknown tag !Ref",),
    ),
    Case(
        "unknown-tag-on-mapping",
        _text("test_cases:\n  - name: x\n    input: hi\n    expected_tools: !GetAtt [a]\n"),
        1,
        (("HMT003", 4),),
        says=("!GetAtt",),
    ),
    # YAML that is not JSON-shaped.
    Case(
        "non-string-keys",
        _text("1: x\nnull: y\n? [a, b]\n: c\ntest_cases:\n  - input: hi\n"),
        1,
        (("HMT003", 1), ("HMT003", 2), ("HMT003", 3)),
        says=("string",),
    ),
    Case(
        "unquoted-timestamp",
        _text("test_cases:\n  - name: 2024-01-01\n    input: hi\n"),
        1,
        (("HMT102", 2),),
        says=("2024-01-01",),
    ),
    Case(
        "nan-and-inf",
        _text(
            "evaluations:\n  metrics:\n    - type: standard\n      metric: bleu\n"
            "      threshold: .nan\n    - type: standard\n      metric: rouge\n"
            "      threshold: -.inf\n" + _VALID
        ),
        1,
        (("HMT109", 5), ("HMT109", 8)),
        says=(".nan",),
    ),
    Case("integer-5000-digits", lambda: _count("9" * 5000), 1, (("HMT004", 5),), says=("5000",)),
    Case("hex-5000-digits", lambda: _count("0x" + "f" * 5000), 1, (("HMT004", 5),)),
    Case("tagged-int-5000-digits", lambda: _count("!!int " + "9" * 5000), 1, (("HMT004", 5),)),
    Case(
        "tagged-float-400-digits",
        lambda: _count("!!float " + "9" * 400),
        1,
        (("HMT102", 5),),
        says=(".inf",),
    ),
    Case(
        "integer-1000-digits-as-name",
        _text("test_cases:\n  - name: " + "7" * 1000 + "\n    input: hi\n"),
        1,
        (("HMT102", 2),),
        says=("digits",),
    ),
    Case(
        "binary",
        _text("test_cases:\n  - input: !!binary aGVsbG8=\n"),
        1,
        (("HMT102", 2),),
        says=("binary",),
    ),
    Case(
        "merge-key",
        _text("test_cases:\n  - &base {input: hi}\n  - <<: *base\n    name: merged\n"),
        0,
    ),
    Case(
        "merge-key-of-a-scalar",
        _text("test_cases:\n  - <<: 1\n    input: hi\n"),
        1,
        (("HMT003", 2),),
        says=("merge",),
    ),
    Case(
        "multi-document",
        _text(_VALID + "---\nfoo: 1\n"),
        1,
        (("HMT003", 3),),
        says=("more than one",),
    ),
    Case("empty-file", _bytes(b""), 1, (("HMT006", 1),), says=("empty",)),
    Case("comments-only", _text("# nothing here\n\n"), 1, (("HMT006", 1),)),
    Case("scalar-document", _text("hello\n"), 1, (("HMT006", 1),), says=("string",)),
    Case("null-document", _text("~\n"), 1, (("HMT006", 1),)),
    Case("yaml-syntax-error", _text("test_cases:\n  - input: [unclosed\n"), 1, (("HMT001", 2),)),
    # Encodings.
    Case("utf8-bom", _bytes(b"\xef\xbb\xbf" + _VALID.encode()), 0),
    Case(
        "utf8-bom-with-error",
        _bytes(b"\xef\xbb\xbf" + _UNKNOWN_KEY_LINE_3.encode()),
        1,
        (("HMT100", 3),),
    ),
    # The platform reads only UTF-8: a UTF-16 file fails to load even with its byte-order mark.
    Case(
        "utf16-le-bom",
        lambda: _utf16(_UNKNOWN_KEY_LINE_3, "le"),
        1,
        (("HMT005", 1),),
        says=("UTF-16", "save it as UTF-8"),
    ),
    Case(
        "utf16-be-bom",
        lambda: _utf16(_UNKNOWN_KEY_LINE_3, "be"),
        1,
        (("HMT005", 1),),
        says=("UTF-16", "save it as UTF-8"),
    ),
    Case(
        "invalid-utf8",
        _bytes(b"test_cases:\n  - input: h\xffi\n"),
        1,
        (("HMT005", 2),),
        says=("byte offset 24",),
    ),
    Case(
        "invalid-utf8-after-bom",
        _bytes(b"\xef\xbb\xbftest_cases:\n  - input: h\xc3\x28\n"),
        1,
        (("HMT005", 2),),
        says=("byte offset 27",),
    ),
    Case("nul-byte", _bytes(b"test_cases:\n  - input: h\x00i\n"), 1, (("HMT005", 2),)),
    Case(
        "control-character",
        _bytes(b"test_cases:\n  - input: h\x07i\n"),
        1,
        (("HMT001", 2),),
        says=("control characters",),
    ),
    Case("crlf", _bytes(_UNKNOWN_KEY_LINE_3.replace("\n", "\r\n").encode()), 1, (("HMT100", 3),)),
    # Regexes: only compilation is checked.
    Case("regex-100k-characters", long_regex, 0),
    Case(
        "regex-variable-width-lookbehind",
        lambda: _one_tool_arg("{regex: '(?<=a+)b'}"),
        1,
        (("HMT104", 6),),
        says=("look-behind",),
    ),
    Case(
        "regex-bad-escape",
        lambda: _one_tool_arg("{regex: '\\q'}"),
        1,
        (("HMT104", 6),),
        says=("escape",),
    ),
    Case("regex-catastrophic-backtracking", lambda: _one_tool_arg("{regex: '(a+)+$'}"), 0),
    Case("regex-possible-nested-set", lambda: _one_tool_arg("{regex: '[[a]]'}"), 0),
    Case(
        "regex-nested-5000-deep",
        lambda: _one_tool_arg("{regex: '" + "(" * 5000 + ")" * 5000 + "'}"),
        1,
        (("HMT104", 6),),
    ),
    # Messages stay short whatever the input holds.
    Case(
        "long-unknown-key",
        _text("test_cases:\n  - input: hi\n    ? " + "k" * 100_000 + "\n    : 1\n"),
        1,
        (("HMT100", 3),),
    ),
    Case(
        "long-duplicate-key",
        _text("test_cases:\n  - input: hi\n" + ("    ? " + "k" * 50_000 + "\n    : 1\n") * 2),
        1,
        (("HMT002", 5),),
    ),
    Case(
        "long-unknown-tag",
        _text("test_cases:\n  - input: !" + "t" * 100_000 + " hi\n"),
        1,
        (("HMT003", 2),),
    ),
    Case(
        "long-binary",
        _text("test_cases:\n  - input: !!binary " + "QUJD" * 30_000 + "\n"),
        1,
        (("HMT102", 2),),
    ),
    Case(
        "long-binary-key",
        _text("? !!binary " + "QUJD" * 30_000 + "\n: 1\n" + _VALID),
        1,
        (("HMT003", 1),),
    ),
    Case(
        "long-undefined-alias",
        _text("test_cases:\n  - input: *" + "a" * 100_000 + "\n"),
        1,
        (("HMT001", 2),),
    ),
    Case(
        "long-string-for-enum",
        _text("evaluations:\n  metrics:\n    - type: " + "x" * 100_000 + "\n" + _VALID),
        1,
        (("HMT103", 3),),
    ),
]


def write(folder: Path) -> list[Path]:
    """Write every case to ``folder/<name>.yaml``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for case in CASES:
        path = folder / f"{case.name}.yaml"
        path.write_bytes(case.data())
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write(Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-cases")):
        print(written)
