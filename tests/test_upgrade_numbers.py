"""The code upgrades (TFM65x) compute what the TF1 call computed, measured with real TensorFlow.

Each case is a TF1 snippet. It runs as TF1 code did (`tf` is `tf.compat.v1`, graph mode, a fixed graph
seed), then it goes through `rewrite` and the result runs against TF2's `tf`, in the same kind of graph;
the two values must agree. Where the TF1 function is gone from TF 2.15 (`tf.contrib`), the TF1 side is
the function's documented TF1 equivalent (contrib's uniform initializers and regularizers; its truncated-normal
variants used a 0.3 % different stddev, see TFM655, and are not claimed to agree).
"""
from __future__ import annotations

import numpy as np
import pytest

from tf2migrate.engine.api import Selection, rewrite_text

HEADER = "import tensorflow as tf\nsess = tf.Session()\n"  # TF1-only names: the file is TF1 code

CASES = {
    "dropout": ("out = tf.nn.dropout(tf.ones([40, 30]), 0.8, seed=5)", None),
    "dropout_keyword": ("out = tf.nn.dropout(tf.ones([40, 30]), keep_prob=0.3 + 0.1, seed=5)", None),
    "unit_scaling": ("out = tf.uniform_unit_scaling_initializer(factor=1.43, seed=3)([50, 40])", None),
    "unit_scaling_conv": ("out = tf.uniform_unit_scaling_initializer(1.15, 4)([3, 3, 8, 16])", None),
    "xavier": ("out = tf.contrib.layers.xavier_initializer(seed=2)([30, 20])",
               "out = tf.glorot_uniform_initializer(seed=2)([30, 20])"),
    "variance_scaling": ("out = tf.contrib.layers.variance_scaling_initializer(mode='FAN_AVG', uniform=True, "
                         "seed=1)([30, 20])",
                         "out = tf.variance_scaling_initializer(2.0, 'fan_avg', 'uniform', seed=1)([30, 20])"),
    "l2": ("w = tf.constant([[1.0, -2.0], [3.0, 0.5]])\nout = tf.contrib.layers.l2_regularizer(0.01)(w)",
           "w = tf.constant([[1.0, -2.0], [3.0, 0.5]])\nout = 0.01 * tf.nn.l2_loss(w)"),
    "l1": ("w = tf.constant([[1.0, -2.0], [3.0, 0.5]])\nout = tf.contrib.layers.l1_regularizer(0.01)(w)",
           "w = tf.constant([[1.0, -2.0], [3.0, 0.5]])\nout = 0.01 * tf.reduce_sum(tf.abs(w))"),
    "resize_area": ("img = tf.reshape(tf.range(2 * 9 * 9 * 3, dtype=tf.float32), [2, 9, 9, 3])\n"
                    "out = tf.image.resize_area(img, [4, 5])", None),
    "resize_bilinear": ("img = tf.reshape(tf.range(2 * 9 * 9 * 3, dtype=tf.float32), [2, 9, 9, 3])\n"
                        "out = tf.image.resize_bilinear(img, [4, 5], half_pixel_centers=True)", None),
    "resize_kept": ("img = tf.reshape(tf.range(2 * 9 * 9 * 3, dtype=tf.float32), [2, 9, 9, 3])\n"
                    "out = tf.image.resize_bilinear(img, [4, 5])", None),
    "dilation2d": ("v = tf.reshape(tf.range(1 * 6 * 6 * 2, dtype=tf.float32), [1, 6, 6, 2])\n"
                   "k = tf.reshape(tf.range(3 * 3 * 2, dtype=tf.float32), [3, 3, 2]) / 10\n"
                   "out = tf.nn.dilation2d(v, k, [1, 1, 1, 1], [1, 2, 2, 1], 'SAME')", None),
    "erosion2d": ("v = tf.reshape(tf.range(1 * 6 * 6 * 2, dtype=tf.float32), [1, 6, 6, 2])\n"
                  "k = tf.reshape(tf.range(3 * 3 * 2, dtype=tf.float32), [3, 3, 2]) / 10\n"
                  "out = tf.nn.erosion2d(v, k, [1, 1, 1, 1], [1, 1, 1, 1], 'VALID')", None),
    "while_loop": ("out = tf.while_loop(lambda i: i < 100, lambda i: i + 1, [tf.constant(0)], None, 10, True, False, "
                   "'loop', 7, return_same_structure=True)", None),
    "ctc_no_merge": ("logits = tf.math.log(tf.constant([[[0.1, 0.8, 0.1]], [[0.1, 0.8, 0.1]], [[0.6, 0.3, 0.1]]]))\n"
                     "decoded, _ = tf.nn.ctc_beam_search_decoder(logits, [3], merge_repeated=False)\n"
                     "out = tf.sparse.to_dense(decoded[0])", None),
    "zeros_like": ("out = tf.zeros_like(tensor=tf.ones([2, 3]), optimize=True)", None),
    "to_float": ("out = tf.to_float(tf.range(5)) / 3", None),
    "strings_split": ("out = tf.sparse.to_dense(tf.strings.split(['a b', 'c d e'], sep=' '), default_value='')",
                      None),
    "softmax_labels": ("y = tf.nn.softmax(tf.constant([[0.1, 2.0, -1.0]]))\nz = tf.constant([[0.5, 0.2, 0.3]])\n"
                       "loss = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)\n"
                       "out = tf.stack([tf.reduce_sum(g) if g is not None else 0.0 for g in tf.gradients(loss, [y, z])])",
                       None),
}


def _run(tf_module, code: str):
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.set_random_seed(7)
        scope = {"tf": tf_module}
        exec(code, scope)
        with tf.compat.v1.Session(graph=graph) as sess:
            return np.asarray(sess.run(scope["out"]))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_upgraded_call_computes_what_the_tf1_call_did(name):
    tf = pytest.importorskip("tensorflow")
    before, tf1_equivalent = CASES[name]
    after = rewrite_text(HEADER + before + "\n", "case.py", Selection(source="auto")).code
    assert after != HEADER + before + "\n", "nothing was upgraded"
    body = after.split("\n", 2)[2]  # without the import and the Session line
    assert "contrib" not in body and "to_float" not in body
    expected = _run(tf.compat.v1, tf1_equivalent or before)
    got = _run(tf, body)
    if expected.dtype.kind in "OSU":
        assert (expected == got).all()
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
