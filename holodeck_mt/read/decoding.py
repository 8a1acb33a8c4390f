"""A file's bytes to text as the platform reads them: UTF-8 only, one byte-order mark stripped
(a second is part of the first key), UTF-16 refused."""

from __future__ import annotations

from holodeck_mt import model as dg
from holodeck_mt.text.positions import line_column

UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = {b"\xff\xfe": "UTF-16 (little-endian)", b"\xfe\xff": "UTF-16 (big-endian)"}
_SAVE_AS_UTF8 = "save it as UTF-8 (without a byte-order mark, or with the UTF-8 one)"


def bom_of(raw: bytes) -> bytes:
    """The UTF-8 byte-order mark ``raw`` starts with (a rewrite keeps it), else nothing."""
    return UTF8_BOM if raw.startswith(UTF8_BOM) else b""


def decode(raw: bytes) -> tuple[str | None, dg.Diagnostic | None]:
    """Bytes to text, or the diagnostic saying why they are not UTF-8 (where the bad byte is)."""
    for bom, name in _UTF16_BOMS.items():
        if raw.startswith(bom):
            return None, dg.make(
                "HMT005",
                f"the file is {name} text (it starts with that byte-order mark); "
                "the platform reads only UTF-8",
                1,
                1,
                hint=_SAVE_AS_UTF8,
            )
    skip = len(bom_of(raw))
    if skip and raw.startswith(UTF8_BOM, skip):
        return None, dg.make(
            "HMT005",
            "the file starts with two byte-order marks; the platform strips one and reads "
            "the other as part of the first key",
            1,
            1,
            hint="remove the second byte-order mark (save the file as UTF-8 once)",
        )
    try:
        return raw[skip:].decode("utf-8"), None
    except UnicodeDecodeError as e:
        offset = skip + e.start
        before = raw[skip:offset].decode("utf-8", errors="replace")
        line, column = line_column(before, len(before))
        return None, dg.make(
            "HMT005",
            f"invalid UTF-8 byte 0x{raw[offset]:02x} at byte offset {offset}: {e.reason}",
            line,
            column,
            hint=_SAVE_AS_UTF8,
        )


def nul_diagnostic(text: str) -> dg.Diagnostic | None:
    """A NUL character ends the text for the C parser: refused before parsing."""
    nul = text.find("\x00")
    if nul < 0:
        return None
    line, column = line_column(text, nul)
    return dg.make("HMT005", "the file holds a NUL byte, which YAML does not allow", line, column)
