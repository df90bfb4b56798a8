"""TFM344: `tf.keras.backend.set_learning_phase` is never kept in silence (Keras 3 has none: AttributeError).

In a program the Estimator converter made into Keras runs (survey 27), fit/evaluate/predict set `training`
themselves: the call goes, with a note. Elsewhere it is reported. The rule's own example (a converted
model_to_estimator program) is tests/test_rule_examples.py's.
"""
from __future__ import annotations

from tf2migrate.engine.api import rewrite_text

CONVERTED = ("import tensorflow as tf\n\n\ndef main():\n    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])\n"
             "    model.compile(loss='mse', optimizer=tf.keras.optimizers.SGD(0.1))\n"
             "    tf.keras.backend.set_learning_phase(True)\n"
             "    estimator = tf.keras.estimator.model_to_estimator(keras_model=model)\n"
             "    estimator.train(input_fn=train_input_fn, steps=10)\n")


def _found(source: str):
    result = rewrite_text(source, "x.py")
    compile(result.code, "x.py", "exec")
    assert rewrite_text(result.code, "x.py").code == result.code
    return result.code, [(d.line, d.fixed) for d in result.diagnostics if d.code == "TFM344"]


def test_removed_with_a_note_in_a_converted_program_in_main():
    code, found = _found(CONVERTED)
    assert found == [(7, True)] and "set_learning_phase" not in code and "model.fit(" in code


def test_reported_where_no_program_was_converted():
    source = ("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n\nK.set_learning_phase(0)\n"
              "model = tf.keras.Sequential([tf.keras.layers.Dropout(0.5)])\nprint(model(tf.ones([2, 3])))\n")
    code, found = _found(source)
    assert found == [(4, False)] and code == source


def test_reported_when_one_call_is_not_a_statement_of_its_own():
    source = CONVERTED.replace("    tf.keras.backend.set_learning_phase(True)\n",
                               "    tf.keras.backend.set_learning_phase(True)\n"
                               "    phase = tf.keras.backend.set_learning_phase(1)\n")
    code, found = _found(source)
    assert found == [(7, False), (8, False)] and code.count("set_learning_phase") == 2


def test_alone_in_its_block_it_stays_reported():
    source = CONVERTED.replace("    tf.keras.backend.set_learning_phase(True)\n",
                               "    if True:\n        tf.keras.backend.set_learning_phase(True)\n")
    code, found = _found(source)
    assert found == [(8, False)] and "set_learning_phase" in code
