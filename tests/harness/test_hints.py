"""The words a DIVERGED verdict adds when the shape of the divergence names its cause."""
from tf2migrate.harness.compare.hints import divergence_hint, replicas_of


def test_replica_count_of_a_cluster():
    assert replicas_of("mirrored:2") == 2
    assert replicas_of("multi-worker:3") == 3
    assert replicas_of("local") == 1
    assert replicas_of("ps:2,1") == 1


def test_loss_scaled_per_replica_is_named():
    hint = divergence_hint([1.0329871773719788, 1.7], [0.5164935886859894, 0.8], 1, "mirrored:2")
    assert "the original program averages its loss over the per-replica batch" in hint
    assert "TFM401" in hint


def test_the_other_direction_is_named_too():
    assert "the migrated program averages" in divergence_hint([0.25, 1.0], [0.5, 1.0], 1, "mirrored:2")


def test_no_hint_without_the_exact_factor_or_replicas():
    assert divergence_hint([1.0, 2.0], [0.6, 1.0], 1, "mirrored:2") == ""  # not a factor of 2
    assert divergence_hint([1.0, 2.0], [0.5, 1.0], 1, "local") == ""  # one replica
    assert divergence_hint([1.0, 2.0], [1.0, 1.0], 2, "mirrored:2") == ""  # step 1 agreed
