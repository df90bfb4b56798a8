"""TFM404: Keras models, optimizers, metrics and Checkpoints made outside `strategy.scope()`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.facts import is_strategy
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.custom_loops import infos
from tf2migrate.rules.custom_loops.analysis import loop_facts, runs_on_a_strategy

PREFIXES = ("tf.keras.optimizers.", "tf.keras.metrics.", "tf.keras.applications.")
EXACT = {"tf.keras.Sequential", "tf.keras.Model", "tf.keras.models.Sequential", "tf.keras.models.Model",
         "tf.train.Checkpoint"}


class _Outside(cst.CSTVisitor):
    """Module-level creations that are not under `with <strategy>.scope():`."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.found: set = set()
        self._in_scope = 0

    def visit_FunctionDef(self, node) -> bool:
        return False  # a function may well be called inside a scope

    def visit_ClassDef(self, node) -> bool:
        return False

    def _scoped(self, node: cst.With) -> bool:
        for item in node.items:
            call = item.item
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "scope":
                if self.ctx.facts.made_by_any(call.func.value, is_strategy):
                    return True
        return False

    def visit_With(self, node: cst.With) -> None:
        self._in_scope += self._scoped(node)

    def leave_With(self, node: cst.With) -> None:
        self._in_scope -= self._scoped(node)

    def visit_Call(self, node: cst.Call) -> None:
        if self._in_scope or not isinstance(node.func, (cst.Name, cst.Attribute)):
            return
        canonical = self.ctx.imports.canonical(node.func) or ""
        if canonical in EXACT or canonical.startswith(PREFIXES) and canonical.rsplit(".", 1)[1][:1].isupper():
            self.found.add(id(node))


class OutsideScope(Plugin):
    infos = (infos.OUTSIDE_SCOPE,)

    def reads_whole_module(self) -> bool:
        return runs_on_a_strategy(self.ctx)   # the loop analysis reads the module (analysis.LoopFacts)

    def sees_every_statement(self) -> bool:
        return loop_facts(self.ctx).uses_strategy_run   # it follows `strategy.run` into the replica function

    def leave_call(self, original: cst.Call, updated: cst.Call):
        if not loop_facts(self.ctx).uses_strategy_run:
            return updated
        if "outside-scope" not in self.ctx.memo:
            visitor = _Outside(self.ctx)
            self.ctx.module.visit(visitor)
            self.ctx.memo["outside-scope"] = visitor.found
        if id(original) in self.ctx.memo["outside-scope"]:
            self.ctx.report(original, "TFM404")
        return updated
