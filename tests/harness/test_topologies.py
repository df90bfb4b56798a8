"""mirrored:N and auto. MirroredStrategy is exact when the global batch divides by the replica count;
when it does not, Keras 2 silently changes the math, and verify must say so."""
import pytest

from harness_support import SEED_INIT
from harness_programs import keras_mlp, tf1_mlp, write

pytestmark = pytest.mark.slow

KERAS_MLP_OWN_STRATEGY = '''
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
X = rng.normal(size=(32, 4)).astype("float32")
Y = (X @ rng.normal(size=(4, 1)) + 0.1).astype("float32")

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.Adam(0.01, epsilon=1e-8), "mse")
model.fit(tf.data.Dataset.from_tensors((X, Y)).repeat(), epochs=1, steps_per_epoch=12, verbose=0)
print("replicas", strategy.num_replicas_in_sync)
'''


SHARDED_EMBEDDING = '''
import json
import os

import numpy as np
import tensorflow as tf

rng = np.random.RandomState(0)
ids = rng.randint(0, 200, size=(64, 1)).astype("int64")
y = rng.normal(size=(64, 1)).astype("float32")

cluster = json.loads(os.environ.get("TF_CONFIG", "{}")).get("cluster", {})
if "ps" in cluster:   # the embedding is cut in 2 shards on parameter servers
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        tf.distribute.cluster_resolver.TFConfigClusterResolver(),
        variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
elif len(cluster.get("worker", [])) > 1:
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
else:
    strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((1,), dtype="int64"),
                                 tf.keras.layers.Embedding(200, 8, embeddings_initializer="glorot_uniform"),
                                 tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
model.fit(tf.data.Dataset.from_tensor_slices((ids, y)).repeat().batch(8), epochs=1, steps_per_epoch=4, verbose=0)
'''


@pytest.mark.parametrize("cluster", ["local", "mirrored:2", "multi-worker:2", "ps:1,1"])
def test_a_program_verified_against_itself_is_equivalent_under_every_topology(verify, tmp_path, cluster):
    """Issue 18 point 4: under ps:1,1 the 2-shard glorot embedding (200 x 8) was DIVERGED against itself ("spreads
    differ (std 0.136 vs 0.0976)"): the aligned side's own value was redrawn on the whole shape, where
    ParameterServerStrategy draws each shard with its own fans."""
    program = write(tmp_path, "sharded_embedding.py", SHARDED_EMBEDDING)
    result = verify(program, program, cluster=cluster)
    assert result.verdict == "EQUIVALENT", result.reason
    shards = 2 if cluster.startswith("ps") else 1
    for side in (result.original, result.migrated):
        assert len(side.init_laws["embedding/embeddings"]["parts"]) == shards


def test_mirrored_with_a_divisible_batch_is_equivalent(verify, tmp_path):
    result = verify(tf1_mlp(tmp_path, 12), keras_mlp(tmp_path, 12), cluster="mirrored:2")
    assert result.facts.mode == "exact" and result.facts.cluster == "mirrored:2"
    assert result.verdict == "EQUIVALENT", result.reason
    assert len(result.migrated.losses) == 12


def test_mirrored_with_a_one_example_batch_diverges_at_step_1(seed_pair, verify):
    result = verify(*seed_pair, cluster="mirrored:2", init_values=SEED_INIT)
    # batch 1 on 2 replicas: one replica gets the example, Keras 2 sums per-replica losses scaled by 1/2
    assert result.verdict == "DIVERGED" and result.comparison.first_diverged_step == 1
    assert result.migrated.losses[0] == pytest.approx(result.original.losses[0] / 2, rel=1e-6)


def test_auto_picks_the_strategy_the_program_builds(verify, tmp_path):
    migrated = write(tmp_path, "own_strategy.py", KERAS_MLP_OWN_STRATEGY)
    result = verify(tf1_mlp(tmp_path, 12), migrated, cluster="auto")
    assert result.facts.cluster == "mirrored:2"
    assert result.verdict == "EQUIVALENT", result.reason


def test_statistical_mode_accepts_async_ps_training_inside_the_originals_spread(verify, tmp_path):
    result = verify(tf1_mlp(tmp_path, 30), keras_mlp(tmp_path, 30), cluster="ps:3,2")
    assert result.facts.mode == "statistical" and len(result.sides.original_runs) == 3
    assert result.verdict == "EQUIVALENT", result.reason
    assert result.comparison.details["steps"] == {"original_runs": [30, 30, 30], "migrated": 30}


def test_statistical_mode_catches_a_wrong_learning_rate(verify, tmp_path):
    wrong = keras_mlp(tmp_path, 30, name="slow.py")
    with open(wrong) as f:
        text = f.read().replace("Adam(0.01", "Adam(0.0005")
    with open(wrong, "w") as f:
        f.write(text)
    result = verify(tf1_mlp(tmp_path, 30), wrong, cluster="ps:3,2")
    assert result.verdict == "DIVERGED" and "final loss" in result.reason, result.reason


def test_multi_worker_two_processes_is_equivalent(verify, tmp_path):
    result = verify(tf1_mlp(tmp_path, 12), keras_mlp(tmp_path, 12), cluster="multi-worker:2")
    assert [t for t in result.migrated.pids] and len(result.migrated.pids) == 2   # one process per worker
    assert len(result.original.pids) == 1     # a TF1 Session program is the reference: it runs as written
    assert result.verdict == "EQUIVALENT", result.reason


def test_a_port_taken_before_its_server_starts_runs_the_pair_again(verify, tmp_path, monkeypatch):
    """portpicker's ports are free when picked, not reserved: another process can take one first. The run's
    processes share a network namespace of their own, so the only other processes there are the run's: here
    the first pick gives both workers the same port, one of them cannot start its server, and the pair runs
    again on new ports."""
    from tf2migrate.harness.running import plan

    real, calls = plan._ports, []

    def ports(n):
        calls.append(n)
        picked = real(n)
        return [picked[0]] * n if len(calls) == 1 else picked

    monkeypatch.setattr(plan, "_ports", ports)
    result = verify(tf1_mlp(tmp_path, 4), keras_mlp(tmp_path, 4), cluster="multi-worker:2")
    assert result.sides.retried_ports and len(calls) == 2
    assert result.verdict == "EQUIVALENT", result.reason
