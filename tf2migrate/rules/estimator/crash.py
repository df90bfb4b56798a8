"""A bug of the Estimator converter is one finding on the Estimator, not a failed file.

Before, an exception raised while converting went up to the engine, which reported TFM999 for the whole
file and wrote nothing: the file lost its safe table renames and every other rule's findings with it. The
plugin now catches it (after restoring the imports it asked for and dropping its own partial findings),
leaves the module as the other rules made it and reports TFM324 at the first Estimator call, with the
exception, so that the user sees what was not converted and can report it.
"""
from __future__ import annotations

import libcst as cst


def report(ctx, module: cst.Module, exc: Exception) -> None:
    ctx.report(_place(module, ctx), "TFM324", f"the Estimator converter failed here ({type(exc).__name__}: {exc}): "
               "this Estimator program is left as it was, the file's other edits are kept; convert it by hand and "
               "please report this", fixable=False)


def _place(module: cst.Module, ctx) -> cst.CSTNode:
    """The first Estimator call of the module (the module's first line when even that cannot be found)."""
    from tf2migrate.rules.estimator.analyze import is_estimator

    found = []

    class _First(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> bool:
            if not found and is_estimator(node, ctx):
                found.append(node)
            return not found

    try:
        module.visit(_First())
    except Exception:  # the same bug may be in the reading: fall back to the file's first line
        found.clear()
    return found[0] if found else module
