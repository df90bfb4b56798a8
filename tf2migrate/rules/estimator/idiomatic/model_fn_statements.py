"""A model_fn's statements read in order for the idiomatic path (model_fn.py): each local name's value (a layer
output, the loss, the optimizer, a schedule, a metric...) kept in `env`, the layers into the plan's chain; what it
returns and how it trains are model_fn_spec.py's. A statement outside what converts raises `Unreadable`.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.idiomatic import forward
from tf2migrate.rules.estimator.idiomatic.model_fn_spec import SpecReader
from tf2migrate.rules.estimator.planning import cross_shard, losses, metric_fn, regularization
from tf2migrate.rules.estimator.planning.hooks import HOOK_NAMES
from tf2migrate.rules.estimator.planning.losses import read_loss
from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.planning.schedules import GLOBAL_STEP, read_schedule
from tf2migrate.rules.estimator.reading import spec
from tf2migrate.rules.estimator.syntax.args import Unreadable

class _Reader(SpecReader):
    """Reads the model_fn's statements in order; what it returns and how it trains: model_fn_spec.py."""

    def __init__(self, plan, ctx, defs) -> None:  # plan: model_fn.IdiomaticPlan
        self.plan, self.ctx, self.defs = plan, ctx, defs
        self.local_functions: dict = {}  # functions defined in the model_fn (a TPU metric_fn)
        self.env: dict = {}  # local name -> ("optimizer", o) | ("schedule", s) | ("step",) | ("metric", m) ...
        self.step_names: set = set()

    def statement(self, stmt, index) -> None:
        branch = spec.mode_branch(stmt, self.ctx)
        if branch is not None:
            for inner in stmt.body.body:
                self.statement(inner, index)
            return
        if isinstance(stmt, cst.With):
            return forward.read_with(stmt, self.plan, self.ctx, self)
        if isinstance(stmt, cst.For):
            return forward.read_for(stmt, self.plan, self.ctx, self)
        if isinstance(stmt, cst.FunctionDef):  # a TPU metric_fn: read where eval_metrics names it
            self.local_functions[stmt.name.value] = stmt
            return None
        if cross_shard.switch(self, stmt):
            return None
        if spec.tpu_return(stmt, self.ctx):  # `if params["use_tpu"]: return TPUEstimatorSpec(...)` [`else: ...`]
            for block in [stmt.body] + ([stmt.orelse.body] if stmt.orelse is not None else []):
                self.statement(block.body[0], index)
            return None
        if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
            raise Unreadable(stmt, "statement not understood in model_fn: convert the Estimator by hand")
        small = stmt.body[0]
        if isinstance(small, cst.Return):
            return self.returned(small)
        if spec.deletes(stmt, "params") or spec.deletes(stmt, "config"):
            return None  # `del params  # unused`: the builder does not read them either
        if isinstance(small, cst.Assert) and spec.on_mode_only(small.test, self.ctx):
            self.plan.notes.append((small, "TFM301", "assert on the mode dropped: Keras has no modes"))
            return None
        if isinstance(small, cst.Expr) and spec.is_summary(small.value, self.ctx):
            self.plan.notes.append((small, "TFM306", "TF1 summary dropped: use tf.keras.callbacks.TensorBoard"))
            return None
        if isinstance(small, cst.AugAssign) and isinstance(small.operator, cst.AddAssign) \
                and isinstance(small.target, cst.Name):  # loss += wd * tf.add_n(...)
            added = cst.BinaryOperation(small.target, cst.Add(), small.value)
            if regularization.added_penalty(self, small.target.value, added):
                return None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)):
            node, why, _ = forward._why(small, self.ctx)
            raise Unreadable(node if node is not small else stmt, why)
        self.assign(small.targets[0].target.value, small.value, stmt, index)

    def found_loss(self, name, loss, index, penalty=None) -> None:
        plan = self.plan
        plan.loss, plan.loss_index = loss, index
        self.env[name] = ("loss",)
        plan.tensors.add(name)
        if not plan.forward_blockers:
            plan.chain.finish(loss.output)
        elif isinstance(loss.output, cst.Name):
            plan.chain.output = loss.output.value
        if penalty is not None:
            regularization.penalty(self, penalty, name)
        # checked once the loss is known, so that the rest of the model_fn is still read
        plan.loss = losses.on_labels(loss, lambda e: self._tag(e) == ("one_hot",),
                                     lambda e: self._tag(e)[1] if self._tag(e)[0] == "labels_cast" else losses.labels_cast(e, self.ctx))

    def _tag(self, expr) -> tuple:
        """What the model_fn assigned to a name (`("one_hot",)`, `("labels_cast", "int32")`...), else `("",)`."""
        return self.env.get(expr.value, ("",)) if isinstance(expr, cst.Name) else ("",)

    def assign(self, name, value, stmt, index) -> None:
        ctx, plan = self.ctx, self.plan
        if isinstance(value, cst.BinaryOperation):
            if regularization.added_penalty(self, name, value):
                return
            both = regularization.split(value, ctx, read_loss)
            if both is not None:
                return self.found_loss(name, both[0], index, both[1])
        if isinstance(value, cst.Name) and value.value == "None" and name not in self.env:
            self.env[name] = ("default",)  # `loss = None` before the mode branches assign it
            return
        if isinstance(value, cst.Call):
            if self.spec_assigned(name, value):
                return
            if ctx.resolve(value.func)[1] in GLOBAL_STEP and not value.args:
                self.step_names.add(name)
                plan.tensors.add(name)
                return
            if ctx.resolve(value.func)[1] in HOOK_NAMES:
                plan.hooks[name] = value
                return
            if losses.is_one_hot_labels(value, ctx):
                self.env[name] = ("one_hot",)
                return
            if name != "labels" and (dtype := losses.labels_cast(value, ctx)) is not None:  # `y = tf.cast(labels, ...)`
                self.env[name] = ("labels_cast", dtype)
                return
            loss = read_loss(value, ctx)
            if loss is not None:
                return self.found_loss(name, loss, index)
            if spec.is_update_ops(value, ctx):
                self.env[name] = ("update_ops",)
                plan.notes.append((value, "TFM301", "UPDATE_OPS dropped: Keras layers update their own state"))
                return
            if spec.is_cross_shard(value, ctx):
                cross_shard.read(self, name, value)
                return
            opt = read_optimizer(value, ctx)
            if opt is not None:
                self.env[name] = ("optimizer", opt)
                return
            sched = read_schedule(value, ctx, self.step_names)
            if sched is not None:
                self.env[name] = ("schedule", sched)
                return
            if self.minimize(name, value):
                return
            if isinstance(value.func, cst.Attribute) and (ctx.resolve(value.func)[1] or "").startswith("tf.metrics."):
                self.env[name] = ("metric", value)
                return
        if metric_fn.is_pair(value, {**self.local_functions, **self.defs}):  # BERT: `eval_metrics = (metric_fn, [...])`
            self.env[name] = ("eval_metrics", value)
            return
        if isinstance(value, cst.Dict) and plan.loss is not None:
            self.env[name] = ("metrics", value)
            return
        forward.read_assign(name, value, stmt, plan, ctx, layers=plan.loss is None)
