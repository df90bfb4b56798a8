"""TFM666: a canned Estimator left in TF1 code -> TF1's class, `tf.compat.v1.estimator.DNNClassifier(...)`.

The Estimator converter (TFM301/TFM312) replaces a canned Estimator program by Keras, or reports why it
cannot (TFM302, TFM350). A canned call it leaves still says `tf.estimator.DNNClassifier(...)`, which on TF 2.x
is the v2 class: its `loss_reduction` defaults to SUM_OVER_BATCH_SIZE where TF1's summed over the batch, and
its default optimizers are Keras ones with other numbers (measured: adding tf_upgrade_v2's
`loss_reduction=tf.keras.losses.Reduction.SUM` alone still trains differently from step 2). TF 2.15 keeps
TF1's class under `tf.compat.v1.estimator`: the call is moved there (the edit is kept only where the converter
left the call, see `leave_module`), and only in code known to be TF1; TF2 code means the v2 class, and a file
nobody can place gets TFM650.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.upgrade.common import UNKNOWN_SOURCE

CANNED = frozenset("tf.estimator." + n for n in (
    "DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor", "DNNLinearCombinedClassifier",
    "DNNLinearCombinedRegressor", "BaselineClassifier", "BaselineRegressor"))
LEAVES = frozenset(name.rsplit(".", 1)[1] for name in CANNED)


class LossReduction(Plugin):
    """TF1's canned estimators (DNN, Linear, DNNLinearCombined, Baseline; Classifier and Regressor) summed
    the loss over the batch and trained with TF1 optimizers; TF2's `tf.estimator` classes average it
    (SUM_OVER_BATCH_SIZE: every gradient batch-size times smaller) and default to Keras optimizers. A canned
    call that stays a canned call (its Estimator program was not converted to Keras) is moved to TF1's own
    class, `tf.compat.v1.estimator.X`, which TF 2.15 still has: same loss, same optimizers, and the TF1
    arguments (`optimizer=tf.compat.v1.train.*`, `input_layer_partitioner`, a `tf.compat.v1.losses.Reduction`)
    it may pass. tf_upgrade_v2 does this only when an optimizer is given, and otherwise adds
    `loss_reduction=tf.keras.losses.Reduction.SUM`, which keeps the loss but not the optimizer. It is still
    an Estimator: TFM350 says it does not run on TF 2.16+."""

    infos = (
        RuleInfo(
            code="TFM666",
            name="canned-loss-reduction",
            summary="a canned Estimator left in TF1 code -> TF1's class, tf.compat.v1.estimator.X (TF1's loss sum)",
            message="TF2's canned estimators average the loss over the batch, TF1's summed it: TF1's class kept",
            why=__doc__,
            before="import tensorflow as tf\nsess = tf.Session()\nest = f(tf.estimator.DNNRegressor(hidden_units=[4], "
                   "feature_columns=cols))\n",
            after="import tensorflow as tf\nsess = tf.compat.v1.Session()\nest = f(tf.compat.v1.estimator.DNNRegressor("
                  "hidden_units=[4], feature_columns=cols))\n",
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
            return updated  # not canned, or already TF1's class (`tf.compat.v1.estimator.*`, tensorflow_estimator)
        if not self.ctx.allowed(original, "TFM666"):
            return updated
        tf1 = self.ctx.tf1_semantics(literal)
        if tf1 is not True:
            if tf1 is None:  # TF2 code means the v2 class
                self.pending.append((updated.func, original, canonical, False))
            return updated
        new = self.ctx.emit.like(func, "tf.compat.v1." + canonical[3:])
        self.pending.append((new, original, canonical, True))
        return updated.with_changes(func=new)

    def leave_module(self, original: cst.Module, updated: cst.Module):
        """Report the calls the Estimator converter left (a converted program no longer has its call)."""
        if not self.pending:
            return updated
        kept = _node_ids(updated)
        for marker, call, canonical, fixed in self.pending:
            if id(marker) not in kept:
                continue
            name = canonical.rsplit(".", 1)[1]
            if fixed:
                self.ctx.report(call, "TFM666", f"`{canonical}` stays an Estimator: TF2's `{name}` averages the loss "
                                "over the batch (SUM_OVER_BATCH_SIZE, every gradient batch-size times smaller) and "
                                "defaults to Keras optimizers; TF1's class `tf.compat.v1.estimator."
                                f"{name}` sums it and trains as the TF1 program did")
            else:
                self.ctx.report(call, "TFM650", f"`{canonical}` is not moved to TF1's class `tf.compat.v1.estimator."
                                f"{name}`: TF2's averages the loss over the batch (TF1's summed it) and defaults to "
                                "Keras optimizers, and nobody can tell whether this file is TF1 or TF2 code "
                                f"({self.ctx.tf_version.reason}); set `source = \"tf1\"` or `\"tf2\"` in "
                                "[tool.tf2migrate] (or --source)")
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
