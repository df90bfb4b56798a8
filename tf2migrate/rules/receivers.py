"""Small matchers shared by the code rules: "a method call on an object, not on a module"."""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.imports import dotted


def is_module(receiver: cst.BaseExpression, ctx) -> bool:
    """`functools` in `functools.reduce`, `tf.x` in `tf.x.y`: a chain rooted at an import that no
    local variable shadows here."""
    root = dotted(receiver)
    if root is None:
        return False
    head = root.split(".")[0]
    return ctx.imports.is_module_alias(head) and not ctx.shadowed(head)


def on_object(call: cst.Call, method: str, ctx) -> bool:
    """`x.method(...)` where `x` is not an imported module (`functools`, `tf`, ...)."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value == method and not is_module(func.value, ctx)
