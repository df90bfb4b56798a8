"""The code of a rewritten module, generated only for the top-level statements a rule changed.

LibCST's code generation walks every node of the module (about 0.1 s per 1,000 lines), although a rewrite
usually changes a few statements. The traversal keeps an unchanged statement as the very object it parsed
(`traverse._same_children`), and the text of such a statement is its slice of the original text: from its
first leading blank or comment line to the next statement's. Only the other statements are generated.

The slices come from Python's `ast` line numbers and LibCST's own leading lines (the blank and comment lines
it gives a statement), so they cut the text where LibCST's code generation would; each cut is checked
against the text (nothing before a statement on its line, only blank or comment lines in its leading lines),
and header, footer and module settings must be the original's. When anything does not hold, the whole
module is generated as before. tests/test_splice.py compares the two on every fixture and program.
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.source import NEWLINE


def module_code(original: cst.Module, updated: cst.Module, tree: ast.Module, text: str) -> str:
    """`updated.code`, for `updated` made from `original` (parsed from `text`, and as `tree` by `ast`)."""
    spans = _spans(original, tree, text)
    if spans is None or not _same_frame(original, updated):
        return updated.code
    index = {id(stmt): i for i, stmt in enumerate(original.body)}
    pieces = [text[:spans[0]]]
    for stmt in updated.body:
        i = index.get(id(stmt))
        pieces.append(text[spans[i]:spans[i + 1]] if i is not None else updated.code_for_node(stmt))
    pieces.append(text[spans[-1]:])
    return "".join(pieces)


def _same_frame(original: cst.Module, updated: cst.Module) -> bool:
    """Everything around the statements is the original's (a trailing newline too: its absence makes
    LibCST drop the last line break, which a slice would keep)."""
    return (updated.header is original.header or _identical(updated.header, original.header)) \
        and _identical(updated.footer, original.footer) and updated.has_trailing_newline \
        and original.has_trailing_newline and updated.default_newline == original.default_newline \
        and updated.default_indent == original.default_indent and updated.encoding == original.encoding


def _identical(a, b) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _spans(module: cst.Module, tree: ast.Module, text: str):
    """Offsets where each top-level statement's text starts (its first leading line), then where the footer
    starts; None when the two trees do not pair up, or a line is not what the pairing says: a statement's
    first line must hold nothing before it, each of its leading lines must be blank or a comment."""
    if not module.body:
        return None
    line_starts = [0] + [m.end() for m in NEWLINE.finditer(text)]
    lines = len(line_starts)
    starts, i = [], 0
    for stmt in module.body:
        k = len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
        if i + k > len(tree.body):
            return None
        node = tree.body[i]
        i += k
        first = min([node] + list(getattr(node, "decorator_list", [])), key=lambda n: (n.lineno, n.col_offset))
        line = first.lineno - len(stmt.leading_lines)
        if not 1 <= line <= first.lineno <= lines or (starts and line_starts[line - 1] <= starts[-1]):
            return None
        begin = line_starts[first.lineno - 1]
        if text[begin:begin + first.col_offset].strip(" \t\f") not in (("",) if first is node else ("@",)):
            return None  # something else stands before the statement (a decorator: its `@`) on its line
        for n in range(line, first.lineno):
            content = text[line_starts[n - 1]:line_starts[n]].strip()
            if content and not content.startswith("#"):
                return None
        starts.append(line_starts[line - 1])
    footer = "".join(module.code_for_node(line) for line in module.footer)
    end = len(text) - len(footer)
    if i != len(tree.body) or not text.endswith(footer) or end < starts[-1]:
        return None
    return starts + [end]
