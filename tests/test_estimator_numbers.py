"""The numbers behind the TFM3xx mappings: each TF1 loss and metric the converter maps equals its Keras
counterpart on the same inputs (checked in TF1 graph mode against Keras 2), so a converted `model_fn`
computes what the original did. Optimizers are checked end to end by the program fixtures."""
from __future__ import annotations

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
pytestmark = pytest.mark.slow

RNG = np.random.RandomState(0)
LOGIT = RNG.randn(32, 1).astype(np.float32)
BINARY = (RNG.rand(32, 1) > 0.5).astype(np.float32)
LOGITS3 = RNG.randn(32, 3).astype(np.float32)
CLASSES = RNG.randint(0, 3, size=(32,)).astype(np.int64)
ONEHOT = np.eye(3, dtype=np.float32)[CLASSES]
PRED = RNG.randn(32, 1).astype(np.float32)
TRUE = RNG.randn(32, 1).astype(np.float32)
PROB = 1 / (1 + np.exp(-LOGIT))


def _tf1(build):
    graph = tf.Graph()
    with graph.as_default():
        v1 = tf.compat.v1
        ops = build(v1)
        with v1.Session() as session:
            session.run(v1.local_variables_initializer())
            if isinstance(ops, tuple):  # a streaming metric: (value, update)
                session.run(ops[1])
                return float(session.run(ops[0]))
            return float(session.run(ops))


LOSSES = [
    (lambda v1: v1.losses.mean_squared_error(TRUE, PRED), tf.keras.losses.MeanSquaredError(), TRUE, PRED),
    (lambda v1: v1.losses.absolute_difference(TRUE, PRED), tf.keras.losses.MeanAbsoluteError(), TRUE, PRED),
    (lambda v1: v1.losses.huber_loss(TRUE, PRED, delta=0.5), tf.keras.losses.Huber(delta=0.5), TRUE, PRED),
    (lambda v1: v1.losses.sparse_softmax_cross_entropy(CLASSES, LOGITS3),
     tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), CLASSES, LOGITS3),
    (lambda v1: v1.losses.softmax_cross_entropy(ONEHOT, LOGITS3, label_smoothing=0.1),
     tf.keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1), ONEHOT, LOGITS3),
    (lambda v1: v1.losses.sigmoid_cross_entropy(BINARY, LOGIT),
     tf.keras.losses.BinaryCrossentropy(from_logits=True), BINARY, LOGIT),
    (lambda v1: v1.losses.log_loss(BINARY, PROB), tf.keras.losses.BinaryCrossentropy(), BINARY, PROB),
    (lambda v1: v1.reduce_mean(v1.nn.sparse_softmax_cross_entropy_with_logits(labels=CLASSES, logits=LOGITS3)),
     tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), CLASSES, LOGITS3),
]


@pytest.mark.parametrize("tf1_loss,keras_loss,y_true,y_pred", LOSSES, ids=lambda x: getattr(x, "name", None))
def test_loss_mapping(tf1_loss, keras_loss, y_true, y_pred):
    assert float(keras_loss(y_true, y_pred)) == pytest.approx(_tf1(tf1_loss), rel=1e-5)


def _rounded(v1):
    return v1.round(v1.sigmoid(LOGIT))


METRICS = [
    (lambda v1: v1.metrics.accuracy(BINARY, _rounded(v1)), tf.keras.metrics.BinaryAccuracy(threshold=0.0), BINARY, LOGIT),
    (lambda v1: v1.metrics.auc(BINARY, v1.sigmoid(LOGIT)), tf.keras.metrics.AUC(from_logits=True), BINARY, LOGIT),
    (lambda v1: v1.metrics.precision(BINARY, _rounded(v1)), tf.keras.metrics.Precision(thresholds=0.0), BINARY, LOGIT),
    (lambda v1: v1.metrics.recall(BINARY, _rounded(v1)), tf.keras.metrics.Recall(thresholds=0.0), BINARY, LOGIT),
    (lambda v1: v1.metrics.accuracy(CLASSES, v1.argmax(LOGITS3, 1)), tf.keras.metrics.SparseCategoricalAccuracy(),
     CLASSES, LOGITS3),
    (lambda v1: v1.metrics.mean_squared_error(TRUE, PRED), tf.keras.metrics.MeanSquaredError(), TRUE, PRED),
    (lambda v1: v1.metrics.root_mean_squared_error(TRUE, PRED), tf.keras.metrics.RootMeanSquaredError(), TRUE, PRED),
    (lambda v1: v1.metrics.mean_absolute_error(TRUE, PRED), tf.keras.metrics.MeanAbsoluteError(), TRUE, PRED),
]


@pytest.mark.parametrize("tf1_metric,keras_metric,y_true,y_pred", METRICS, ids=lambda x: getattr(x, "name", None))
def test_metric_mapping(tf1_metric, keras_metric, y_true, y_pred):
    keras_metric.update_state(y_true, y_pred)
    assert float(keras_metric.result()) == pytest.approx(_tf1(tf1_metric), rel=1e-6)
