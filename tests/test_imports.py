"""Import-aware names: every import form of the issue resolves to the canonical TF1 name."""
from __future__ import annotations

import libcst as cst
import pytest

from tf2migrate.engine.imports import ImportMap, canonical_tf

FORMS = [
    ("import tensorflow as tf", "tf.train.AdamOptimizer", "tf.train.AdamOptimizer"),
    ("import tensorflow.compat.v1 as tf", "tf.train.AdamOptimizer", "tf.train.AdamOptimizer"),
    ("import tensorflow.compat.v1 as tf1", "tf1.fixed_size_partitioner", "tf.fixed_size_partitioner"),
    ("import tensorflow", "tensorflow.compat.v1.fixed_size_partitioner", "tf.fixed_size_partitioner"),
    ("import tensorflow.compat.v1", "tensorflow.compat.v1.layers.dense", "tf.layers.dense"),
    ("from tensorflow.compat.v1 import estimator as est", "est.Estimator", "tf.estimator.Estimator"),
    ("from tensorflow.compat.v1 import estimator", "estimator.RunConfig", "tf.estimator.RunConfig"),
    ("from tensorflow.contrib.distribute import MirroredStrategy", "MirroredStrategy",
     "tf.contrib.distribute.MirroredStrategy"),
    ("from tensorflow.compat.v1 import fixed_size_partitioner", "fixed_size_partitioner",
     "tf.fixed_size_partitioner"),
    ("from tensorflow.compat import v1 as tf1", "tf1.train.Saver", "tf.train.Saver"),
    ("import tensorflow.compat.v2 as tf", "tf.distribute.MirroredStrategy", "tf.distribute.MirroredStrategy"),
]


def _resolve(header: str, expr: str):
    module = cst.parse_module(header + "\n")
    return ImportMap.of(module).resolve(cst.parse_expression(expr))


@pytest.mark.parametrize("header,expr,canonical", FORMS)
def test_import_form_resolves(header, expr, canonical):
    assert _resolve(header, expr)[1] == canonical


def test_literal_keeps_compat_v1_for_compat_only_keys():
    literal, canonical = _resolve("import tensorflow as tf", "tf.compat.v1.distribute.experimental.X")
    assert literal == "tf.compat.v1.distribute.experimental.X"
    assert canonical == "tf.distribute.experimental.X"


@pytest.mark.parametrize("header,expr", [
    ("import numpy as np", "np.fixed_size_partitioner"),
    ("import tensorflow as tf", "other.fixed_size_partitioner"),
    ("from mylib import tf", "tf.fixed_size_partitioner"),
    ("import tensorflow_addons as tfa", "tfa.optimizers.AdamW"),
])
def test_not_tensorflow(header, expr):
    assert _resolve(header, expr) == (None, None)


def test_v2_alias_prefers_plain_tensorflow():
    module = cst.parse_module("import tensorflow.compat.v1 as tf1\nimport tensorflow as tf\n")
    assert ImportMap.of(module).v2_alias() == "tf"
    module = cst.parse_module("import tensorflow.compat.v1 as tf\n")
    assert ImportMap.of(module).v2_alias() is None


def test_canonical_tf():
    assert canonical_tf("tensorflow.compat.v1") == "tf"
    assert canonical_tf("tensorflow_estimator.python") is None
