"""`tf.contrib.layers.optimize_loss(loss, step, learning_rate=lr, optimizer="Adam")` as a model_fn's train op.

In TF 1.15 (contrib/layers/python/layers/optimizers.py) it runs the UPDATE_OPS collection before the loss, makes
`OPTIMIZER_CLS_NAMES[name](learning_rate=lr)` (or `cls(learning_rate=lr)`, or uses an optimizer instance as it
is), computes the gradients of `loss` over all trainable variables, clips them with `clip_by_global_norm` when
`clip_gradients` is a float, writes summaries and applies them, incrementing `global_step`. With its defaults
that is `optimizer.minimize(loss, global_step)` under UPDATE_OPS, which the converter already reads; a float
`clip_gradients` is the Keras optimizer's `global_clipnorm` (clip_by_global_norm of all gradients too). Every
other argument changes what trains and is named as the cause.
"""
from __future__ import annotations

from dataclasses import replace

import libcst as cst

from tf2migrate.rules.estimator.planning.optimizers import TF1_OPTIMIZERS, Optimizer, read_optimizer
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

OPTIMIZE_LOSS = "tf.contrib.layers.optimize_loss"
PARAMS = ("loss", "global_step", "learning_rate", "optimizer", "gradient_noise_scale", "gradient_multipliers",
          "clip_gradients", "learning_rate_decay_fn", "update_ops", "variables", "name", "summaries",
          "colocate_gradients_with_ops", "increment_global_step")
# TF 1.15's OPTIMIZER_CLS_NAMES; "Momentum" is `MomentumOptimizer(learning_rate, momentum=0.9)` there
BY_NAME = {"Adagrad": "tf.train.AdagradOptimizer", "Adam": "tf.train.AdamOptimizer", "Ftrl": "tf.train.FtrlOptimizer",
           "Momentum": "tf.train.MomentumOptimizer", "RMSProp": "tf.train.RMSPropOptimizer",
           "SGD": "tf.train.GradientDescentOptimizer"}
SUMMARIES_DROPPED = ("TF1 summary dropped (optimize_loss wrote its `summaries`, by default the loss, learning rate "
                     "and gradient norm; the steps write none): use tf.keras.callbacks.TensorBoard, or tf.summary in "
                     "a callback")
WHY = {"gradient_noise_scale": "adds noise to the gradients", "gradient_multipliers": "scales some gradients",
       "learning_rate_decay_fn": "decays the learning rate by a function of the step",
       "update_ops": "runs these ops instead of the UPDATE_OPS collection", "variables": "trains only these variables",
       "colocate_gradients_with_ops": "places the gradients", "increment_global_step": "may leave the step as it is"}


def is_optimize_loss(call, ctx) -> bool:
    return isinstance(call, cst.Call) and ctx.resolve(call.func)[1] == OPTIMIZE_LOSS


def read(call: cst.Call, ctx, known=lambda name: None):
    """(Optimizer, the loss it minimizes, notes) for an `optimize_loss(...)` call; raises Unreadable with the cause.
    `known(name)`: the Optimizer a local name holds, or None."""
    bound = bind(call, PARAMS, "optimize_loss")
    for key in WHY:
        if key in bound and not _default(key, bound[key]):
            raise Unreadable(bound[key], f"optimize_loss({key}=...) {WHY[key]}: the Keras optimizer has no such "
                             "argument; convert this train op by hand")
    for key in ("loss", "learning_rate", "optimizer"):
        if key not in bound:
            raise Unreadable(call, f"optimize_loss without `{key}`: TF1 raises TypeError; fix the program first")
    lr, given = bound["learning_rate"], bound["optimizer"]
    if isinstance(lr, cst.Integer) or isinstance(lr, cst.Name) and lr.value == "None":
        raise Unreadable(lr, "optimize_loss(learning_rate=...) that is neither a float nor a tensor: TF1 raises "
                         "ValueError; fix the program first")
    optimizer = _optimizer(given, lr, ctx, known)
    if "clip_gradients" in bound:
        clip = bound["clip_gradients"]
        if not isinstance(clip, cst.Float):
            raise Unreadable(clip, "optimize_loss(clip_gradients=...) that is not a float literal (a callable, or a "
                             "value this reader cannot see is a float): convert this train op by hand")
        optimizer.keywords["global_clipnorm"] = clip  # TF1: clip_by_global_norm of all gradients
    return optimizer, bound["loss"], [(bound.get("summaries", call), "TFM306", SUMMARIES_DROPPED)]


def _optimizer(given, lr, ctx, known) -> Optimizer:
    """TF1's optimizer: a name of OPTIMIZER_CLS_NAMES, a TF1 optimizer class, or an instance (lr unused then)."""
    if isinstance(given, cst.SimpleString):
        name = given.evaluated_value
        if name not in BY_NAME:
            raise Unreadable(given, f"optimize_loss(optimizer={given.value}): not a name TF1 knows (it raises "
                             f"ValueError; it takes {', '.join(BY_NAME)}); fix the program first")
        return _made(BY_NAME[name], lr, given, {"momentum": "0.9"} if name == "Momentum" else {})
    canonical = ctx.resolve(given)[1] if isinstance(given, (cst.Name, cst.Attribute)) else None
    if canonical in TF1_OPTIMIZERS and canonical != "tf.train.MomentumOptimizer":  # `cls(learning_rate=lr)`
        return _made(canonical, lr, given, {})
    opt = known(given.value) if isinstance(given, cst.Name) else \
        read_optimizer(given, ctx) if isinstance(given, cst.Call) else None
    if opt is None:
        raise Unreadable(given, "optimize_loss(optimizer=...) that is not a TF1 optimizer name, class or instance "
                         "this reader knows: convert this train op by hand")
    return replace(opt, keywords=dict(opt.keywords))  # global_clipnorm is this train op's, not the instance's


def _made(canonical, lr, node, extra) -> Optimizer:
    """The Optimizer `cls(learning_rate=lr)` makes, with TF1's other defaults spelled out (optimizers.py)."""
    _, keras, _, spelled = TF1_OPTIMIZERS[canonical]
    return Optimizer(canonical, keras, lr, {**spelled, **extra}, node)


def _default(key, value) -> bool:
    """An argument given as its TF1 default (no change to what trains)."""
    word = value.value if isinstance(value, cst.Name) else None
    if key == "increment_global_step":
        return word == "True"
    if key == "colocate_gradients_with_ops":
        return word in ("False", "True")  # where the gradients run, not what they are
    return word == "None"
