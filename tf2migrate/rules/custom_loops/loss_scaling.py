"""TFM401-TFM403: a replica function's loss must be averaged over the *global* batch.

Under a strategy each replica sees `global_batch / replicas` examples and the replicas' gradients
are summed, so a loss averaged over the per-replica batch is `replicas` times too large.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.call_edit import append_arg, keyword_arg
from tf2migrate.rules.custom_loops import infos
from tf2migrate.rules.custom_loops.analysis import loop_facts, runs_on_a_strategy
from tf2migrate.rules.custom_loops.keras_loss_calls import plan


class LossScaling(Plugin):
    infos = (infos.REDUCE_MEAN, infos.KERAS_LOSS, infos.REGULARIZATION)

    def reads_whole_module(self) -> bool:
        return runs_on_a_strategy(self.ctx)   # the loop analysis reads the module (analysis.LoopFacts)

    def sees_every_statement(self) -> bool:
        return loop_facts(self.ctx).uses_strategy_run   # it follows `strategy.run` into the replica function

    def _plan(self):
        if "loss-plan" not in self.ctx.memo:
            facts = loop_facts(self.ctx)
            fixable, wrap, unsafe = plan(facts)
            allowed = set()
            for name, ctor in facts.loss_objects.items():
                if name not in fixable and name not in unsafe:
                    continue  # never called on a replica
                needs_wrap = name in wrap.values()
                can_fix = name in fixable and (facts.global_batch is not None or not needs_wrap)
                message = None if can_fix else infos.KERAS_LOSS.message + (
                    ": fix by hand: pass `reduction=tf.keras.losses.Reduction.NONE` and average the "
                    "per-example loss with `tf.nn.compute_average_loss(..., global_batch_size=GLOBAL_BATCH_SIZE)`")
                if self.ctx.report(ctor, "TFM402", message, fixable=can_fix) and can_fix:
                    allowed.add(name)
            self.ctx.memo["loss-plan"] = (allowed, wrap)
        return self.ctx.memo["loss-plan"]

    def _average(self, value: cst.BaseExpression) -> cst.Call:
        facts = loop_facts(self.ctx)
        return cst.Call(
            func=self.ctx.emit.attribute("tf.nn.compute_average_loss"),
            args=[cst.Arg(value), keyword_arg("global_batch_size", cst.Name(facts.global_batch))],
        )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        facts = loop_facts(self.ctx)
        if not facts.uses_strategy_run:
            return updated
        allowed, wrap = self._plan()
        key = id(original)
        if key in facts.mean_calls:
            return self._reduce_mean(original, updated, facts)
        if key in facts.regularization:
            if self.ctx.report(original, "TFM403"):
                return cst.Call(func=self.ctx.emit.attribute("tf.nn.scale_regularization_loss"), args=[cst.Arg(updated)])
            return updated
        if isinstance(original.func, cst.Name) and original.func.value in allowed and key in wrap:
            return self._average(updated)
        for name in allowed:
            if facts.loss_objects[name] is original:
                none = self.ctx.emit.attribute("tf.keras.losses.Reduction.NONE")
                return updated.with_changes(args=append_arg(updated.args, keyword_arg("reduction", none)))
        return updated

    def _reduce_mean(self, original, updated, facts):
        if facts.global_batch is None:
            value = source(original.args[0].value)
            self.ctx.report(original, "TFM401", infos.REDUCE_MEAN.message + (
                f": no global batch size found in this module; use "
                f"`tf.nn.compute_average_loss({value}, global_batch_size=GLOBAL_BATCH_SIZE)`"), fixable=False)
            return updated
        if not self.ctx.report(original, "TFM401"):
            return updated
        return self._average(updated.args[0].value)

