"""Decoding and re-encoding a Python file so that a rewrite keeps every byte it does not change.

The encoding (PEP 263 cookie), a UTF-8 BOM and the line endings all survive a round trip:
LibCST keeps the newlines it parsed, and we re-encode with what we decoded.
"""
from __future__ import annotations

import codecs
import io
import re
import tokenize
from dataclasses import dataclass, field

# Line breaks as Python's tokenizer counts them (`str.splitlines` also breaks at \f, \v, \x1c, \u2028...)
NEWLINE = re.compile(r"\r\n?|\n")


class DecodeProblem(Exception):
    """The bytes cannot be read as Python source; carries the place of the first bad byte."""

    def __init__(self, code: str, message: str, line: int = 1, col: int = 0):
        super().__init__(message)
        self.code, self.message, self.line, self.col = code, message, line, col


@dataclass(frozen=True)
class Source:
    text: str
    encoding: str
    bom: bool
    tree: object = field(default=None, compare=False, repr=False)  # the pre-pass's `ast`, reused in-process
    fast_only: bool = False  # only report-only rules that read `ast` have words here: no LibCST (apply.report_text)

    def encode(self, text: str) -> bytes:
        data = text.encode(self.encoding)
        return codecs.BOM_UTF8 + data if self.bom else data


def _place_of(data: bytes, offset: int) -> tuple[int, int]:
    before = data[:offset]
    line = before.count(b"\n") + 1
    col = offset - (before.rfind(b"\n") + 1)
    return line, col + 1


def decode(data: bytes) -> Source:
    """Decode like the interpreter does; refuse binaries and undecodable text with a place."""
    nul = data.find(b"\0")
    if nul != -1:
        line, col = _place_of(data, nul)
        raise DecodeProblem("TFM903", "binary file (NUL byte); not Python source", line, col)
    bom = data.startswith(codecs.BOM_UTF8)
    body = data[len(codecs.BOM_UTF8):] if bom else data
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # an unknown codec, or undecodable bytes in the first two lines
        if "invalid or missing encoding declaration" not in str(exc):
            raise DecodeProblem("TFM902", f"cannot decode: {exc}", getattr(exc, "lineno", None) or 1, 1)
        encoding = "utf-8"  # the decode below names the first bad byte
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    _text_codec(data, encoding)
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as exc:
        line, col = _place_of(body, exc.start)
        raise DecodeProblem(
            "TFM902", f"cannot decode as {encoding}: byte {body[exc.start]:#04x} ({exc.reason})", line, col
        )
    src = Source(text=text, encoding=encoding, bom=bom)
    try:
        same = src.encode(text) == data
    except UnicodeError:
        same = False
    if not same:  # a rewrite would change bytes it never touched (`unicode_escape`, a stateful codec)
        raise DecodeProblem("TFM902", f"cannot decode as {encoding}: the text does not encode back to the same bytes", 1, 1)
    return src


def _text_codec(data: bytes, encoding: str) -> None:
    """The cookie may name any codec Python knows, also bytes-to-bytes ones (`rot13`, `hex`, `zlib`) that
    `bytes.decode` refuses with LookupError: one line on the cookie's line instead."""
    try:
        text_codec = codecs.lookup(encoding)._is_text_encoding
    except LookupError:
        text_codec = False
    if not text_codec:
        line = 1 if _COOKIE.search(data.split(b"\n", 1)[0]) else 2
        raise DecodeProblem("TFM902", f"the coding cookie names {encoding!r}, which is not a text encoding", line, 1)


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=]")
