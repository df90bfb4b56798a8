"""A TF1 program written against `import tensorflow as tf` runs unchanged in legacy mode."""
import pytest

from programs import keras_mlp, tf1_mlp

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
    assert result.failed_side == "original" and result.exit_code == 3
    assert "placeholder" in result.original.error
