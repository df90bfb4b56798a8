"""Every rule, in the fixed order the traversal runs them, and the lookup by code.

Table rules come from `rules/*.toml`; code rules are one module each. `engine.toml` documents the
engine's own codes (TFM9xx), which no rule emits.
"""
from __future__ import annotations

import functools

from tf2migrate.rules.auto_shard import AutoShard
from tf2migrate.rules.call_for_each_replica import CallForEachReplica
from tf2migrate.rules.custom_loops.loss_scaling import LossScaling
from tf2migrate.rules.custom_loops.scope import OutsideScope
from tf2migrate.rules.dist_input.plugin import DistributedInput
from tf2migrate.rules.embedding_lookup import EmbeddingLookupStrategy
from tf2migrate.rules.estimator.plugin import EstimatorToKeras
from tf2migrate.rules.keras_target import KerasTarget
from tf2migrate.rules.make_dataset_iterator import MakeDatasetIterator
from tf2migrate.rules.reset_state import ResetState
from tf2migrate.rules.table_plugin import TablePlugin
from tf2migrate.rules.tables import load_tables

CODE_RULES = (
    MakeDatasetIterator, CallForEachReplica, AutoShard, ResetState, EmbeddingLookupStrategy,
    LossScaling, OutsideScope, DistributedInput, EstimatorToKeras, KerasTarget,
)


def plugins(ctx) -> list:
    """Code rules first (they rewrite whole calls), then the generic table transformer."""
    return [cls(ctx) for cls in CODE_RULES] + [TablePlugin(ctx, load_tables())]


@functools.lru_cache(maxsize=None)
def all_infos() -> dict:
    infos = {rule.info.code: rule.info for rule in load_tables().rules}
    for cls in CODE_RULES:
        for info in cls.infos:
            infos[info.code] = info
    return dict(sorted(infos.items()))
