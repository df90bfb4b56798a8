"""Binding a call's arguments to the TF1 signature it was written against.

Every mapping module needs "what was passed as `learning_rate`, positionally or by keyword"; a call
with `*args`/`**kwargs`, an unknown keyword or too many positionals cannot be read and blocks.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst


class Unreadable(Exception):
    """The call cannot be bound: the message says why (it becomes the blocking diagnostic)."""

    def __init__(self, node: cst.CSTNode, message: str, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.node = node
        self.message = message
        self.code = code
        self.shimmable = False  # a forward-pass statement the shim may keep as written (forward.py, kept_forward.py)
        self.cascade = False  # follows from another blocker: not reported on its own line (body_pieces.one_per_line)


def bind(call: cst.Call, params: tuple, label: str) -> dict:
    """{param: expression} for `call` against `params` (TF1 order); raises Unreadable."""
    out: dict = {}
    positional = 0
    for arg in call.args:
        if arg.star:
            raise Unreadable(arg, f"`{label}` called with *args/**kwargs: convert it by hand")
        if arg.keyword is None:
            if positional >= len(params):
                raise Unreadable(arg, f"`{label}`: more positional arguments than its TF1 signature takes")
            out[params[positional]] = arg.value
            positional += 1
        else:
            name = arg.keyword.value
            if name not in params:
                raise Unreadable(arg, f"`{label}` argument `{name}` has no Keras equivalent here")
            out[name] = arg.value
    return out


def literal(node: Optional[cst.BaseExpression]):
    """The Python value of a simple literal (numbers, strings, True/False/None, unary minus), else a marker."""
    if node is None:
        return None
    if isinstance(node, cst.Integer):
        return int(node.value.replace("_", ""), 0)
    if isinstance(node, cst.Float):
        return float(node.value.replace("_", ""))
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[node.value]
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal(node.expression)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner
    return NOT_LITERAL


NOT_LITERAL = object()
