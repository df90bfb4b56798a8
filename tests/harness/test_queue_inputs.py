"""Queue-based TF1 input (G7): `numpy_input_fn(shuffle=True)` is made deterministic and compared like
`Dataset.shuffle`; the queue shuffles a program builds itself are named as uncontrolled input order."""
from types import SimpleNamespace

from harness_programs import write

ESTIMATOR = '''
import numpy as np
import tensorflow.compat.v1 as tf1

x = {{"x": np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(32, 2)}}
y = (x["x"].sum(axis=1) > 0).astype(np.int64)


def model_fn(features, labels, mode):
    logits = tf1.layers.dense(features["x"] if isinstance(features, dict) else features, 2)
    loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf1.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=tf1.train.get_global_step())
    return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


{input_fn}
tf1.estimator.Estimator(model_fn).train(input_fn, steps=6)
'''
NUMPY = "input_fn = tf1.estimator.inputs.numpy_input_fn(x, y, batch_size=4, num_epochs=None, shuffle={shuffle})"
SHUFFLE_BATCH = '''def input_fn():
    example, label = tf1.train.slice_input_producer([x["x"], y], shuffle=False)
    return tf1.train.shuffle_batch([example, label], batch_size=4, capacity=32, min_after_dequeue=8)'''


def test_numpy_input_fn_shuffle_is_seeded_alike_on_both_sides(verify, tmp_path):
    # the queue's order depended on its feeding thread: the original alone differed from run to run
    program = write(tmp_path, "numpy_fn.py", ESTIMATOR.format(input_fn=NUMPY.format(shuffle=True)))
    result = verify(program, program)
    assert result.verdict == "EQUIVALENT" and result.comparison.max_abs_diff == 0.0, result.reason
    assert len(result.original.losses) == 6
    assert result.original.pipeline[0].startswith("shuffle(1000) [numpy_input_fn(shuffle=True) as tf.data, seeded]")


def test_numpy_input_fn_shuffle_is_compared(verify, tmp_path):
    # still a real shuffle: a migration that drops it trains on another order, and the shuffles are named
    shuffled = write(tmp_path, "shuffled.py", ESTIMATOR.format(input_fn=NUMPY.format(shuffle=True)))
    in_order = write(tmp_path, "in_order.py", ESTIMATOR.format(input_fn=NUMPY.format(shuffle=False)))
    result = verify(shuffled, in_order)
    assert result.verdict == "DIVERGED", result.reason
    assert "the input shuffles differ: original shuffle(1000) [numpy_input_fn" in result.reason


def test_a_queue_shuffle_of_the_program_is_named_uncontrolled(verify, tmp_path):
    program = write(tmp_path, "shuffle_batch.py", ESTIMATOR.format(input_fn=SHUFFLE_BATCH))
    result = verify(program, program)
    assert "uncontrolled: shuffle_batch" in result.original.pipeline
    # the fact, typed, across the process boundary: each queue shuffle the pipeline names (shuffle_batch's own queue too)
    assert result.original.uncontrolled == [p.split(": ", 1)[1] for p in result.original.pipeline
                                            if p.startswith("uncontrolled: ")] != []
    assert any(line.startswith("input order: NOT controlled") and "original shuffle_batch" in line
               for line in result.comparison.compared), result.comparison.compared


def test_a_divergence_with_uncontrolled_input_order_says_so():
    from tf2migrate.harness.compare.checks import check_pipeline

    side = SimpleNamespace(pipeline=["uncontrolled: shuffle_batch", "batch(4, drop_remainder=False)"],
                           uncontrolled=["shuffle_batch"])
    scope, hint = check_pipeline(side, SimpleNamespace(pipeline=[], uncontrolled=[]))
    assert scope.startswith("input order: NOT controlled (queue shuffles")
    assert hint.startswith("the input order is not controlled (original shuffle_batch: a queue shuffle)")
    seeded = SimpleNamespace(pipeline=["shuffle(8, seed=None, reshuffle_each_iteration=None)"], uncontrolled=[])
    assert check_pipeline(seeded, seeded) == (
        "input order: real shuffles, seeded alike on both sides; pipelines: original shuffle(8, seed=None, "
        "reshuffle_each_iteration=None); migrated shuffle(8, seed=None, reshuffle_each_iteration=None)", "")
