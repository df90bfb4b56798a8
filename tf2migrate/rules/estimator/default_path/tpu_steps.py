"""What the Keras Model subclass (model_subclass.py) writes for a program that trains under TPUStrategy in some branch.

TPUEstimator ran the model_fn once per TPU core: CrossShardOptimizer (MEAN, its default) divided the loss by the
number of shards before their gradients were summed, and `params["batch_size"]` in the model_fn was the batch of
one core (the input function had the whole batch of its host). Keras under TPUStrategy runs `train_step` per
replica and sums the replicas' gradients, and the converted program hands the model the input's params: the model
divides both by its strategy's replicas. Off the TPU (the `use_tpu` switch false) there is one replica and nothing
changes; the model class is the same for both branches of the switch.
"""
from __future__ import annotations

import re

import libcst as cst

from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.syntax import templates

SCALE = "# as CrossShardOptimizer did: the TPU replicas' gradients are summed (one replica off the TPU)"
PER_REPLICA = '''if "batch_size" in self.params:  # TPUEstimator gave the model_fn one core's batch
{i}replicas = {get}().num_replicas_in_sync
{i}self.params = dict(self.params, batch_size=self.params["batch_size"] // replicas)
'''
READS_BATCH = re.compile(r"""params\s*(\[|\.get\(|\.pop\()\s*['"]batch_size['"]""")


def on_tpu(w) -> bool:
    """The program trains under TPUStrategy here or in the other branch of its switch."""
    return w.kind is StrategyKind.TPU or w.prog.tpu_branch


def per_replica_batch(gp, w) -> list:
    """The statements after `self.params = params` that give the model one replica's batch size, when the model_fn
    reads `params["batch_size"]` and the program trains on a TPU."""
    if not (gp.uses_params and on_tpu(w) and READS_BATCH.search(cst.Module([]).code_for_node(gp.node))):
        return []
    return templates.statements(PER_REPLICA, w, get=w.tf("tf.distribute.get_strategy"))
