"""numpy_input_fn / pandas_input_fn become tf.data pipelines of the same examples (rules/estimator/writing/numpy_input.py).

The runnable pair `fixtures/programs/est_numpy_input` proves the pipeline gives TF1's batches (EQUIVALENT in
CI); these cases pin down what converts and what stays, reported."""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_text

PROGRAM = '''import numpy as np
import tensorflow.compat.v1 as tf


def model_fn(features, labels, mode):
    logits = tf.layers.dense(features["x"], 1)
    loss = tf.losses.mean_squared_error(labels, logits)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


x = np.zeros((8, 2), np.float32)
y = np.zeros((8, 1), np.float32)
estimator = tf.estimator.Estimator(model_fn=model_fn)
train_input_fn = tf.estimator.inputs.numpy_input_fn({ARGS})
estimator.train(input_fn=train_input_fn, steps=4)
'''


def _rewrite(args: str):
    return rewrite_text(PROGRAM.replace("{ARGS}", args), "train.py")


def _function(code: str) -> str:
    """The generated function, joined on one line."""
    lines = code[code.index("def train_input_fn"):].split("\n")
    body = [lines[0]] + [line for line in lines[1:len(lines)] if line.startswith(" ")][:8]
    return "".join(line.strip() for line in body).replace("(.", ".").replace("return (", "return ")


@pytest.mark.parametrize("args, pipeline", [
    ('x={"x": x}, y=y, shuffle=False', '.from_tensor_slices(({"x": x}, y)).batch(128)'),
    ('{"x": x}, y, 4, None, True', '.from_tensor_slices(({"x": x}, y)).shuffle(1000).repeat().batch(4)'),
    ('x={"x": x}, y=y, batch_size=2, num_epochs=3, shuffle=True, queue_capacity=16',
     '.from_tensor_slices(({"x": x}, y)).shuffle(16).repeat(3).batch(2)'),
    ('x={"x": x}, y=y, num_epochs=FLAGS.epochs, shuffle=False', '.from_tensor_slices(({"x": x}, y)).repeat(FLAGS.epochs)'),
    ('x={"x": x}, shuffle=False', '.from_tensor_slices({"x": x}).batch(128)'),
])
def test_numpy_input_fn_becomes_the_same_pipeline(args, pipeline):
    result = _rewrite(args)
    function = _function(result.code)
    assert "numpy_input_fn" not in result.code
    assert pipeline in function, function
    assert "model.fit(train_input_fn(), steps_per_epoch=4)" in result.code
    compile(result.code, "train.py", "exec")
    assert rewrite_text(result.code, "train.py").code == result.code  # a second run changes nothing
    notes = [d.message for d in result.diagnostics if "numpy_input_fn(shuffle=" in d.message]
    assert len(notes) == 1 and d_line(result) == 15


def d_line(result) -> int:
    return next(d.line for d in result.diagnostics if "numpy_input_fn(shuffle=" in d.message)


@pytest.mark.parametrize("args", [
    'x={"x": x}, y=y, shuffle=shuffle_it',  # TF1 raised unless shuffle is a bool: which pipeline is unknown
    'x={"x": x}, y=y',  # no shuffle: TF1 raised
    '**kwargs',
])
def test_an_input_fn_whose_pipeline_is_unknown_stays_and_is_reported(args):
    result = _rewrite(args)
    assert "numpy_input_fn(" in result.code
    assert any(d.code == "TFM352" and d.line == 15 and not d.fixed for d in result.diagnostics)


def test_pandas_input_fn_reads_the_frame_as_a_dict_of_columns():
    source = PROGRAM.replace("{ARGS}", "x=frame, y=frame.pop('label'), shuffle=False").replace(
        "numpy_input_fn", "pandas_input_fn")
    result = rewrite_text(source, "train.py")
    assert ".from_tensor_slices((dict(frame), frame.pop('label'))).batch(128)" in _function(result.code)
