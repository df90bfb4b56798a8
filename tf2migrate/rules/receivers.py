"""Small matchers shared by the code rules: "a method call on an object, not on a module"."""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.imports import dotted


def on_object(call: cst.Call, method: str, ctx) -> bool:
    """`x.method(...)` where `x` is not an imported module (`functools`, `tf`, ...)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != method:
        return False
    root = dotted(func.value)
    if root is None:
        return True
    head = root.split(".")[0]
    return not ctx.imports.is_module_alias(head) or ctx.shadowed(head)
