"""`eval_metric_ops` built from `tf1.metrics.*` -> Keras metrics passed to `compile`.

A Keras metric sees `(labels, model output)`; a TF1 metric sees whatever the `model_fn` computed, so
the mapping depends on that: `accuracy` of `argmax(logits)` is `SparseCategoricalAccuracy` on the
logits, `auc` of `sigmoid(logits)` is `AUC(from_logits=True)`. The metric keeps its TF1 key as its
name, so `evaluate(return_dict=True)` answers with the same keys. `mean(loss)` is the loss itself,
which `evaluate` reports anyway.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

PARAMS = ("labels", "predictions", "weights", "metrics_collections", "updates_collections", "name")
AUC_PARAMS = ("labels", "predictions", "weights", "num_thresholds", "metrics_collections", "updates_collections",
              "curve", "name", "summation_method")
ON_OUTPUT = {  # TF1 metric -> Keras metric when `predictions` is the model output itself
    "accuracy": "Accuracy", "mean_squared_error": "MeanSquaredError", "root_mean_squared_error":
    "RootMeanSquaredError", "mean_absolute_error": "MeanAbsoluteError", "auc": "AUC", "precision": "Precision",
    "recall": "Recall",
}


@dataclass
class Metric:
    key: cst.BaseExpression  # the dict key (its source is the metric's name)
    keras: str
    keywords: dict  # keyword -> source
    node: cst.CSTNode

    def render(self, tf, source) -> cst.BaseExpression:
        args = [templates.arg(source(self.key), "name")] + [templates.arg(v, k) for k, v in self.keywords.items()]
        return templates.call(tf("tf.keras.metrics." + self.keras), args)


def read_metric(key, call: cst.Call, ctx, output_kind):
    """The Keras metric for `key: call`; `output_kind(expr)` says what a prediction is: 'output',
    'argmax' (of the output, last axis), 'sigmoid' (of the output), 'rounded_sigmoid', 'loss', or None."""
    if not isinstance(call, cst.Call):
        raise Unreadable(call, "eval metric that is not a `tf1.metrics.*` call: convert it by hand")
    _, canonical = ctx.resolve(call.func)
    short = canonical[len("tf.metrics."):] if canonical and canonical.startswith("tf.metrics.") else None
    if short == "mean":
        bound = bind(call, ("values", "weights", "metrics_collections", "updates_collections", "name"), canonical)
        if output_kind(bound.get("values")) == "loss" and "weights" not in bound:
            return None  # the loss: `evaluate` reports it as "loss"
        raise Unreadable(call, "`tf1.metrics.mean` of something else than the loss: add a Keras metric by hand")
    if short not in ON_OUTPUT:
        raise Unreadable(call, f"`{canonical or 'this metric'}` has no automatic Keras equivalent here")
    bound = bind(call, AUC_PARAMS if short == "auc" else PARAMS, canonical)
    if "weights" in bound:
        raise Unreadable(bound["weights"], "weighted eval metric: pass sample weights to `evaluate` by hand")
    if not _is_labels(bound.get("labels")):
        raise Unreadable(call, "eval metric on something else than `labels`: convert it by hand")
    kind = output_kind(bound.get("predictions"))
    keywords = {k: source(bound[k]) for k in ("num_thresholds", "curve", "summation_method") if k in bound}
    if kind == "output" and short in ("precision", "recall"):
        raise Unreadable(call, f"`tf1.metrics.{short}` counts every nonzero prediction as positive and Keras "
                         "thresholds at 0.5: pass predictions=tf.round(tf.sigmoid(logits)) or convert by hand")
    if kind == "output":
        return Metric(key, ON_OUTPUT[short], keywords, call)
    if kind == "rounded_sigmoid" and short in ("precision", "recall", "accuracy"):
        # round(sigmoid(z)) == 1 exactly when z > 0: the Keras metric thresholds the logits at 0
        if short == "accuracy":
            return Metric(key, "BinaryAccuracy", {**keywords, "threshold": "0.0"}, call)
        return Metric(key, ON_OUTPUT[short], {**keywords, "thresholds": "0.0"}, call)
    if kind == "argmax" and short == "accuracy":
        return Metric(key, "SparseCategoricalAccuracy", keywords, call)
    if kind == "sigmoid" and short == "auc":
        return Metric(key, "AUC", {**keywords, "from_logits": "True"}, call)
    raise Unreadable(call, f"`{canonical}` of this prediction has no automatic Keras equivalent: convert it by hand")


def _is_labels(expr) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "labels"
