"""A Keras model or layer the model_fn makes, made once: `model = Model(params["data_format"])` -> `self.model`.

TF's official MNIST writes its network as a `tf.keras.Model` subclass (of tf.layers layers) and makes it at the top of
the model_fn, which TF1 called once per graph. In the general conversion (model_subclass.py) the forward pass runs at every
call of `call`, where a Keras object made anew would make new variables each time, which tf.function refuses
(tf1_style.KERAS_MADE). A statement `name = Class(args)` of the forward pass, whose arguments read nothing but
`params` and module-level names, is therefore made once, in the model's `__init__` (`self.name = Class(args)`), and
`call` reads `name = self.name`: the same network, made once as the Estimator's graph made it, its variables tracked
by the Keras model.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.default_path import tf1_style
from tf2migrate.rules.estimator.reading.uses import assignment
from tf2migrate.rules.estimator.syntax.kept_source import names_in

# attributes a tf.keras.Model has, or the general model sets: an object made once takes `<name>_` instead
TAKEN = {"layers", "metrics", "optimizer", "loss", "variables", "weights", "trainable_variables", "trainable_weights",
         "non_trainable_variables", "non_trainable_weights", "name", "inputs", "outputs", "params", "loss_tracker",
         "eval_metrics", "submodules", "dtype", "trainable", "built", "input", "output", "losses", "updates",
         "distribute_strategy", "run_eagerly", "stop_training", "history", "compiled_loss", "compiled_metrics"}


def find(forward: list, ctx, defs: dict, locals_: set) -> dict:
    """id(statement) -> (name, call) for the forward statements that make a Keras object from params and module
    names only (`locals_`: the names the model_fn binds or takes, besides params)."""
    out = {}
    for stmt in forward:
        name, value = assignment(stmt)
        if name is None or not isinstance(value, cst.Call) or tf1_style.keras_made([stmt], ctx, defs) is not value:
            continue
        if names_in(value) & (locals_ - {"params"}):
            continue
        out[id(stmt)] = (name, value)
    return out


def attribute(name: str) -> str:
    return name + "_" if name in TAKEN else name
