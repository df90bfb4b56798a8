"""What a canned estimator's `evaluate` and `predict` gave back, rebuilt from the Keras model's logits.

`evaluate` reported, beside `loss`, metrics of the canned head (tensorflow_estimator's canned/head.py, the TF1
heads): `accuracy` (the class ids, argmax of the logits, against the labels; for two classes `logits > 0`) and
`average_loss` (the per-example loss averaged over every example evaluated, where `loss` is the mean of the
batches' summed losses). A key the program reads becomes a Keras metric of that name computing the same number,
compiled with the model, so `model.evaluate(..., return_dict=True)` answers it. `predict` yielded one dict per
example: for a classifier `logits`, `probabilities`, `class_ids` ([1], int64), `classes` (its string),
`all_class_ids` and `all_classes` (and `logistic` for two classes); for a regressor `predictions` (the logits).
`predictions_of(logits)` computes that dict from `model.predict`'s batch, and `examples_of` yields it back
one example at a time (runs.py), as the other paths do.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.rules.estimator.syntax import templates

# key -> the Keras metric class, (multi-class, two classes, regressor); None: not reported by that head
METRICS = {
    "accuracy": ("tf.keras.metrics.SparseCategoricalAccuracy", "tf.keras.metrics.BinaryAccuracy", None),
    "average_loss": ("tf.keras.metrics.SparseCategoricalCrossentropy", "tf.keras.metrics.BinaryCrossentropy",
                     "tf.keras.metrics.MeanSquaredError"),
}
_ARGS = {  # what makes the Keras metric compute the head's number from the logits
    "tf.keras.metrics.BinaryAccuracy": [("0.0", "threshold")],  # class id 1 where the logit is > 0
    "tf.keras.metrics.SparseCategoricalCrossentropy": [("True", "from_logits")],
    "tf.keras.metrics.BinaryCrossentropy": [("True", "from_logits")],
}


@dataclass
class CannedMetric:
    """A key of a canned estimator's evaluate results, as a Keras metric of that name."""

    key: cst.SimpleString
    cls: str
    node: cst.CSTNode  # where the program reads it (TFM330)

    def render(self, tf, text) -> cst.BaseExpression:
        args = [templates.arg(value, keyword) for value, keyword in _ARGS.get(self.cls, [])]
        return templates.call(tf(self.cls), args + [templates.arg(self.key.value, "name")])


def metric(plan, key: str, node):
    """The Keras metric standing for the canned estimator's `key`, or None when its head did not report it."""
    classes = plan.classes
    column = 2 if not classes else 1 if classes == 2 else 0
    cls = METRICS.get(key, (None, None, None))[column]
    return CannedMetric(cst.SimpleString(f'"{key}"'), cls, node) if cls is not None else None


def add_read(plan, key: str, node) -> bool:
    """Compile the metric the program reads as `key` (at `node`) into the canned model; False when there is none."""
    made = metric(plan, key, node)
    if made is None:
        return False
    if all(m.key.value != made.key.value for m in plan.metrics):
        plan.metrics.append(made)
    return True


def predictions_function(plan, w) -> cst.FunctionDef:
    """`def predictions_of(logits):` the dict the canned head's PREDICT mode made of the logits."""
    tf = w.tf("tf")
    if not plan.classes:
        return templates.statement(REGRESSION, w, name=w.pred_name)
    template = BINARY if plan.classes == 2 else MULTI_CLASS
    return templates.statement(template, w, name=w.pred_name, tf=tf, n=str(plan.classes))


REGRESSION = '''def {name}(logits):
{i}"""What the canned regressor's predict yielded, per batch."""
{i}return {"predictions": logits}
'''
MULTI_CLASS = '''def {name}(logits):
{i}"""What the canned classifier's predict yielded, per batch (its head's PREDICT dict)."""
{i}class_ids = {tf}.expand_dims({tf}.argmax(logits, axis=-1), axis=-1)
{i}all_class_ids = {tf}.tile({tf}.range({n})[{tf}.newaxis], [{tf}.shape(logits)[0], 1])
{i}return {
{i}{i}"logits": logits,
{i}{i}"probabilities": {tf}.nn.softmax(logits),
{i}{i}"class_ids": class_ids,
{i}{i}"classes": {tf}.strings.as_string(class_ids),
{i}{i}"all_class_ids": all_class_ids,
{i}{i}"all_classes": {tf}.strings.as_string(all_class_ids),
{i}}
'''
BINARY = '''def {name}(logits):
{i}"""What the canned binary classifier's predict yielded, per batch (its head's PREDICT dict)."""
{i}two_class_logits = {tf}.concat([{tf}.zeros_like(logits), logits], axis=-1)
{i}class_ids = {tf}.expand_dims({tf}.argmax(two_class_logits, axis=-1), axis=-1)
{i}all_class_ids = {tf}.tile({tf}.range({n})[{tf}.newaxis], [{tf}.shape(logits)[0], 1])
{i}return {
{i}{i}"logits": logits,
{i}{i}"logistic": {tf}.sigmoid(logits),
{i}{i}"probabilities": {tf}.nn.softmax(two_class_logits),
{i}{i}"class_ids": class_ids,
{i}{i}"classes": {tf}.strings.as_string(class_ids),
{i}{i}"all_class_ids": all_class_ids,
{i}{i}"all_classes": {tf}.strings.as_string(all_class_ids),
{i}}
'''
