"""TFM667's places in Python's `ast` tree, kept free of LibCST: `x.shape[i].value`, `x.get_shape()[i].value`.

In a file not known to be TF1, TFM667 only reports, at these `ast` nodes (`shape_value.ShapeValue`). The
pre-pass (`engine/wake.py`) then answers a file that only such places wake from `ast` alone
(`ShapeValue.report_from_ast`), without LibCST; `places` says when that gives exactly what the traversal
gives, and otherwise returns None so that the file goes the long way.
"""
from __future__ import annotations

import ast
from typing import Optional

from tf2migrate.engine.ast_index import nodes

SHAPE_ATTRS = ("shape", "dims")  # `x.shape[i]`, `x.shape.dims[i]`, `x.get_shape().dims[i]`
SHAPE_CALLS = ("get_shape",)  # `x.get_shape()[i]`


def ast_dimension(node) -> bool:
    """`<shape>[i]` with one plain index, where `<shape>` is `.shape`, `.dims` or `.get_shape()` (the `ast`
    twin of `shape_value._dimension`; Python 3.9+ subscripts)."""
    if not isinstance(node, ast.Subscript) or isinstance(node.slice, (ast.Slice, ast.Tuple)):
        return False
    if isinstance(node.slice, (ast.JoinedStr,)) or (isinstance(node.slice, ast.Constant)
                                                    and isinstance(node.slice.value, (str, bytes))):
        return False
    shape = node.value
    if isinstance(shape, ast.Attribute):
        return shape.attr in SHAPE_ATTRS
    return isinstance(shape, ast.Call) and not shape.args and not shape.keywords and isinstance(
        shape.func, ast.Attribute) and shape.func.attr in SHAPE_CALLS


def matches(tree) -> list:
    """Every `.value` read of a shape dimension that the traversal meets as a reference (not a call's
    function: `x.shape[0].value()`), in source order."""
    called = {id(call.func) for call in nodes(tree, ast.Call)}
    found = [n for n in nodes(tree, ast.Attribute)
             if n.attr == "value" and id(n) not in called and ast_dimension(n.value)]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def places(tree) -> Optional[list]:
    """`matches`, or None when the `ast` cannot stand in for the traversal: one nested in another, or an
    index that is a tuple (`x.shape[(i, j)]` is one LibCST index but an `ast.Tuple`)."""
    for node in nodes(tree, ast.Attribute):
        if node.attr == "value" and isinstance(node.value, ast.Subscript) and isinstance(node.value.slice, ast.Tuple):
            return None
    found = matches(tree)
    for node in found:
        if any(isinstance(n, ast.Attribute) and n.attr == "value" for n in ast.walk(node.value)):
            return None
    return found
