"""A file where the Estimator converter reads the whole module but provably has nothing to do (no package, no
Estimator built, nothing trained: rules/module_twins.py) takes the splice path, with LibCST's output; any other
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
