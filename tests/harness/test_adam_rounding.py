"""Keras' Adam rounded as TF1's AdamOptimizer on the migrated side (harness/capture/adam_rounding.py): TF1's own
beta powers, and the side is told only when the original trains with TF1's Adam. The pair that shows it
(est_adam_large_loss: strict DIVERGED at step 2 before, 8 steps bitwise after) and its mutant are slow tests of
test_fixture_programs.py and test_mutants.py."""
import numpy as np

from tf2migrate.harness.capture.adam_rounding import TABLE_MAX, powers
from tf2migrate.harness.running.topology import source_facts


def test_the_powers_are_tf1s_running_float32_product():
    table = powers(0.999)
    p = np.float32(0.999)
    for t in range(len(table)):
        assert table[t] == p, t
        p = np.float32(p * np.float32(0.999))
    assert np.float32(1) - table[-1] == np.float32(1) and np.float32(1) - table[-2] != np.float32(1)
    # pow rounds otherwise: the reason for the table
    assert any(np.float32(0.999) ** np.float32(t + 1) != table[t] for t in range(200))
    assert len(powers(0.9)) < 200 and len(powers(0.99999)) == TABLE_MAX


def test_only_an_original_that_trains_with_tf1s_adam_asks_for_it():
    assert source_facts("opt = tf.compat.v1.train.AdamOptimizer(0.01)").tf1_adam
    assert not source_facts("opt = tf.keras.optimizers.Adam(0.01)").tf1_adam
    assert not source_facts("opt = tf.train.GradientDescentOptimizer(0.1)").tf1_adam
