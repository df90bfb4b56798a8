"""A TF1 program written against `import tensorflow as tf` runs unchanged in legacy mode."""
import pytest

from harness_programs import keras_mlp, tf1_mlp

pytestmark = pytest.mark.slow


def test_tf1_style_adam_original_runs_in_legacy_mode_and_matches_keras(verify, tmp_path):
    original = tf1_mlp(tmp_path, 20)
    with open(original) as f:
        text = f.read()
    assert "import tensorflow as tf " in text and "tf.train.AdamOptimizer" in text
    result = verify(original, keras_mlp(tmp_path, 20, epsilon=1e-8))
    assert result.original.api == "v1"          # chosen automatically: tf.placeholder is TF1-only
    assert "session" in result.original.capture
    assert result.migrated.aligned == ["dense/kernel", "dense/bias", "dense_1/kernel", "dense_1/bias"]
    assert len(result.original.losses) == 20
    assert result.verdict == "EQUIVALENT", result.reason


def test_forcing_v2_api_on_a_tf1_program_fails_with_its_error(verify, tmp_path):
    result = verify(tf1_mlp(tmp_path, 3), keras_mlp(tmp_path, 3), original_api="v2")
    assert result.comparison.failed_side == "original" and result.exit_code == 3
    assert "placeholder" in result.original.error


def test_contrib_distribute_strategy_estimator_runs_unchanged(verify, tmp_path, seed_pair):
    from harness_support import SEED_INIT, SEED_LOSSES
    from harness_programs import TF1_CONTRIB_ESTIMATOR, write

    original = write(tmp_path, "contrib.py", TF1_CONTRIB_ESTIMATOR)
    result = verify(original, seed_pair[1], init_values=SEED_INIT)
    assert result.original.api == "v1"          # tf.contrib exists only in legacy mode
    assert result.original.losses == SEED_LOSSES  # loss reduced over replicas by the Estimator, captured
    assert result.verdict == "EQUIVALENT", result.reason


def test_legacy_aliases_point_at_the_successors():
    import subprocess

    from harness_support import PYTHON

    code = ("from tf2migrate.harness.capture import legacy; tf = legacy.enable(); import tensorflow as t; "
            "assert t is tf and t.contrib.distribute.MirroredStrategy is tf.distribute.MirroredStrategy; "
            "from tensorflow.python.distribute import distribute_lib as d; "
            "assert d.StrategyV1.experimental_run_v2 is d.StrategyV1.run; "
            "assert tf.contrib.distribute.CollectiveAllReduceStrategy is "
            "tf.distribute.experimental.MultiWorkerMirroredStrategy; "
            "assert tf.contrib.data.AUTOTUNE == tf.data.experimental.AUTOTUNE; "
            "from tensorflow.contrib import tpu; "
            "assert tpu.TPUEstimator is tf.compat.v1.estimator.tpu.TPUEstimator; "
            "assert tpu.CrossShardOptimizer is tf.compat.v1.tpu.CrossShardOptimizer; "
            "assert tf.contrib.tpu.RunConfig is tf.compat.v1.estimator.tpu.RunConfig")
    subprocess.run([PYTHON, "-c", code], check=True, capture_output=True)
    # TF 2.0-2.3 originals stay eager and get the same successors
    eager = ("from tf2migrate.harness.capture import legacy; legacy.add_aliases(); import tensorflow as tf; "
             "s = tf.distribute.MirroredStrategy(['/cpu:0']); assert tf.executing_eagerly(); "
             "v = s.experimental_run_v2(lambda: tf.constant(2.0)); "
             "assert float(s.reduce(tf.distribute.ReduceOp.SUM, v)) == 2.0")
    subprocess.run([PYTHON, "-c", eager], check=True, capture_output=True)
