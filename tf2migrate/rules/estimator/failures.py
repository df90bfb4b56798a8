"""When the Estimator converter fails, the program stays as written and the file keeps its other edits.

Two failures, one finding each, at the first Estimator call:
- TFM324, a bug of the converter: an exception raised while converting went up to the engine, which reported
  TFM999 for the whole file and wrote nothing, not even the other rules' safe renames nor their findings.
  The plugin now catches it (after restoring the imports it asked for and dropping its partial findings).
- TFM325, an output that cannot run (output_check.py): the engine rewrites the module again with the
  converter vetoed (`Plugin.check_output`), so what is written is the file with the other rules' edits.
"""
from __future__ import annotations

import libcst as cst


def report_crash(ctx, module: cst.Module, exc: Exception) -> None:
    ctx.report(first_estimator(module, ctx), "TFM324", f"the Estimator converter failed here ({type(exc).__name__}: "
               f"{exc}): this Estimator program is left as it was, the file's other edits are kept; convert it by "
               "hand and please report this", fixable=False)


def report_vetoed(ctx, module: cst.Module, reason: str) -> None:
    ctx.report(first_estimator(module, ctx), "TFM325", f"the Estimator conversion was not written: {reason}; this "
               "Estimator program is left as it was, the file's other edits are kept", fixable=False)


def first_estimator(module: cst.Module, ctx) -> cst.CSTNode:
    """The first Estimator call of the module (the module's first line when even that cannot be found)."""
    from tf2migrate.rules.estimator.program.analyze import is_estimator

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
