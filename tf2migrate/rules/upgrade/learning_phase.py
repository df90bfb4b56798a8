"""TFM344: `tf.keras.backend.set_learning_phase(...)`, which Keras 3 no longer has (AttributeError on TF 2.16+).

Keras 2 (TF 2.15, tf-keras) keeps it, deprecated: it sets the `training` flag of model calls that pass none.
`fit`, `evaluate` and `predict` always pass their own (`training=True` in train_step, False in the others), so
in a program the Estimator converter made into Keras runs it changes nothing, and only breaks TF 2.16+: there
the call goes, with a note (survey 27: `set_learning_phase(True)` before `model_to_estimator`). Elsewhere a
direct `model(x)` may rely on it, so it is reported, never silently kept.
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import Plugin, RuleInfo

NAME = "tf.keras.backend.set_learning_phase"

INFO = RuleInfo(
    code="TFM344", name="set-learning-phase", fix="partial", severity=Severity.WARNING,
    summary="tf.keras.backend.set_learning_phase: gone in Keras 3; removed in a program converted to fit/evaluate/"
            "predict, reported elsewhere",
    message="set_learning_phase is gone in Keras 3",
    why=__doc__ + "\nBy hand: remove the call and pass `training=True/False` where the program calls the model "
                  "itself.",
    before='import tensorflow as tf\n\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])\n'
           'model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1))\ntf.keras.backend.set_learning_phase(1)\n'
           'estimator = tf.keras.estimator.model_to_estimator(keras_model=model)\n'
           'estimator.train(input_fn=train_input_fn, steps=100)\n',
    after='import tensorflow as tf\n\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])\n'
          'model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1))\n'
          'model.fit(train_input_fn(), steps_per_epoch=100)\n')


class LearningPhase(Plugin):
    infos = (INFO,)

    def leave_module(self, original, updated):
        ctx = self.ctx
        if ctx.tree is None or not ctx.selection.enabled(INFO.code):
            return updated
        calls = [n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call) and ctx.imports.ast_canonical(n.func) == NAME]
        if not calls:
            return updated
        converted = any(d.code == "TFM301" and d.fixed for d in ctx.diagnostics)
        alone = _alone(ctx.tree, {id(c) for c in calls})
        removable = converted and len(alone) == len(calls)  # all of them, or none: what _Remove drops is all
        for call in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
            if removable and ctx.report(call, INFO.code, "set_learning_phase is gone in Keras 3, and the Keras "
                                        "model's fit/evaluate/predict set `training` themselves: removed",
                                        severity=Severity.INFO):
                continue
            removable = False
            ctx.report(call, INFO.code, "set_learning_phase is gone in Keras 3 (AttributeError on TF 2.16+); Keras 2 "
                       "uses it only for model calls without `training=`: remove it and pass `training=` there",
                       fixable=False)
        return updated.visit(_Remove(ctx)) if removable else updated


def _alone(tree, wanted: set) -> set:
    """ids of the `wanted` calls that are a statement line of their own in a block that keeps another statement."""
    out = set()
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            lines = [s.lineno for s in body if isinstance(s, ast.stmt)]
            calls = [s for s in body if isinstance(s, ast.Expr) and id(s.value) in wanted and lines.count(s.lineno) == 1]
            if len(calls) < len(body):
                out |= {id(s.value) for s in calls}
    return out


class _Remove(cst.CSTTransformer):
    """Drops each statement line that is only a `set_learning_phase(...)` call, unless it is its block's only one."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx

    def _keep(self, body: list) -> list:
        kept = [s for s in body if not self._is_call(s)]
        return kept if kept else body

    def _is_call(self, stmt) -> bool:
        return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr) \
            and isinstance(stmt.body[0].value, cst.Call) and self.ctx.resolve(stmt.body[0].value.func)[1] == NAME

    def leave_IndentedBlock(self, original, updated):
        return updated.with_changes(body=self._keep(list(updated.body)))

    def leave_Module(self, original, updated):
        return updated.with_changes(body=self._keep(list(updated.body)))
