"""Issue 9: what `verify` makes deterministic it still compares. Six single mistakes in a Keras migration
(Dense with glorot init, BatchNormalization(momentum=0.99), Dropout(0.3), shuffle(128)) that all used to be
EQUIVALENT, bitwise, are each DIVERGED with a cause naming what differs; the faithful copy stays EQUIVALENT."""
import pytest

from harness_programs import TF1_BN_DROPOUT, keras_bn_dropout, write

pytestmark = pytest.mark.slow


@pytest.fixture
def original(tmp_path):
    return write(tmp_path, "train_tf1.py", TF1_BN_DROPOUT)


def test_faithful_migration_is_equivalent_and_says_what_was_compared(verify, original, tmp_path):
    result = verify(original, keras_bn_dropout(tmp_path))
    assert result.verdict == "EQUIVALENT", result.reason
    assert result.max_abs_diff == 0.0 and len(result.migrated.losses) == 16
    scope = "\n".join(result.compared)
    for kind in ("steps: 16 original, 16 migrated", "initial values: 8 variables", "dropout: 1 in the original, 1",
                 "input order: real shuffles", "non-trainable state: 2 variables compared", "eval results"):
        assert kind in scope, scope


@pytest.mark.parametrize("old,new,cause", [
    ("Dropout(0.3)", "Dropout(0.5)", "dropout 1 differs: original rate 0.3 on [?, 16], migrated rate 0.5"),
    ("    tf.keras.layers.Dropout(0.3),\n", "", "dropouts differ: the original applies 1 (rate 0.3 on [?, 16]), "
                                             "the migrated 0"),
    ('kernel_initializer="glorot_uniform"', 'kernel_initializer="zeros"',
     "initial values differ: dense/kernel: original ~ glorot_uniform"),
    ('kernel_initializer="glorot_uniform"', "kernel_initializer=tf.keras.initializers.RandomNormal(stddev=1.0)",
     "initial values differ: dense/kernel: original ~ glorot_uniform"),
    ("momentum=0.99", "momentum=0.9", "non-trainable state differs after training: batch_normalization/moving_mean"),
    (".shuffle(128)", "", "the input shuffles differ: original shuffle(128"),
], ids=["dropout-rate", "dropout-removed", "init-zeros", "init-normal-1", "bn-momentum", "shuffle-removed"])
def test_single_mistake_is_diverged_with_its_cause(verify, original, tmp_path, old, new, cause):
    result = verify(original, keras_bn_dropout(tmp_path, old, new, name="wrong.py"))
    assert result.verdict == "DIVERGED", result.reason
    assert cause in result.reason, result.reason
    assert result.exit_code == 1
