"""Loss capture beyond Estimator and fit: custom GradientTape loops, Keras originals, and --steps
stopping Session loops, fit and Estimators cleanly."""
import pytest

from harness_support import SEED_INIT, SEED_LOSSES
from harness_programs import keras_mlp, tf1_mlp, write

pytestmark = pytest.mark.slow

TAPE_LOOP = '''
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X = rng.normal(size=(32, 4)).astype("float32")
Y = (X @ rng.normal(size=(4, 1)) + 0.1).astype("float32")

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(0.01, epsilon=1e-8)
mse = tf.keras.losses.MeanSquaredError()


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = mse(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for step in range({steps}):
    train_step(X, Y)
'''


def test_gradient_tape_loop_against_tf1_session_loop(verify, tmp_path):
    result = verify(tf1_mlp(tmp_path, 12), write(tmp_path, "tape.py", TAPE_LOOP.format(steps=12)))
    assert result.original.capture == ["session"] and result.migrated.capture == ["tape"]
    assert len(result.migrated.losses) == 12
    assert result.verdict == "EQUIVALENT", result.reason


def test_keras_original_against_custom_loop(verify, tmp_path):
    result = verify(keras_mlp(tmp_path, 12), write(tmp_path, "tape.py", TAPE_LOOP.format(steps=12)))
    assert result.original.capture == ["keras"]
    assert len(result.migrated.aligned) == 4
    assert result.verdict == "EQUIVALENT", result.reason


def test_steps_caps_session_loops_and_fit(verify, tmp_path):
    result = verify(tf1_mlp(tmp_path, 400), keras_mlp(tmp_path, 400), steps=5)
    assert len(result.original.losses) == len(result.migrated.losses) == 5
    assert result.verdict == "EQUIVALENT", result.reason


def test_steps_caps_an_estimator(seed_pair, verify):
    result = verify(*seed_pair, steps=2, init_values=SEED_INIT)
    assert result.original.losses == SEED_LOSSES[:2] == result.migrated.losses
    assert result.verdict == "EQUIVALENT"


def test_canned_estimator_against_keras(verify, tmp_path):
    from harness_programs import CANNED_LINEAR, KERAS_LINEAR_SUM

    original = write(tmp_path, "canned.py", CANNED_LINEAR)
    keras = write(tmp_path, "keras_sum.py", KERAS_LINEAR_SUM.format(reduction="sum", initializer="zeros"))
    result = verify(original, keras)
    assert result.original.capture == ["estimator"] and len(result.original.losses) == 6
    assert "names differ, matched by creation order and shape" in result.comparison.alignment
    assert result.verdict == "EQUIVALENT", result.reason
    # the usual slip: Keras' default mean over the batch halves every loss of a batch of 2
    mean = verify(original, write(tmp_path, "keras_mean.py", KERAS_LINEAR_SUM.format(reduction="sum_over_batch_size",
                                                                                     initializer="zeros")))
    assert mean.verdict == "DIVERGED" and mean.comparison.first_diverged_step == 1
    # and Keras' default glorot kernel: the aligned losses agree, the initial values do not
    glorot = verify(original, write(tmp_path, "keras_glorot.py", KERAS_LINEAR_SUM.format(reduction="sum",
                                                                                        initializer="glorot_uniform")))
    assert glorot.verdict == "DIVERGED" and glorot.comparison.first_diverged_step is None
    assert "initial values differ: linear/linear_model/weights (migrated " in glorot.reason
    assert "dense/kernel): original all zeros; migrated ~ glorot_uniform, mean" in glorot.reason


def test_shuffle_and_dropout_stay_active_and_agree_on_both_sides(verify, tmp_path):
    from harness_programs import KERAS_SHUFFLE_DROPOUT, TF1_SHUFFLE_DROPOUT

    # graph-mode and eager shuffles and dropout masks never agree by themselves; seeded alike, they do
    result = verify(write(tmp_path, "tf1.py", TF1_SHUFFLE_DROPOUT), write(tmp_path, "tf2.py", KERAS_SHUFFLE_DROPOUT))
    assert len(result.original.losses) == 4
    assert any("dropout active" in n for n in result.original.notes)
    assert result.original.dropouts == result.migrated.dropouts == [{"rate": 0.5, "input": [4], "noise_shape": None}]
    assert result.verdict == "EQUIVALENT", result.reason
    # two replicas of one example each: every replica takes its rows of the global batch's mask
    mirrored = verify(write(tmp_path, "tf1.py", TF1_SHUFFLE_DROPOUT), write(tmp_path, "tf2.py", KERAS_SHUFFLE_DROPOUT),
                      cluster="mirrored:2")
    assert mirrored.verdict == "EQUIVALENT" and mirrored.comparison.max_abs_diff == 0.0, mirrored.reason


def test_custom_loop_under_parameter_server_strategy(verify, tmp_path):
    from harness_programs import PSS_CUSTOM_LOOP

    # the program builds its own PSS + ClusterCoordinator; the harness provides the servers and TF_CONFIG
    result = verify(tf1_mlp(tmp_path, 12), write(tmp_path, "pss.py", PSS_CUSTOM_LOOP.format(steps=12)),
                    cluster="ps:1,1")
    assert result.migrated.capture == ["tape"] and len(result.migrated.losses) == 12
    assert len(result.migrated.aligned) == 4
    assert result.verdict == "EQUIVALENT", result.reason
