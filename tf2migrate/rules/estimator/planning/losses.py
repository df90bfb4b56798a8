"""The `model_fn` loss -> the `loss` argument of `compile`.

TF1's `tf1.losses.*` reduce with SUM_BY_NONZERO_WEIGHTS, which with the default `weights=1.0` is the
mean over every element: what Keras's default SUM_OVER_BATCH_SIZE losses compute for a batch of
same-shaped examples. Logits-based TF1 losses become the Keras class with `from_logits=True`.
`tf.reduce_mean(tf.nn.*_cross_entropy_with_logits(...))` is the same loss written by hand.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind, literal

# canonical TF1 name -> (TF1 parameters, label param, prediction param, Keras loss, extra params kept)
TF1_LOSSES = {
    "tf.losses.mean_squared_error": (("labels", "predictions", "weights", "scope", "loss_collection", "reduction"),
                                     "labels", "predictions", '"mse"', ()),
    "tf.losses.absolute_difference": (("labels", "predictions", "weights", "scope", "loss_collection", "reduction"),
                                      "labels", "predictions", '"mae"', ()),
    "tf.losses.huber_loss": (("labels", "predictions", "weights", "delta", "scope", "loss_collection", "reduction"),
                             "labels", "predictions", "Huber", ("delta",)),
    "tf.losses.sparse_softmax_cross_entropy": (("labels", "logits", "weights", "scope", "loss_collection",
                                                "reduction"), "labels", "logits", "SparseCategoricalCrossentropy", ()),
    "tf.losses.softmax_cross_entropy": (("onehot_labels", "logits", "weights", "label_smoothing", "scope",
                                         "loss_collection", "reduction"), "onehot_labels", "logits",
                                        "CategoricalCrossentropy", ("label_smoothing",)),
    "tf.losses.sigmoid_cross_entropy": (("multi_class_labels", "logits", "weights", "label_smoothing", "scope",
                                         "loss_collection", "reduction"), "multi_class_labels", "logits",
                                        "BinaryCrossentropy", ("label_smoothing",)),
    "tf.losses.log_loss": (("labels", "predictions", "weights", "epsilon", "scope", "loss_collection", "reduction"),
                           "labels", "predictions", "BinaryCrossentropy", ()),
}
TF1_DEFAULT_KEPT = {"epsilon": 1e-7}
BY_HAND = {  # tf.nn.*_with_logits inside tf.reduce_mean
    "tf.nn.sparse_softmax_cross_entropy_with_logits": "SparseCategoricalCrossentropy",
    "tf.nn.softmax_cross_entropy_with_logits": "CategoricalCrossentropy",
    "tf.nn.softmax_cross_entropy_with_logits_v2": "CategoricalCrossentropy",
    "tf.nn.sigmoid_cross_entropy_with_logits": "BinaryCrossentropy",
}
HAND_PARAMS = ("_sentinel", "labels", "logits", "dim", "name", "axis")


@dataclass
class Loss:
    keras: str  # '"mse"' or a tf.keras.losses class name
    labels: cst.BaseExpression
    output: cst.BaseExpression  # the tensor the loss is computed on: must be the model's output
    from_logits: bool
    extra: dict  # keyword -> expression (delta, label_smoothing)
    node: cst.CSTNode

    def render(self, tf) -> cst.BaseExpression:
        if self.keras.startswith('"'):
            return templates.node(self.keras)
        args = [templates.arg("True", "from_logits")] if self.from_logits else []
        args += [templates.arg(v, k) for k, v in self.extra.items()]
        return templates.call(tf("tf.keras.losses." + self.keras), args)


def read_loss(call: cst.Call, ctx) -> Optional[Loss]:
    """The Keras loss for a TF1 loss call, None if `call` is no loss; raises Unreadable if not convertible."""
    _, canonical = ctx.resolve(call.func)
    if canonical in TF1_LOSSES:
        params, lab, pred, keras, kept = TF1_LOSSES[canonical]
        bound = bind(call, params, canonical)
        for name in ("weights", "reduction"):
            if name in bound and not (name == "weights" and literal(bound[name]) in (1, 1.0)):
                raise Unreadable(bound[name], f"`{canonical}({name}=...)`: use sample weights or a Keras "
                                 "reduction by hand")
        if "epsilon" in bound and literal(bound["epsilon"]) != TF1_DEFAULT_KEPT["epsilon"]:
            raise Unreadable(bound["epsilon"], "`log_loss` with a non-default epsilon has no Keras equivalent")
        extra = {k: source(bound[k]) for k in kept if k in bound}
        return Loss(keras, bound[lab], bound[pred], pred == "logits", extra, call)
    if canonical in ("tf.reduce_mean", "tf.math.reduce_mean") and len(call.args) == 1:
        inner = call.args[0].value
        if isinstance(inner, cst.Call):
            _, inner_name = ctx.resolve(inner.func)
            if inner_name in BY_HAND:
                bound = bind(inner, HAND_PARAMS, inner_name)
                if "labels" not in bound or "logits" not in bound or set(bound) - {"labels", "logits", "name"}:
                    raise Unreadable(inner, f"`{inner_name}` needs labels= and logits= only")
                return Loss(BY_HAND[inner_name], bound["labels"], bound["logits"], True, {}, call)
    return None


def is_one_hot_labels(call: cst.Call, ctx) -> bool:
    """`tf1.one_hot(labels, depth)`: the labels the loss reads, one-hot encoded."""
    if ctx.resolve(call.func)[1] != "tf.one_hot":
        return False
    bound = bind(call, ("indices", "depth", "on_value", "off_value", "axis", "dtype", "name"), "one_hot")
    defaults = literal(bound.get("on_value", cst.Integer("1"))) == 1 and literal(bound.get("off_value", cst.Integer("0"))) == 0
    return isinstance(bound.get("indices"), cst.Name) and bound["indices"].value == "labels" and defaults \
        and set(bound) <= {"indices", "depth", "on_value", "off_value", "dtype", "name"}


# TF1 casts of the labels -> the dtype they give (None: the `dtype` argument says)
LABEL_CASTS = {"tf.cast": None, "tf.dtypes.cast": None, "tf.to_int32": "int32", "tf.to_int64": "int64",
               "tf.to_float": "float32"}
SPARSE = "SparseCategoricalCrossentropy"


def labels_cast(expr, ctx) -> Optional[str]:
    """`int32` for `tf.cast(labels, tf.int32)` (`tf.to_int32(labels)`, `dtype="int32"`...), else None."""
    if not isinstance(expr, cst.Call):
        return None
    canonical = ctx.resolve(expr.func)[1]
    if canonical not in LABEL_CASTS:
        return None
    try:
        bound = bind(expr, ("x", "dtype", "name") if LABEL_CASTS[canonical] is None else ("x", "name"), canonical)
    except Unreadable:
        return None
    if not (isinstance(bound.get("x"), cst.Name) and bound["x"].value == "labels"):
        return None
    dtype = bound.get("dtype")
    if dtype is None:
        return LABEL_CASTS[canonical]
    if isinstance(dtype, cst.SimpleString):
        return literal(dtype)
    name = ctx.resolve(dtype)[1] or ""
    return name.rpartition(".")[2] if name.startswith(("tf.", "tf.dtypes.")) else None


def cast_as_keras_does(loss: Loss, dtype: Optional[str]) -> bool:
    """Does Keras cast the labels so itself? Its sparse loss casts them to an integer type, every other one to
    the output's dtype (float32): a TF1 loss on `tf.cast(labels, that type)` is the Keras loss on `labels`."""
    return dtype in (("int32", "int64") if loss.keras == SPARSE else ("float32",))


def on_labels(loss: Loss, is_one_hot, cast=lambda e: None) -> Loss:
    """The loss as Keras computes it from the dataset's labels; raises Unreadable when it reads other labels.
    A categorical loss on `one_hot(labels)` is the sparse loss on `labels` (Keras has no label transform);
    one on `tf.cast(labels, dtype)` (`cast(expr)`: that dtype, else None) is the loss on `labels` where Keras
    casts them alike (`cast_as_keras_does`)."""
    if isinstance(loss.labels, cst.Name) and loss.labels.value == "labels":
        return loss
    if cast_as_keras_does(loss, cast(loss.labels)):
        return loss
    if is_one_hot(loss.labels) and loss.keras == "CategoricalCrossentropy" and not loss.extra:
        return Loss("SparseCategoricalCrossentropy", loss.labels, loss.output, loss.from_logits, {}, loss.node)
    raise Unreadable(loss.labels, "the loss reads something other than `labels` (or `one_hot(labels)`, or a cast "
                     "of them Keras makes itself): Keras "
                     "passes the dataset's labels to the loss; convert by hand")
