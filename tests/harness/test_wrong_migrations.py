"""Deliberately wrong migrations must be caught: at the right step, or with the variables named."""
import pytest

from harness_support import SEED_INIT, SEED_LOSSES
from harness_programs import ONE_LAYER, keras_mlp, seed_migrated_variant, tf1_mlp

pytestmark = pytest.mark.slow


def test_wrong_learning_rate_diverges_at_step_2(seed_pair, verify, tmp_path):
    original, _ = seed_pair
    wrong = seed_migrated_variant(tmp_path, "learning_rate=0.05", "learning_rate=0.1", "wrong_lr.py")
    result = verify(original, wrong, init_values=SEED_INIT)
    # step 1's loss is computed before the first update, so a learning rate shows from step 2 on
    assert result.verdict == "DIVERGED"
    assert result.comparison.first_diverged_step == 2
    assert "step 2" in result.reason
    assert result.original.losses == SEED_LOSSES
    assert result.migrated.losses[0] == SEED_LOSSES[0] and result.migrated.losses[1] != SEED_LOSSES[1]
    assert result.exit_code == 1


def test_keras_adam_default_epsilon_drifts_from_tf1_adam_over_400_steps(verify, tmp_path):
    original = tf1_mlp(tmp_path, 400)
    migrated = keras_mlp(tmp_path, 400, epsilon=None)  # Keras default 1e-7, TF1 uses 1e-8
    result = verify(original, migrated)
    assert result.original.api == "v1"
    assert len(result.original.losses) == len(result.migrated.losses) == 400
    assert result.verdict == "DIVERGED", result.reason
    assert result.comparison.first_diverged_step > 1
    assert result.comparison.max_rel_diff > 1e-5


def test_missing_layer_is_incomparable_and_names_the_variables(verify, tmp_path):
    original = tf1_mlp(tmp_path, 5)
    migrated = keras_mlp(tmp_path, 5, layers=ONE_LAYER)
    result = verify(original, migrated)
    assert result.verdict == "INCOMPARABLE"
    for name in ("dense_1/kernel", "dense_1/bias"):
        assert name in result.reason
    assert "4 trainable variables in the original, 2 in the migrated" in result.reason
    assert result.exit_code == 1
