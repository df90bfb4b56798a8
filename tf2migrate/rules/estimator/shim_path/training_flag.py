"""`mode == ModeKeys.TRAIN` in a forward pass kept in the shim -> the Keras layer's `training` argument.

Keras tells a layer whether it trains (`fit`: True, `evaluate`/`predict`: False), which is what a model_fn
asks with `mode == ModeKeys.TRAIN` (`training=mode == TRAIN` on a dropout). Any other question on the mode
(EVAL versus PREDICT) has no Keras counterpart inside a layer, so it keeps the model_fn from the shim.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.syntax.kept_source import names_in


def uses(stmt, ctx):
    """Whether `stmt` tests `mode == ModeKeys.TRAIN` (or `!=`); None if it reads `mode` any other way."""
    rewritten = stmt.visit(Training(ctx))
    if "mode" in names_in(rewritten):
        return None
    return not rewritten.deep_equals(stmt)


def _train_test(node, ctx):
    """True for `mode == ModeKeys.TRAIN`, False for `mode != ModeKeys.TRAIN`, else None."""
    if not (isinstance(node, cst.Comparison) and len(node.comparisons) == 1):
        return None
    op, sides = node.comparisons[0].operator, (node.left, node.comparisons[0].comparator)
    if not isinstance(op, (cst.Equal, cst.NotEqual)) or not any(isinstance(x, cst.Name) and x.value == "mode"
                                                                for x in sides):
        return None
    if not any(ctx.resolve(x)[1] == "tf.estimator.ModeKeys.TRAIN" for x in sides):
        return None
    return isinstance(op, cst.Equal)


class Training(cst.CSTTransformer):
    """`mode == ModeKeys.TRAIN` -> `training`, `mode != ModeKeys.TRAIN` -> `not training`."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx

    def leave_Comparison(self, original, updated):
        test = _train_test(original, self.ctx)
        if test is None:
            return updated
        name = cst.Name("training", lpar=original.lpar, rpar=original.rpar)
        return name if test else cst.UnaryOperation(cst.Not(), cst.Name("training"), lpar=original.lpar,
                                                    rpar=original.rpar)
