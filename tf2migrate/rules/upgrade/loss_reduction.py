"""TFM666: a TF1 canned Estimator left in place keeps TF1's loss: `loss_reduction=tf.keras.losses.Reduction.SUM`.

The Estimator converter (TFM301/TFM312) replaces a canned Estimator program by Keras, or reports why it
cannot (TFM302, TFM350). A canned call it leaves still says `tf.estimator.DNNClassifier(...)`, which on TF 2.x
is the v2 class: its `loss_reduction` defaults to SUM_OVER_BATCH_SIZE, where TF1's summed over the batch. The
program would train with gradients batch-size times smaller, without an error. The call is edited here (the
edit is kept only where the converter left the call, see `leave_module`), and only in code known to be TF1:
`tf.compat.v1.estimator.*` is the v1 class (nothing to add), TF2 code means the v2 default, and a file nobody
can place gets TFM650.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import append_arg, keyword_arg
from tf2migrate.rules.upgrade.common import UNKNOWN_SOURCE, keyword, positional

CANNED = frozenset("tf.estimator." + n for n in (
    "DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor", "DNNLinearCombinedClassifier",
    "DNNLinearCombinedRegressor", "BaselineClassifier", "BaselineRegressor"))
LEAVES = frozenset(name.rsplit(".", 1)[1] for name in CANNED)
SUM = "tf.keras.losses.Reduction.SUM"
_MAX_POSITIONAL = 6  # past this a positional argument may be TF1's loss_reduction itself: not guessed


class LossReduction(Plugin):
    """TF1's canned estimators (DNN, Linear, DNNLinearCombined, Baseline; Classifier and Regressor) summed
    the loss over the batch; TF2's default to its mean (SUM_OVER_BATCH_SIZE). A canned call that stays a
    canned call (its Estimator program was not converted to Keras) gets TF1's value written out, as
    tf_upgrade_v2 does: without it every step's gradient is divided by the batch size. A call that passes
    `loss_reduction` already is left alone; one that spreads `**kwargs` is reported."""

    wake = "loss_reduction"
    infos = (
        RuleInfo(
            code="TFM666",
            name="canned-loss-reduction",
            summary="a canned Estimator left unconverted -> loss_reduction=tf.keras.losses.Reduction.SUM (TF1's)",
            message="TF2's canned estimators average the loss over the batch, TF1's summed it",
            why=__doc__,
            before="import tensorflow as tf\nsess = tf.Session()\nest = f(tf.estimator.DNNRegressor(hidden_units=[4], "
                   "feature_columns=cols))\n",
            after="import tensorflow as tf\nsess = tf.compat.v1.Session()\nest = f(tf.estimator.DNNRegressor("
                  "hidden_units=[4], feature_columns=cols, loss_reduction=tf.keras.losses.Reduction.SUM))\n",
        ),
        UNKNOWN_SOURCE,
    )

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self.pending = []  # (marker node, original call, class name, fixed): reported if the marker survives

    def leave_call(self, original: cst.Call, updated: cst.Call):
        func = original.func
        leaf = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
        if leaf not in LEAVES and not isinstance(func, cst.Name):
            return updated
        literal, canonical = self.ctx.resolve(func)
        if canonical not in CANNED or literal is None or not literal.startswith("tf.estimator."):
            return updated  # not canned, or the v1 class (`tf.compat.v1.estimator.*`, tensorflow_estimator)
        if keyword(updated, "loss_reduction") is not None or not self.ctx.allowed(original, "TFM666"):
            return updated
        name = canonical.rsplit(".", 1)[1]
        args = positional(updated)
        if self.ctx.tf1_semantics(literal) is not True or args is None or len(args) > _MAX_POSITIONAL:
            self.pending.append((updated.func, original, name, False))  # TF2 code, unknown, or unreadable
            return updated
        new_args = append_arg(updated.args, keyword_arg("loss_reduction", self.ctx.emit.attribute(SUM)))
        self.pending.append((new_args[-1], original, name, True))
        return updated.with_changes(args=new_args)

    def leave_module(self, original: cst.Module, updated: cst.Module):
        """Report the calls the Estimator converter left (a converted program no longer has its call)."""
        if not self.pending:
            return updated
        kept = _node_ids(updated)
        for marker, call, name, fixed in self.pending:
            if id(marker) not in kept:
                continue
            if fixed:
                self.ctx.report(call, "TFM666", f"`{name}` stays an Estimator: TF2's canned estimators average the "
                                f"loss over the batch (SUM_OVER_BATCH_SIZE), TF1's summed it; `loss_reduction={SUM}` "
                                "keeps TF1's training (without it every gradient is batch-size times smaller)")
            elif positional(call) is None or len(positional(call)) > _MAX_POSITIONAL:
                if self.ctx.tf1_semantics(None) is not False:
                    self.ctx.report(call, "TFM666", f"`{name}`: TF2's canned estimators average the loss over the "
                                    "batch, TF1's summed it; this call's arguments cannot be read (*args, **kwargs): "
                                    f"pass `loss_reduction={SUM}` unless they do", fixable=False)
            elif self.ctx.tf1_semantics(None) is None:
                self.ctx.report(call, "TFM650", f"`{name}` is not given TF1's `loss_reduction={SUM}`: TF2's canned "
                                "estimators average the loss over the batch, TF1's summed it, and nobody can tell "
                                f"whether this file is TF1 or TF2 code ({self.ctx.tf_version.reason}); set `source = "
                                "\"tf1\"` or `\"tf2\"` in [tool.tf2migrate] (or --source), or pass loss_reduction")
        return updated


def _node_ids(module: cst.Module) -> set:
    """The ids of every node of `module` (the markers are kept alive by `pending`, so no id is reused)."""
    found = set()

    class _All(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            found.add(id(node))
            return True

    module.visit(_All())
    return found
