"""A file where the Estimator converter provably has nothing to do (no package, no Estimator built, nothing
trained: rules/estimator/package/idle_neighbours.may_act) takes the splice path, with LibCST's output; any other
stays on LibCST."""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.selection import Selection
from tf2migrate.rules import table_only
from tests.test_table_splice import _same

MODEL_FN = ("import tensorflow as tf\n\n\ndef model_fn(features, labels, mode):\n    loss = tf.log(features)\n"
            "    if mode == tf.estimator.ModeKeys.TRAIN:\n        pass\n"
            "    return tf.estimator.EstimatorSpec(mode, loss=loss)\n")
SHAPES = {
    "model_fn_only": MODEL_FN,
    "serving": "import tensorflow as tf\nr = tf.estimator.export.ServingInputReceiver(tf.log(x), {})\n",
    "tpu_spec": "import tensorflow as tf\ns = tf.contrib.tpu.TPUEstimatorSpec(m, loss=tf.log(x))\n",
    "built": MODEL_FN + "est = tf.estimator.Estimator(model_fn=model_fn)\nest.train(input_fn=f, steps=2)\n",
    "trained": MODEL_FN + "from trainer import model\nest = model.build()\nest.train(input_fn=f, steps=2)\n",
}


@pytest.mark.parametrize("source", ["tf1", "auto"])
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_estimator_idle_splice_is_libcsts(name, source):
    _same(SHAPES[name], f"{name}.py", Selection(source=source))


def test_only_an_idle_estimator_file_takes_the_splice_path():
    taken = {}
    for name, text in SHAPES.items():
        before = sum(table_only.SPLICED.values())
        rewrite_text(text, f"{name}.py", Selection(source="tf1"))
        taken[name] = sum(table_only.SPLICED.values()) > before
    assert taken == {"model_fn_only": True, "serving": True, "tpu_spec": True, "built": False, "trained": False}


LEARNING_PHASE = {
    "alone": "import tensorflow as tf\ntf.keras.backend.set_learning_phase(1)\ny = tf.log(x)\n",
    "aliased": "from tensorflow.keras.backend import set_learning_phase as slp\nimport tensorflow as tf\nslp(0)\n"
               "y = tf.log(x)\n",
    "converted": "import tensorflow as tf\n\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])\n"
                 "model.compile(loss='mse', optimizer=tf.keras.optimizers.SGD(0.1))\n"
                 "tf.keras.backend.set_learning_phase(1)\n"
                 "estimator = tf.keras.estimator.model_to_estimator(keras_model=model)\n"
                 "estimator.train(input_fn=train_input_fn, steps=100)\n",
}


@pytest.mark.parametrize("name", sorted(LEARNING_PHASE))
def test_set_learning_phase_splice_is_libcsts(name):
    """TFM344 reports from `ast` on the splice path (rules/module_twins.REPORT_ONLY); it removes the call only in a
    program the Estimator converter made Keras, which LibCST's path converts."""
    _same(LEARNING_PHASE[name], f"{name}.py", Selection(source="tf1"))


def test_a_set_learning_phase_report_takes_the_splice_path():
    before = sum(table_only.SPLICED.values())
    result = rewrite_text(LEARNING_PHASE["alone"], "x.py", Selection(source="tf1"))
    assert sum(table_only.SPLICED.values()) == before + 1
    assert [d.code for d in result.diagnostics] == ["TFM344", "TFM601"]
