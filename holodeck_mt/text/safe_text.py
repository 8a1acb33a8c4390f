"""How an input is quoted when it may hold an ESC sequence, a bidi override, or a newline then
``::error`` (a GitHub Actions command): human-facing output escapes control characters and
starts no line with ``::``; the machine formats escape only what a terminal would act on."""

from __future__ import annotations

import contextlib
import os
import re
import sys
import unicodedata

from holodeck_mt.model import MESSAGE, clip

#: DEL, C1 controls, bidi controls and invisible marks, line and paragraph separators, the BOM.
_UNSAFE = "\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff"
#: Lone surrogates: an undecodable byte of a file name, as ``os`` hands it over.
_SURROGATES = "\ud800-\udfff"
_CONTROL = re.compile(f"[\x00-\x1f{_UNSAFE}{_SURROGATES}]")
#: What the machine formats escape: a JSON string already escapes C0.
_JSON_UNSAFE = re.compile(f"[{_UNSAFE}{_SURROGATES}]")
_XML_UNSAFE = re.compile(f"[{_UNSAFE}]")
#: A line a CI runner would read as a workflow command (leading blanks allowed).
_COMMAND_LINE = re.compile(r"(?m)^([ \t]*):(?=:)")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group(0)
    named = _NAMED.get(char)
    if named is not None:
        return named
    point = ord(char)
    if 0xDC80 <= point <= 0xDCFF:  # an undecodable byte of a file name
        return f"\\x{point - 0xDC00:02x}"
    return f"\\x{point:02x}" if point <= 0xFF else f"\\u{point:04x}"


def escape(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every control, bidi and invisible character escaped, so no line break
    (with ``keep_newlines``, for a format that encodes them itself, ``\\n`` stays)."""
    if keep_newlines:
        return "\n".join(_CONTROL.sub(_escaped, line) for line in text.split("\n"))
    return _CONTROL.sub(_escaped, text)


def escape_as_json(text: str, keep: str = "") -> str:
    """``text`` with every control, format, line- or paragraph-separator character escaped
    (as JSON does, so the escapes are valid inside a JSON string); ``keep`` stays raw: how
    a message writes a value, as JSON would."""
    out = []
    for ch in text:
        if ch in keep:
            out.append(ch)
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            code = ord(ch)
            if code > 0xFFFF:  # a surrogate pair, as JSON writes it
                code -= 0x10000
                out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
            else:
                out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def guard_lines(text: str) -> str:
    """No line of ``text`` starts (after blanks) with ``::``: the first ``:`` becomes ``\\x3a``."""
    return _COMMAND_LINE.sub(r"\1\\x3a", text)


def escape_json(text: str) -> str:
    """Serialized JSON with C1, bidi and invisible characters as ``\\uXXXX`` (same data); a
    lone surrogate (an undecodable byte of a file name) too, instead of failing to encode."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def escape_xml(text: str) -> str:
    """Serialized XML with C1, bidi and invisible characters as character references,
    and no line starting with ``::``."""
    text = _XML_UNSAFE.sub(lambda m: f"&#x{ord(m.group(0)):x};", text)
    return _COMMAND_LINE.sub(r"\1&#58;", text)


def escape_command_data(text: str) -> str:
    """A GitHub Actions workflow command's message: ``%``, CR and LF escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_command_property(text: str) -> str:
    """A workflow command's property value: as a message, plus the separators ``:`` ``,``."""
    return escape_command_data(text).replace(":", "%3A").replace(",", "%2C")


def say(line: str, limit: int = 2 * MESSAGE, prefix: str = "") -> None:
    """One line on stderr, clipped to ``limit`` and escaped; a closed or broken stderr changes
    nothing."""
    stream = sys.stderr
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(f"{prefix}{escape(clip(line, limit))}\n")
            stream.flush()


def display_path(path: str | bytes | os.PathLike[str]) -> str:
    """A file name as it can be printed in any encoding: undecodable bytes as ``\\xNN``."""
    name = os.fspath(path)
    if isinstance(name, bytes):
        return name.decode("utf-8", "backslashreplace")
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file system gave: not a byte
        raw = name.encode("utf-8", "backslashreplace")
    return raw.decode("utf-8", "backslashreplace")
