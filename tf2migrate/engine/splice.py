"""The code of a rewritten module, generated only for the top-level statements a rule changed.

LibCST's code generation walks every node of the module (about 0.1 s per 1,000 lines), although a rewrite
usually changes a few statements. The traversal keeps an unchanged statement as the very object it parsed
(`traverse._same_children`), and the text of such a statement is its slice of the original text: from its
first leading blank or comment line to the next statement's. Only the other statements are generated.

The slices come from Python's `ast` line numbers and LibCST's leading lines. They are checked where it
matters: every changed statement's slice must read exactly as LibCST writes the original statement (so the
slices around it are placed right), and header, footer and module settings must be the original's; when
anything does not hold, the whole module is generated as before.
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.positions import NEWLINE


def module_code(original: cst.Module, updated: cst.Module, tree: ast.Module, text: str) -> str:
    """`updated.code`, for `updated` made from `original` (parsed from `text`, and as `tree` by `ast`)."""
    spans = _spans(original, tree, text)
    if spans is None or not _same_frame(original, updated):
        return updated.code
    index = {id(stmt): i for i, stmt in enumerate(original.body)}
    kept = {index[id(stmt)] for stmt in updated.body if id(stmt) in index}
    for i, stmt in enumerate(original.body):  # a statement changed or gone: its slice must be exactly its code
        if i not in kept and text[spans[i]:spans[i + 1]] != original.code_for_node(stmt):
            return updated.code
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
    """Offsets where each top-level statement's text starts, then where the footer starts; None when the two
    trees do not pair up."""
    if not module.body:
        return None
    line_starts = [0] + [m.end() for m in NEWLINE.finditer(text)]
    starts, i = [], 0
    for stmt in module.body:
        k = len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
        if i + k > len(tree.body):
            return None
        node = tree.body[i]
        i += k
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        line = first - len(stmt.leading_lines)
        if not 1 <= line <= len(line_starts) or (starts and line_starts[line - 1] <= starts[-1]):
            return None
        starts.append(line_starts[line - 1])
    footer = "".join(module.code_for_node(line) for line in module.footer)
    end = len(text) - len(footer)
    if i != len(tree.body) or not text.endswith(footer) or end < starts[-1]:
        return None
    return starts + [end]

