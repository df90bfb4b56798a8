"""Edits of a module's text at `ast` positions: the table edits' way around LibCST (rules/table_splice.py).

An edit replaces a span of the original text. A later edit that covers earlier ones replaces them (a renamed
`tf.x.y` supersedes the rename of the `tf.x` inside it, as LibCST's new node does); an edit that only overlaps
another cannot be placed, and the splice path gives the file to LibCST (`NotSure`).
"""
from __future__ import annotations

import bisect
import re

from tf2migrate.engine.source import NEWLINE


class NotSure(Exception):
    """The splice path cannot promise LibCST's answer here: the file is rewritten with LibCST."""


_SKIP = re.compile(r"(?:[ \t\f\r\n]+|\\\r?\n|#[^\r\n]*)*")  # blanks, line continuations, comments


class Text:
    """The original text, its edits, and offsets from `ast`'s (line, UTF-8 byte column) pairs."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in NEWLINE.finditer(text)]
        self.ascii = text.isascii()
        self.edits: list = []  # sorted (start, end, new text), none overlapping

    def offset(self, line: int, col: int) -> int:
        start = self.starts[line - 1]
        if self.ascii:
            return start + col
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        return start + len(self.text[start:end].encode("utf-8")[:col].decode("utf-8", "replace"))

    def span(self, node) -> tuple:
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

    def next_char(self, at: int) -> str:
        """The first character from `at` on that is no blank, comment or line continuation ('' at the end)."""
        at = _SKIP.match(self.text, at).end()
        return self.text[at:at + 1]

    def replace(self, start: int, end: int, new: str) -> None:
        """Replace [start, end) of the original text (start == end: insert); the edits inside it go (the new
        text stands for them). An edit that crosses another, or an insertion where one stands, is NotSure."""
        i = bisect.bisect_left(self.edits, (start,))
        if i > 0 and self.edits[i - 1][1] > start:
            raise NotSure("overlapping edits")
        if start == end:  # before what starts here
            if i < len(self.edits) and self.edits[i][0] == self.edits[i][1] == start:
                raise NotSure("two insertions at one place")
            self.edits.insert(i, (start, end, new))
            return
        j = i
        while j < len(self.edits) and (self.edits[j][0] < end or self.edits[j][0] == start):
            s, e, _ = self.edits[j]
            if e > end:
                raise NotSure("overlapping edits")
            j += 1
        self.edits[i:j] = [(start, end, new)]

    def render(self, start: int, end: int) -> str:
        """[start, end) of the text with the edits inside it made."""
        out, at = [], start
        i = bisect.bisect_left(self.edits, (start,))
        while i < len(self.edits) and self.edits[i][0] < end:
            s, e, new = self.edits[i]
            if e > end:
                raise NotSure("an edit crosses the span")
            out += [self.text[at:s], new]
            at = e
            i += 1
        out.append(self.text[at:end])
        return "".join(out)

    def result(self) -> str:
        return self.render(0, len(self.text)) if self.edits else self.text


def prev_char(text: "Text", at: int) -> tuple:
    """(the last character before `at` that is no blank or line continuation, its offset); NotSure across a
    comment line."""
    s = text.text
    while at > 0:
        ch = s[at - 1]
        if ch in " \t\f\\":
            at -= 1
        elif ch in "\r\n":
            at -= 1
            line_start = max(s.rfind("\n", 0, at), s.rfind("\r", 0, at)) + 1
            if "#" in s[line_start:at]:
                raise NotSure("a comment before the node")
        else:
            return ch, at - 1
    return "", -1
