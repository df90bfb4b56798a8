"""Give LibCST only the statements a rule may act in: the others become placeholders of the same lines.

Parsing is most of a rewrite's cost (LibCST builds a node for every token: about 0.1 s per 1,000 lines),
and in a real module a rule acts on a few lines of thousands. The statements that hold none of those lines
(`engine/skip.py` steps over the same ones) are replaced, run by run, by one string literal that spans
exactly their lines, `+'''tf2migrate-quiet:N` and the same line breaks, so every other line keeps its number
and its text. After the rewrite each placeholder is put back from the original text (`Reduced.restore`).

Only statements `skip.py` would also step over are replaced (module, class and function bodies, the first
body of `if`, `for`, `while`, `with` and `try`), only whole lines, and never a statement holding an import
(the import edits read them). A rule that reads the whole module (the Estimator converter, the custom-loop
and distributed-input lints: `Plugin.reads_whole_module`) turns this off for the file, and so does any
placeholder that does not come back as it went (the rewrite then runs again on the whole text).
tests/test_reduce.py compares the two on every fixture and program.
"""
from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.source import NEWLINE

MARK = "+'''tf2migrate-quiet:"  # `+`: a string statement alone would read as a docstring (import_edit._insert_at)
MIN_LINES = 4  # a shorter run saves less parsing than it costs to splice back
MIN_CHARS = 2_000  # ... unless its few lines are long (a generated table on one line: 0.7 MB parsed for nothing)
_BODIES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
           ast.With, ast.AsyncWith, ast.Try)
_INDENT = re.compile(r"[ \t]*")
_NUMBER = re.compile(r"\d+")


class Unreduced(Exception):
    """A placeholder did not come back as it went: rewrite the whole text instead."""


@dataclass
class Reduced:
    text: str  # what LibCST parses
    tree: ast.Module  # `text` parsed by `ast`: what the LibCST module pairs with (skip, splice, positions)
    pieces: list  # placeholder N -> (its indent, the original lines it stands for, without the last break)
    hits: list  # the lines where a rule may act (`skip.hit_lines`), of both texts

    def restore(self, code: str) -> str:
        """`code` (generated from the reduced module) with each placeholder's original lines back."""
        out, at = [], 0
        while True:
            pos = code.find(MARK, at)
            if pos < 0:
                break
            number = _NUMBER.match(code, pos + len(MARK))
            if number is None or int(number.group()) >= len(self.pieces):
                raise Unreduced("a placeholder lost its number")
            indent, piece = self.pieces[int(number.group())]
            start, end = pos - len(indent), code.find("'''", number.end())
            if code[start:pos] != indent or (start and code[start - 1] not in "\r\n") or end < 0 \
                    or code[number.end():end].strip(" \r\n"):
                raise Unreduced("a placeholder moved or changed")
            out += [code[at:start], piece]
            at = end + 3
        out.append(code[at:])
        return "".join(out)


def reduce(text: str, tree: ast.Module, hits) -> "Reduced | None":
    """The reduced text, or None when no run of quiet lines is worth replacing. `hits`: the sorted lines
    where a rule may act (`skip.hit_lines`)."""
    if MARK in text or "TF_USE_LEGACY_KERAS" in text:  # the Keras switch is found by its text (import_edit)
        return None
    starts = [0] + [m.end() for m in NEWLINE.finditer(text)]
    imports = sorted(n.lineno for n in nodes(tree, ast.Import, ast.ImportFrom))
    runs: list = []
    docstring = bool(tree.body) and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant)
    _runs(tree.body[docstring:], text, starts, hits, imports, runs)  # new imports go after the docstring
    if not runs:
        return None
    out, pieces, at = [], [], 0
    for first, last, indent in runs:
        begin, end = starts[first - 1] + len(indent), _line_end(text, starts, last)
        out += [text[at:begin], MARK, str(len(pieces)), *_breaks(text, starts, first, last), "'''"]
        pieces.append((indent, text[starts[first - 1]:end]))
        at = end
    out.append(text[at:])
    reduced = "".join(out)
    if not _same_other_lines(text, reduced, runs):
        return None
    try:
        return Reduced(reduced, ast.parse(reduced), pieces, hits)
    except SyntaxError:  # a shape this module did not foresee: parse the whole text
        return None


def _runs(body: list, text: str, starts: list, hits, imports, runs: list) -> None:
    """Collect (first line, last line, indent) of each run of quiet whole-line statements in `body`, and
    look inside the statements that are not quiet."""
    run = None
    for node in body:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        last = node.end_lineno
        if not _any_in(hits, first, last) and not _any_in(imports, first, last) and _whole_lines(node, text, starts):
            indent = _INDENT.match(text, starts[first - 1]).group()
            if run is not None and run[2] == indent:
                run[1] = last
            else:
                _close(run, runs, starts)
                run = [first, last, indent]
            continue
        _close(run, runs, starts)
        run = None
        if isinstance(node, _BODIES):
            _runs(node.body, text, starts, hits, imports, runs)
    _close(run, runs, starts)


def _same_other_lines(text: str, reduced: str, runs: list) -> bool:
    """Every line has its number in both texts, and every line no placeholder stands for its text."""
    before, after = NEWLINE.split(text), NEWLINE.split(reduced)
    if len(before) != len(after):
        return False
    replaced = {n for first, last, _ in runs for n in range(first - 1, last)}
    return all(b == a for n, (b, a) in enumerate(zip(before, after)) if n not in replaced)


def _close(run, runs: list, starts: list) -> None:
    if run is None:
        return
    first, last = run[0], run[1]
    if last - first + 1 >= MIN_LINES or (starts[last] if last < len(starts) else starts[-1]) - starts[first - 1] >= MIN_CHARS:
        runs.append(tuple(run))


def _any_in(lines, first: int, last: int) -> bool:
    return bisect.bisect_right(lines, last) > bisect.bisect_left(lines, first)


def _whole_lines(node, text: str, starts: list) -> bool:
    """Nothing but indentation before the statement on its first line (or its first decorator's `@`), nothing
    but blanks or a comment after it on its last line."""
    decorators = getattr(node, "decorator_list", [])
    head = min([node] + decorators, key=lambda n: (n.lineno, n.col_offset))
    line = text[starts[head.lineno - 1]:_line_end(text, starts, head.lineno)]
    indent = _INDENT.match(line).group()
    before = line.encode("utf-8")[:head.col_offset].decode("utf-8", "replace")
    if before[len(indent):].strip(" \t\f") not in (("",) if head is node else ("@",)):
        return False
    tail = text[starts[node.end_lineno - 1]:_line_end(text, starts, node.end_lineno)]
    rest = tail.encode("utf-8")[node.end_col_offset:].decode("utf-8", "replace").strip(" \t\f")
    return not rest or rest.startswith("#")


def _line_end(text: str, starts: list, line: int) -> int:
    """Where line `line` (1-based) ends, before its line break."""
    end = starts[line] if line < len(starts) else len(text)
    while end > starts[line - 1] and text[end - 1] in "\r\n":
        end -= 1
    return end


def _breaks(text: str, starts: list, first: int, last: int) -> list:
    """The line breaks of lines `first` to `last - 1`, as the text writes them, each after a space: a lone \r
    then a \n, side by side, would read as one CRLF break, and every line after it would move up."""
    return [" " + text[_line_end(text, starts, n):starts[n]] for n in range(first, last)]
