"""A train op built from its gradients (`compute_gradients`/`tf1.gradients`, clipping, `apply_gradients`), kept.

Real model_fns clip their gradients: `grads_and_vars = opt.compute_gradients(loss)`, `tf1.clip_by_global_norm`,
then `opt.apply_gradients(zip(grads, tvars), global_step=...)`. The general conversion (model_subclass.py) keeps those
statements as written in `train_step`, after the `GradientTape` block: `opt.compute_gradients(loss)` becomes
the tape's gradients zipped with the model's variables (TF1's list of pairs), `tf1.gradients(loss, tvars)` the
tape's gradients of those variables, and the train op `self.optimizer.apply_gradients(...)` of what the model_fn
applied. The Keras optimizer is the one `compile` made with TF1's numbers; the global step is its `iterations`.
"""
from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from tf2migrate.rules.estimator.syntax.args import Unreadable, bind
from tf2migrate.rules.estimator.syntax.kept_source import names_in

COMPUTE_PARAMS = ("loss", "var_list", "gate_gradients", "aggregation_method", "colocate_gradients_with_ops", "grad_loss")
GRADIENTS_PARAMS = ("ys", "xs", "grad_ys", "name", "colocate_gradients_with_ops", "gate_gradients",
                    "aggregation_method", "stop_gradients", "unconnected_gradients")
APPLY_PARAMS = ("grads_and_vars", "global_step", "name")


def is_apply(call) -> bool:
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "apply_gradients"


def applied(call) -> cst.BaseExpression:
    """What `opt.apply_gradients(...)` applies (its global step is the Keras optimizer's iterations)."""
    return bind(call, APPLY_PARAMS, "apply_gradients")["grads_and_vars"]


def _sources(stmt, ctx, optimizers) -> list:
    """The gradient calls of a statement: `opt.compute_gradients(...)` on a known optimizer, `tf1.gradients(...)`."""
    found = []

    class _V(cst.CSTVisitor):
        def visit_Call(self, node):
            if isinstance(node.func, cst.Attribute) and node.func.attr.value == "compute_gradients" \
                    and isinstance(node.func.value, cst.Name) and node.func.value.value in optimizers:
                found.append(node)
            elif ctx.resolve(node.func)[1] == "tf.gradients":
                found.append(node)

    stmt.visit(_V())
    return found


def split(rest: list, loss, ctx, optimizers, bound_in) -> tuple:
    """(statements inside the tape, gradient statements after it) of train_step's statements; each gradient call
    must differentiate the spec's loss with nothing but the variables to differentiate."""
    inside, after, tainted = [], [], set()
    for stmt in rest:
        calls = _sources(stmt, ctx, optimizers)
        if calls or names_in(stmt) & tainted:
            for call in calls:
                _check(call, loss, ctx)
            after.append(stmt)
            tainted |= set(bound_in([stmt]))
        else:
            inside.append(stmt)
    if not after:
        raise Unreadable(rest[-1] if rest else loss, "apply_gradients of gradients not computed in the model_fn by "
                         "compute_gradients or tf.gradients: convert by hand")
    return inside, after


def _check(call, loss, ctx) -> None:
    tf_gradients = ctx.resolve(call.func)[1] == "tf.gradients"
    bound = bind(call, GRADIENTS_PARAMS if tf_gradients else COMPUTE_PARAMS,
                 "tf.gradients" if tf_gradients else "compute_gradients")
    extra = set(bound) - ({"ys", "xs"} if tf_gradients else {"loss", "var_list"})
    if extra:
        raise Unreadable(bound[sorted(extra)[0]], f"`{sorted(extra)[0]}=` in a gradient computation kept in train_step: "
                         "a GradientTape takes no such argument; convert by hand")
    if not bound["ys" if tf_gradients else "loss"].deep_equals(loss):
        raise Unreadable(call, "gradients of something other than the loss the EstimatorSpec returns: convert by hand")


class OnTape(cst.CSTTransformer):
    """The kept gradient statements on the step's tape: `opt.compute_gradients(loss[, var_list])` ->
    `list(zip(tape.gradient(target, V), V))`, `tf1.gradients(loss, xs)` -> `tape.gradient(target, xs)`."""

    def __init__(self, ctx, target: str, optimizers) -> None:
        super().__init__()
        self.ctx, self.target, self.optimizers = ctx, cst.parse_expression(target), optimizers

    def leave_Call(self, original, updated):
        if isinstance(original.func, cst.Attribute) and original.func.attr.value == "compute_gradients" \
                and isinstance(original.func.value, cst.Name) and original.func.value.value in self.optimizers:
            bound = bind(updated, COMPUTE_PARAMS, "compute_gradients")
            var_list = bound.get("var_list", cst.parse_expression("self.trainable_variables"))
            return parse_template_expression("list(zip(tape.gradient({T}, {V}), {V}))", T=self.target, V=var_list)
        if self.ctx.resolve(original.func)[1] == "tf.gradients":
            bound = bind(updated, GRADIENTS_PARAMS, "tf.gradients")
            return parse_template_expression("tape.gradient({T}, {V})", T=self.target, V=bound["xs"])
        return updated
