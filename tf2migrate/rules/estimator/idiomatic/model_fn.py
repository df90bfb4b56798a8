"""Read a `model_fn` into an `IdiomaticPlan` (plan_types.py): the Keras layers, loss, optimizer, metrics and predictions.

The body is read statement by statement, keeping what each local name holds (a layer output, the
loss, the optimizer...). Anything outside what converts is collected as a blocker with its node, and
the forward pass (the statements before the loss) is remembered so the shim can keep it verbatim.
The statements are read by model_fn_statements.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.idiomatic import chain
from tf2migrate.rules.estimator.idiomatic.model_fn_statements import _Reader
from tf2migrate.rules.estimator.planning.plan_types import ModelPath, ModelPlan
from tf2migrate.rules.estimator.reading import spec
from tf2migrate.rules.estimator.syntax.args import Unreadable

ALLOWED_PARAMS = {"features", "labels", "mode", "params", "config"}  # config: the RunConfig, when it is not read


@dataclass
class IdiomaticPlan(ModelPlan):
    path = ModelPath.IDIOMATIC
    node: cst.FunctionDef
    chain: chain.Chain
    loss: object = None
    optimizer: object = None
    schedule: object = None
    metrics: list = field(default_factory=list)
    predictions: Optional[cst.BaseExpression] = None  # the PREDICT dict (or tensor)
    uses_params: bool = False
    metric_fns: set = field(default_factory=set)  # top-level functions read as a TPU metric_fn
    penalty: Optional[cst.BaseExpression] = None  # weight decay added to the loss (regularization.py)
    penalized: Optional[str] = None  # the local name of the loss with the penalty
    blockers: list = field(default_factory=list)  # Unreadable, after the forward pass
    forward_blockers: list = field(default_factory=list)  # Unreadable, in the forward pass (shim candidates)
    notes: list = field(default_factory=list)  # (node, code, message)
    training_hooks: Optional[cst.BaseExpression] = None  # EstimatorSpec(training_hooks=...)
    hooks: dict = field(default_factory=dict)  # local name -> hook call, for training_hooks
    tensors: set = field(default_factory=set)  # local names of the loss and the global step (loggable)
    loss_index: int = -1  # index of the loss statement in the body
    forward_indices: list = field(default_factory=list)  # body indices of the statements before the loss

    def block(self, node, message):
        self.blockers.append(Unreadable(node, message))


def read_model_fn(fn: cst.FunctionDef, ctx, defs=None) -> IdiomaticPlan:
    """`defs`: the module's top-level functions (a TPU `metric_fn` may be one)."""
    params = [p.name.value for p in fn.params.params]
    plan = IdiomaticPlan(fn, chain.Chain())
    unknown = sorted(set(params) - ALLOWED_PARAMS - {"self"})
    if unknown or "features" not in params:  # what TF's verify_model_fn_args refuses in Estimator(...)
        why = f"has parameter{'s' if len(unknown) > 1 else ''} {', '.join(f'`{p}`' for p in unknown)}" if unknown \
            else "has no parameter `features`"
        plan.block(fn.params, f"model_fn {why}: TF's Estimator passes features, labels, mode, params and config by "
                   "name only and refuses any other model_fn with a ValueError when it is built (TF 1.x and 2.x "
                   "alike), so this program does not run as written; rename the parameter (`labels`?), then convert")
        return plan
    if isinstance(fn.params.star_arg, cst.Param) or fn.params.star_kwarg or fn.params.kwonly_params \
            or "self" in params:
        plan.block(fn.params, "model_fn parameters other than (features, labels, mode, params, config): convert by "
                   "hand")
        return plan
    if "config" in params and spec.reads_argument(fn, "config"):  # the builder has no RunConfig to pass
        plan.block(fn.params, "model_fn reads its `config` argument (the RunConfig): Keras has no RunConfig to "
                   "give the model; read what it needs from the program's own settings, then run tf2migrate again")
        return plan
    plan.uses_params = "params" in params
    body = list(fn.body.body)
    if body and spec.is_docstring(body[0]):
        body = body[1:]
    reader = _Reader(plan, ctx, defs or {})
    for index, stmt in enumerate(body):
        before_loss = plan.loss is None
        try:
            reader.statement(stmt, index)
        except Unreadable as problem:
            (plan.blockers if plan.loss is not None else plan.forward_blockers).append(problem)
        if before_loss and plan.loss is None:
            plan.forward_indices.append(index + (len(fn.body.body) - len(body)))
    if plan.loss is None and not plan.blockers and not plan.forward_blockers:
        plan.block(fn.name, "no TF1 loss found in model_fn: convert it by hand")
    if plan.optimizer is None and not plan.blockers and plan.forward_blockers:
        # A statement the reader did not understand may be where the loss or train_op is made: say so, not "none"
        plan.block(fn.name, "model_fn's training step (`optimizer.minimize(loss)`, inline or not) was not read: "
                   "it follows or uses statements the converter does not understand (the other TFM302 findings "
                   "in model_fn); convert it by hand")
    elif plan.optimizer is None and not plan.blockers:
        plan.block(fn.name, "no `optimizer.minimize(loss)` found in model_fn: convert it by hand")
    return plan
