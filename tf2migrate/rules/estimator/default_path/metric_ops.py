"""eval_metric_ops of a model_fn kept in a Keras Model subclass (model_subclass.py): each `tf1.metrics.*` becomes the Keras
metric computing the same number from the same arguments, updated in test_step under the same key."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import libcst as cst

from tf2migrate.rules.estimator.planning import inline_metrics, keras_metric_objects
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

# tf1.metrics.X -> the Keras metric computing the same number from the same (labels, predictions) or values
METRICS = {"accuracy": "Accuracy", "mean_squared_error": "MeanSquaredError", "mean_absolute_error":
           "MeanAbsoluteError", "root_mean_squared_error": "RootMeanSquaredError", "mean": "Mean"}
METRIC_PARAMS = ("labels", "predictions", "weights", "metrics_collections", "updates_collections", "name")
MEAN_PARAMS = ("values", "weights", "metrics_collections", "updates_collections", "name")


@dataclass
class GeneralMetric:
    key: cst.BaseExpression  # the eval_metric_ops key: the Keras metric's name
    keras: str
    args: list  # update_state's arguments: expressions, the last one may be ("sample_weight", expr)
    node: cst.CSTNode
    keywords: list = dataclasses.field(default_factory=list)  # the constructor's own keywords (a Keras metric object)


def read(ops, env, ctx, defs) -> list:
    """The Keras metrics of eval_metric_ops: a dict literal, a name bound to one, or a helper's call returning one."""
    if isinstance(ops, cst.Name) and ops.value in env.metric_dicts:
        ops = env.metric_dicts[ops.value]
    if isinstance(ops, cst.Call):  # `metric_fn(labels, logits)`: a helper of the module returning the dict
        inlined = inline_metrics.returned_dict(ops, defs)
        if inlined is None:
            raise Unreadable(ops, "eval_metric_ops from a call that is not a helper of this file returning a dict of "
                             "tf.metrics (its parameters and local names only): convert by hand")
        try:
            return [dataclasses.replace(m, node=ops) for m in read(inlined, env, ctx, defs)]
        except Unreadable as problem:
            raise Unreadable(ops, problem.message) from None
    if not isinstance(ops, cst.Dict):
        raise Unreadable(ops, "eval_metric_ops that is not a dict literal: convert by hand")
    out = []
    for el in ops.elements:
        if not isinstance(el, cst.DictElement):
            raise Unreadable(el, "eval_metric_ops with ** unpacking: convert by hand")
        call = el.value
        if isinstance(call, cst.Name) and call.value in env.keras_metrics:  # keras_metric_objects.py
            keras, args, keywords = keras_metric_objects.metric(el.key, call.value, env)
            out.append(GeneralMetric(el.key, keras, args, env.keras_metrics[call.value], keywords))
            continue
        if isinstance(call, cst.Name) and call.value in env.metric_calls:
            call = env.metric_calls[call.value]
        canonical = ctx.resolve(call.func)[1] if isinstance(call, cst.Call) else None
        short = canonical[len("tf.metrics."):] if canonical and canonical.startswith("tf.metrics.") else None
        if short not in METRICS:
            raise Unreadable(el.value, f"`{canonical or 'this eval metric'}` has no Keras metric computing the same "
                             "number here: convert it by hand")
        bound = bind(call, MEAN_PARAMS if short == "mean" else METRIC_PARAMS, canonical)
        args = [bound["values"]] if short == "mean" else [bound["labels"], bound["predictions"]]
        if "weights" in bound:
            args.append(("sample_weight", bound["weights"]))
        out.append(GeneralMetric(el.key, METRICS[short], args, call))
    return out
