"""Parse and compile a large module a piece at a time, so the parser's peak is one piece's, not the file's.

CPython's parser builds its own C tree of the whole text before it makes the Python `ast` objects, and
holds both: `ast.parse` of a dense 5 MB module peaks near 1.3 GB for a tree of 650 MB, and `compile` of it
at 650 MB for nothing kept. A module of `LARGE` characters or more is cut before top-level statements and
each piece is parsed alone, behind as many blank lines as precede it (so every node keeps its line and
column); the pieces' bodies, joined, are the module's body.

A cut is made only before a line that starts at column 0 with a name (not `else`, `elif`, `except` or
`finally`) and that follows no decorator and no backslash. A cut inside a string, brackets or a continued
statement leaves a piece ending inside it, which does not parse: that piece grows to a later cut. After
`GROWTH` failures the whole text is parsed at once, which gives the exact answer, or the exact error.
`ast.parse` checks nothing across top-level statements (`from __future__` placement is the compiler's), so
the joined bodies are the tree of the whole text; `compile` in pieces falls back to the whole text for a
piece after the first that names `__future__`. tests/test_pieces.py compares both on every fixture.

While a large text is parsed the cyclic collector is paused, and what it would scan is then frozen
(`gc.freeze`): `ast` nodes hold no cycles (refcounting frees them as always), and the collector would
otherwise scan the growing tree again and again, then the whole tree once more for each generation it
moves through: a dense 1 MB file's rewrite 4.2 -> 3.1 s CPU, 5 MB 20.0 -> 13.5 s. Smaller texts are
parsed as before.
"""
from __future__ import annotations

import ast
import gc
import re

LARGE = 1_000_000  # characters: smaller texts are parsed whole, as before
PIECE = 256_000  # about this many characters per piece (a piece's parse peaks near 270 bytes per character)
GROWTH = 3  # a piece that does not parse grows this many times, then the whole text is parsed
_CUT = re.compile(r"^(?!(?:else|elif|except|finally)\b)[A-Za-z_]", re.M)


def parse(text: str, filename: str = "<unknown>", piece: int = PIECE, large: int = LARGE) -> ast.Module:
    """`ast.parse(text, filename)`, with a lower peak for a large text."""
    if len(text) < large:
        return ast.parse(text, filename=filename)
    collecting = gc.isenabled()
    gc.disable()
    try:
        body = []
        for tree in _each_piece(text, filename, piece, lambda source: ast.parse(source, filename=filename)):
            if tree is None:
                return ast.parse(text, filename=filename)
            body += tree.body
        return ast.Module(body=body, type_ignores=[])
    finally:
        if collecting:
            gc.freeze()
            gc.enable()


def check_compiles(code: str, filename: str, piece: int = PIECE, large: int = LARGE) -> None:
    """Raises SyntaxError where `compile(code, filename, "exec", dont_inherit=True)` does."""
    if len(code) < large:
        compile(code, filename, "exec", dont_inherit=True)
        return
    first = True
    for done in _each_piece(code, filename, piece, lambda source: _compiles(source, filename, first)):
        if done is None:
            compile(code, filename, "exec", dont_inherit=True)
            return
        first = False


def _compiles(source: str, filename: str, first: bool) -> bool:
    if not first and "__future__" in source:
        raise SyntaxError("__future__ after the first piece")  # only the whole text says whether it is allowed
    compile(source, filename, "exec", dont_inherit=True)
    return True


def _each_piece(text: str, filename: str, size: int, parse):
    """What `parse` gives for each piece (blank lines first), or None once a piece failed `GROWTH` times."""
    start, line = 0, 1
    while start < len(text):
        end = _cut(text, start + size)
        for _ in range(GROWTH + 1):
            try:
                yield parse("\n" * (line - 1) + text[start:end])
                break
            except (SyntaxError, ValueError):
                if end == len(text):
                    yield None
                    return
                end = _cut(text, end + size)
        else:
            yield None
            return
        line += _breaks(text, start, end)
        start = end


def _cut(text: str, at: int) -> int:
    """The first place at or after `at` where a piece may end (`_CUT`), or the end of the text."""
    while True:
        found = _CUT.search(text, at)
        if found is None:
            return len(text)
        begin = found.start()
        previous = text[text.rfind("\n", 0, begin - 1) + 1:begin].rstrip("\r\n")
        if begin and not previous.lstrip(" \t\f").startswith("@") and not previous.endswith("\\"):
            return begin
        at = found.end()


def _breaks(text: str, start: int, end: int) -> int:
    """Line breaks in text[start:end], as Python counts them (\\r\\n, \\r, \\n)."""
    return text.count("\n", start, end) + text.count("\r", start, end) - text.count("\r\n", start, end)
