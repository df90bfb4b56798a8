"""TFM340-TFM341: the leftovers of a converted Estimator program that TF2 spells exactly (`leftovers.py`).

The examples below are tests (tests/test_rule_examples.py).
"""
from __future__ import annotations

from tf2migrate.rules.base import RuleInfo

_MODE_BEFORE = '''\
import tensorflow as tf


def read(mode):
    dataset = tf.data.Dataset.from_tensor_slices(({"x": [[1.0], [2.0]]}, [[1.0], [2.0]]))
    if mode == tf.estimator.ModeKeys.TRAIN:
        dataset = dataset.repeat()
    return dataset.batch(2)


estimator = tf.estimator.LinearRegressor(feature_columns=[tf.feature_column.numeric_column("x")])
estimator.train(input_fn=lambda: read(tf.estimator.ModeKeys.TRAIN), steps=10)
'''
_MODE_AFTER = '''\
import tensorflow as tf


def read(mode):
    dataset = tf.data.Dataset.from_tensor_slices(({"x": [[1.0], [2.0]]}, [[1.0], [2.0]]))
    if mode == "train":
        dataset = dataset.repeat()
    return dataset.batch(2)


def build_model():
    inputs = {"x": tf.keras.Input(shape=(1,), name="x")}
    outputs = tf.keras.layers.Dense(1, kernel_initializer="zeros")(inputs["x"])
    model = tf.keras.Model(inputs, outputs)
    optimizer = tf.keras.optimizers.Ftrl(0.2, initial_accumulator_value=0.1)
    model.compile(optimizer=optimizer, loss=tf.keras.losses.MeanSquaredError(reduction="sum"))
    return model


model = build_model()
model.fit(read("train"), steps_per_epoch=10)
'''
_MNIST_BEFORE = '''\
import numpy as np
import tensorflow as tf

mnist = tf.contrib.learn.datasets.load_dataset("mnist")
columns = [tf.feature_column.numeric_column("x", shape=[784])]
estimator = tf.estimator.LinearClassifier(feature_columns=columns, n_classes=10)
train_input_fn = tf.estimator.inputs.numpy_input_fn(
    x={"x": mnist.train.images}, y=mnist.train.labels.astype(np.int32), batch_size=100, num_epochs=None,
    shuffle=True)
estimator.train(input_fn=train_input_fn, steps=10)
'''
_MNIST_AFTER = '''\
import numpy as np
import tensorflow as tf


def load_mnist():
    """contrib's `load_dataset("mnist")` (read_data_sets' defaults) from tf.keras.datasets (tf2migrate TFM341)."""
    import types

    import numpy
    import tensorflow

    (train_images, train_labels), (test_images, test_labels) = tensorflow.keras.datasets.mnist.load_data()

    def data_set(images, labels):
        images = images.reshape(images.shape[0], 784).astype(numpy.float32) * numpy.float32(1.0 / 255.0)
        return types.SimpleNamespace(images=images, labels=labels, num_examples=images.shape[0])

    train = data_set(train_images[5000:], train_labels[5000:])
    validation = data_set(train_images[:5000], train_labels[:5000])
    return types.SimpleNamespace(train=train, validation=validation, test=data_set(test_images, test_labels))


mnist = load_mnist()


def build_model():
    inputs = {"x": tf.keras.Input(shape=(784,), name="x")}
    outputs = tf.keras.layers.Dense(10, kernel_initializer="zeros")(inputs["x"])
    model = tf.keras.Model(inputs, outputs)
    optimizer = tf.keras.optimizers.Ftrl(0.2, initial_accumulator_value=0.1)
    model.compile(
        optimizer=optimizer,
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="sum"),
    )
    return model


model = build_model()

def train_input_fn():
    return (
        tf.data.Dataset.from_tensor_slices(({"x": mnist.train.images}, mnist.train.labels.astype(np.int32)))
        .shuffle(1000)
        .repeat()
        .batch(100)
    )
model.fit(train_input_fn(), steps_per_epoch=10)
'''

INFOS = (
    RuleInfo(
        code="TFM340", name="mode-key-string",
        summary="tf.estimator.ModeKeys.X left beside a converted Estimator program -> its string value",
        message="`tf.estimator.ModeKeys` is gone in TF 2.16: written as the string it was",
        why="The input functions beside an Estimator program often take the mode (`read_dataset(path, "
            "mode=tf.estimator.ModeKeys.TRAIN)`, `if mode == tf.estimator.ModeKeys.TRAIN: shuffle`). Once the "
            "program is converted nothing else in them needs the Estimator, but TF 2.16 has no tf.estimator: "
            "the constants become the strings they always were ('train', 'eval', 'infer'), so every comparison "
            "and every call gives what it gave in TF1. Only in a file whose Estimator program was converted.",
        before=_MODE_BEFORE, after=_MODE_AFTER,
    ),
    RuleInfo(
        code="TFM341", name="contrib-mnist-loader",
        summary='tf.contrib.learn.datasets.load_dataset("mnist") beside a converted program -> the same arrays '
                'from tf.keras.datasets.mnist',
        message='`tf.contrib.learn.datasets.load_dataset("mnist")` is gone since TF 2.0: the same arrays from '
                'tf.keras.datasets.mnist (load_mnist)',
        why="The TF1 tutorials read MNIST with contrib's `load_dataset(\"mnist\")` (read_data_sets with its "
            "defaults): `train` is the training set without its first 5000 images, `validation` those 5000, "
            "`test` the test set; images flattened to 784 float32 values multiplied by 1/255, labels the uint8 "
            "class ids. `tf.keras.datasets.mnist.load_data()` holds the same images in the same order, so a "
            "`load_mnist()` written in the file gives the same arrays. Converted only when the result is read "
            "as `.train/.validation/.test` then `.images/.labels/.num_examples` (contrib's `next_batch` and "
            "epoch counters are not rebuilt: such a program keeps its TFM352 finding). Keras downloads the "
            "data to ~/.keras/datasets instead of the directory contrib used. contrib's table entry "
            "`tf.contrib.learn.datasets.DATASETS[\"mnist\"](train_dir)` is the same loader (`load_mnist(train_dir)`, "
            "read_data_sets with its defaults) and becomes `load_mnist()` too.",
        before=_MNIST_BEFORE, after=_MNIST_AFTER,
    ),
)
