"""The nodes `TablePlugin` would be called on, from Python's `ast`, in the order LibCST's traversal leaves them.

The traversal (engine/traverse.py) calls the table plugin on every call and every reference (a name or an
attribute chain that is no call's function, no alias being assigned, no import) in the statements it enters
(engine/skip.py: those holding a place where a rule may act). Only the ones the tables can answer are kept:
names bound by the file's imports, chains rooted at one, attributes named like a table method, and calls of
those. They come children first (sorted by where they end, the inner one first), as LibCST leaves them.
LibCST names that `ast` holds as strings (`global tf`, `except E as tf`, match patterns) and f-strings,
whose inner positions Python 3.11 does not always give right, make the splice path `NotSure`.
"""
from __future__ import annotations

import ast
import bisect

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.text_edits import NotSure

_ENTERED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With,
            ast.AsyncWith, ast.Try)  # statements whose first body the traversal enters statement by statement


def candidates(tree, imports, tables, hits: list, text) -> list:
    bindings = imports.bindings
    _unusual_names(tree, bindings)
    methods = tables.by_method
    kept, found = set(), []
    for node in nodes(tree, ast.Name):
        if node.id in bindings:
            found.append(node)
            kept.add(id(node))
    for node in nodes(tree, ast.Attribute):
        head = node.value
        while type(head) is ast.Attribute:
            head = head.value
        if type(head) is ast.Name and head.id in bindings or node.attr in methods:
            found.append(node)
            kept.add(id(node))
    not_refs = set()
    for call in nodes(tree, ast.Call):
        not_refs.add(id(call.func))
        if id(call.func) in kept:
            found.append(call)
    for assign in nodes(tree, ast.Assign):
        for target in assign.targets:
            if type(target) is ast.Name and target.id in bindings and bindings[target.id].assigned:
                not_refs.add(id(target))
    quiet = _spans(_quiet(tree.body, hits, text, []))
    strings = _spans([(_start(n), _end(n)) for n in nodes(tree, ast.JoinedStr)])
    out = []
    for node in found:
        if id(node) in not_refs and type(node) is not ast.Call or _inside(quiet, node):
            continue
        if strings[0] and _inside(strings, node):
            raise NotSure("a name in an f-string")
        out.append(node)
    out.sort(key=lambda n: (n.end_lineno, n.end_col_offset, -n.lineno, -n.col_offset))
    return out


def _unusual_names(tree, bindings: dict) -> None:
    if hasattr(ast, "Match") and nodes(tree, ast.Match):
        raise NotSure("a match statement")
    for node in nodes(tree, ast.ExceptHandler):
        if node.name in bindings:
            raise NotSure("an except clause binds an imported name")
    for node in nodes(tree, ast.Global, ast.Nonlocal):
        if any(name in bindings for name in node.names):
            raise NotSure("global or nonlocal of an imported name")


def _start(node) -> tuple:
    decorators = getattr(node, "decorator_list", None)
    if not decorators:
        return node.lineno, node.col_offset
    first = min([node] + decorators, key=lambda n: (n.lineno, n.col_offset))
    return first.lineno, first.col_offset


def _end(node) -> tuple:
    return node.end_lineno, node.end_col_offset


def _quiet(body: list, hits: list, text, out: list) -> list:
    """(start, end) of each statement the traversal steps over (skip.quiet_statements, read from `ast`)."""
    for stmt in body:
        start = _start(stmt)
        if bisect.bisect_right(hits, stmt.end_lineno) == bisect.bisect_left(hits, start[0]):
            out.append((start, _end(stmt)))
        elif isinstance(stmt, _ENTERED) and _indented(stmt, text):
            _quiet(stmt.body, hits, text, out)
    return out


def _indented(stmt, text) -> bool:
    """Its body is an indented block (LibCST walks those statement by statement), not `if x: y` on one line."""
    first = stmt.body[0]
    line_start = text.starts[first.lineno - 1]
    return not text.text[line_start:text.offset(first.lineno, first.col_offset)].strip()


def _spans(spans: list) -> tuple:
    """Sorted, merged: (starts, ends)."""
    merged: list = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [s for s, _ in merged], [e for _, e in merged]


def _inside(spans: tuple, node) -> bool:
    starts, ends = spans
    key = (node.lineno, node.col_offset)
    i = bisect.bisect_right(starts, key) - 1
    return i >= 0 and key < ends[i]
