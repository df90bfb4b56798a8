"""Small matchers shared by the code rules: "a method call on an object, not on a module"."""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.imports import dotted


def is_module(receiver: cst.BaseExpression, ctx) -> bool:
    """`functools` in `functools.reduce`, `tf.x` in `tf.x.y`: a chain rooted at an import that no
    local variable shadows here."""
    return module_root(ctx, dotted(receiver), ctx.shadowed)


def module_root(ctx, root, shadowed) -> bool:
    """`is_module` on a dotted name (None or "" when the receiver is not one); `shadowed(head)`: a local hides
    `head` here. Also asked from `ast` by the splice path (rules/code_splice_rules.py)."""
    head = root.split(".")[0] if root else None
    return bool(head) and ctx.imports.is_module_alias(head) and not shadowed(head)


def on_object(call: cst.Call, method: str, ctx) -> bool:
    """`x.method(...)` where `x` is not an imported module (`functools`, `tf`, ...)."""
    func = call.func
    return isinstance(func, cst.Attribute) and func.attr.value == method and not is_module(func.value, ctx)
