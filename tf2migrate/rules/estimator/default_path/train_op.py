"""The train op of a model_fn read for the general conversion (model_subclass.py): which TF1 optimizer it applies.

`opt.minimize(loss)` (the loss the spec returns), `opt.apply_gradients(...)` of gradients the model_fn computes
(kept in train_step: gradients.py), or `tf.contrib.training.create_train_op(loss, opt)`, which minimizes the loss as
`opt.minimize` does, as `tf.contrib.layers.optimize_loss` does (reading/optimize_loss.py). The optimizer itself becomes the Keras optimizer with TF1's numbers (optimizers.py).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.default_path import gradients
from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.reading import optimize_loss
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind
from tf2migrate.rules.estimator.syntax.kept_source import names_in

MINIMIZE_PARAMS = ("loss", "global_step", "var_list", "gate_gradients", "aggregation_method",
                   "colocate_gradients_with_ops", "name", "grad_loss")
CREATE_TRAIN_OP = {"tf.contrib.training.create_train_op", "tf.contrib.slim.learning.create_train_op"}
CREATE_PARAMS = ("total_loss", "optimizer", "global_step", "update_ops", "variables_to_train", "transform_grads_fn",
                 "summarize_gradients", "gate_gradients", "aggregation_method", "colocate_gradients_with_ops",
                 "check_numerics")


def optimizer(env, train_op, loss):
    """The optimizer of `train_op` (a name bound to `minimize`, or the call itself), minimizing `loss`."""
    call = env.train_ops.get(train_op.value) if isinstance(train_op, cst.Name) else train_op
    if optimize_loss.is_optimize_loss(call, env.ctx):  # minimize under UPDATE_OPS (reading/optimize_loss.py)
        opt, minimized, notes = optimize_loss.read(call, env.ctx, env.known_optimizer)
        env.notes.extend(notes)
        return _checked(env, call, opt, minimized, loss)
    if gradients.is_apply(call) or isinstance(call, cst.Call) and env.ctx.resolve(call.func)[1] in CREATE_TRAIN_OP:
        return _applied(env, call)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "minimize"):
        raise Unreadable(train_op, "train_op that is not `optimizer.minimize(loss)`: convert by hand")
    owner = call.func.value
    opt = env.known_optimizer(owner.value) if isinstance(owner, cst.Name) else \
        read_optimizer(owner, env.ctx) if isinstance(owner, cst.Call) else None
    if opt is None and isinstance(owner, cst.Name) and owner.value in env.from_params:
        raise Unreadable(call, "`minimize` on an optimizer made from params, where the conversion finds no TF1 "
                         "optimizer class (the Estimator's params are not a dict literal naming one): it cannot know "
                         "which Keras optimizer to make; pass the class in a params dict literal, or convert by hand")
    if opt is None:
        raise Unreadable(call, "`minimize` on something not built from a TF1 optimizer: convert by hand")
    bound = bind(call, MINIMIZE_PARAMS, "minimize")
    if set(bound) - {"loss", "global_step", "name"}:
        raise Unreadable(call, "`minimize` with var_list/gate_gradients/grad_loss: convert by hand")
    return _checked(env, call, opt, bound["loss"], loss)


def _checked(env, call, opt, minimized, loss):
    """`opt`, minimizing `minimized` where the spec returns `loss`, when the general conversion can train it."""
    if not minimized.deep_equals(loss):
        if not isinstance(minimized, cst.Name):
            raise Unreadable(call, "`minimize` of an expression other than the loss the EstimatorSpec returns: "
                             "assign it to a name first, or convert by hand")
        env.minimized = minimized  # `minimize(average_loss)`, `loss=total_loss`: the tape differentiates the first
    if isinstance(opt.learning_rate, cst.BaseExpression) and names_in(opt.learning_rate) - {"params"} & \
            (env._locals()):
        raise Unreadable(opt.learning_rate, "a learning rate computed in the model_fn: convert by hand")
    return opt

def _applied(env, call):
    """The optimizer of `opt.apply_gradients(...)` (its gradients are kept: gradients.py) or of
    `tf.contrib.training.create_train_op(loss, opt)`, which minimizes the loss as `opt.minimize` does."""
    if gradients.is_apply(call):
        owner = call.func.value
        env.applied = call
    else:
        bound = bind(call, CREATE_PARAMS, "create_train_op")
        extra = set(bound) - {"total_loss", "optimizer", "global_step", "update_ops", "summarize_gradients",
                              "check_numerics"}
        if extra:
            raise Unreadable(bound[sorted(extra)[0]], f"create_train_op({sorted(extra)[0]}=...): convert by hand")
        owner = bound["optimizer"]
    opt = env.known_optimizer(owner.value) if isinstance(owner, cst.Name) else \
        read_optimizer(owner, env.ctx) if isinstance(owner, cst.Call) else None
    if opt is None:
        raise Unreadable(call, "a train op on something not built from a TF1 optimizer: convert by hand")
    return opt
