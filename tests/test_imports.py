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


ASSIGNED = [  # a module-level name assigned a TensorFlow path once is an alias like an import's
    ("import tensorflow as tf\ntf1 = tf.compat.v1", "tf1.estimator.Estimator", "tf.estimator.Estimator"),
    ("import tensorflow as tf\nlayers = tf.contrib.layers", "layers.fully_connected", "tf.contrib.layers.fully_connected"),
    ("import tensorflow as tf\nEst = tf.estimator.Estimator", "Est", "tf.estimator.Estimator"),
    ("import tensorflow as tf\ntry:\n    est = tf.estimator\nexcept AttributeError:\n    pass", "est.TrainSpec",
     "tf.estimator.TrainSpec"),
    ("import tensorflow as tf\nv1 = tf.compat.v1\nest = v1.estimator", "est.EvalSpec", "tf.estimator.EvalSpec"),
]
NOT_ALIASES = [  # bound twice, rebound in a function, or not a TensorFlow path: no alias
    "import tensorflow as tf\ntf1 = tf.compat.v1\ntf1 = other",
    "import tensorflow as tf\ntf1 = tf.compat.v1\nfor tf1 in x:\n    pass",
    "import tensorflow as tf\ntf1 = tf.compat.v1\ndef f():\n    global tf1\n    tf1 = None",
    "import numpy as np\ntf1 = np.compat",
    "tf1 = tf.compat.v1",
]


@pytest.mark.parametrize("header,expr,canonical", ASSIGNED)
def test_assignment_alias_resolves(header, expr, canonical):
    assert _resolve(header, expr)[1] == canonical


@pytest.mark.parametrize("header", NOT_ALIASES)
def test_ambiguous_assignment_is_no_alias(header):
    assert _resolve(header, "tf1.estimator.Estimator")[1] is None


def test_assignment_alias_target_is_not_renamed_as_a_reference():
    from tf2migrate.engine.api import rewrite_text

    code = "import tensorflow as tf\nMS = tf.contrib.distribute.MirroredStrategy\nstrategy = MS()\n"
    out = rewrite_text(code).code
    assert out.splitlines()[1] == "MS = tf.distribute.MirroredStrategy"  # the alias is fixed, not `tf.x = tf.x`
    assert "contrib" not in out
