"""Learning-rate decays driven by the global step -> Keras `LearningRateSchedule`s.

TF1 reads `global_step` when the step runs; a Keras schedule is called with `optimizer.iterations`,
which counts the same steps from 0, so step k gets the same rate. The `global_step` argument
disappears: it must be the Estimator's global step (`tf1.train.get_global_step()`), nothing else.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

# canonical -> (TF1 parameters, Keras schedule, Keras parameters in order, as TF1 names)
TF1_DECAYS = {
    "tf.train.exponential_decay": (("learning_rate", "global_step", "decay_steps", "decay_rate", "staircase", "name"),
                                   "ExponentialDecay", ("learning_rate", "decay_steps", "decay_rate", "staircase")),
    "tf.train.inverse_time_decay": (("learning_rate", "global_step", "decay_steps", "decay_rate", "staircase",
                                     "name"), "InverseTimeDecay",
                                    ("learning_rate", "decay_steps", "decay_rate", "staircase")),
    "tf.train.polynomial_decay": (("learning_rate", "global_step", "decay_steps", "end_learning_rate", "power",
                                   "cycle", "name"), "PolynomialDecay",
                                  ("learning_rate", "decay_steps", "end_learning_rate", "power", "cycle")),
    "tf.train.piecewise_constant": (("x", "boundaries", "values", "name"), "PiecewiseConstantDecay",
                                    ("boundaries", "values")),
    "tf.train.cosine_decay": (("learning_rate", "global_step", "decay_steps", "alpha", "name"), "CosineDecay",
                              ("learning_rate", "decay_steps", "alpha")),
}
KERAS_NAMES = {"learning_rate": "initial_learning_rate"}
STEP_ARG = {"tf.train.piecewise_constant": "x"}
GLOBAL_STEP = {"tf.train.get_global_step", "tf.train.get_or_create_global_step"}


@dataclass
class Schedule:
    canonical: str
    keras: str
    args: list  # (Keras keyword or None for positional, expression)
    node: cst.CSTNode

    def render(self, w) -> cst.BaseStatement:
        """`learning_rate = <schedule>(...)` in the builder."""
        args = [templates.arg(w.text(v), k) for k, v in self.args]
        made = templates.call(w.tf("tf.keras.optimizers.schedules." + self.keras), args)
        return templates.fitted("learning_rate = {call}", w, 1, call=made)


def is_global_step(expr, ctx, step_names) -> bool:
    if isinstance(expr, cst.Name) and expr.value in step_names:
        return True
    if isinstance(expr, cst.Call) and not expr.args:
        return ctx.resolve(expr.func)[1] in GLOBAL_STEP
    return False


def read_schedule(call: cst.Call, ctx, step_names) -> Schedule:
    _, canonical = ctx.resolve(call.func)
    if canonical not in TF1_DECAYS:
        return None
    params, keras, order = TF1_DECAYS[canonical]
    bound = bind(call, params, canonical)
    step = bound.get(STEP_ARG.get(canonical, "global_step"))
    if step is None or not is_global_step(step, ctx, step_names):
        raise Unreadable(call, f"`{canonical}` not driven by the global step: write a Keras schedule by hand")
    by_keyword = {a.keyword.value for a in call.args if a.keyword is not None}
    args, positional = [], True
    for name in order:
        if name in bound:
            positional = positional and name not in by_keyword
            args.append((None if positional else KERAS_NAMES.get(name, name), bound[name]))
        else:
            positional = False
    return Schedule(canonical, keras, args, call)
