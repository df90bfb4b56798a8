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
from tf2migrate.rules.unconverted.contrib_imports import ContribImports
from tf2migrate.rules.unconverted.plugin import Unconverted
from tf2migrate.rules.tables import load_tables
from tf2migrate.rules.upgrade.casts import Casts
from tf2migrate.rules.upgrade.device_function import DeviceFunction
from tf2migrate.rules.upgrade.dropout import Dropout
from tf2migrate.rules.upgrade.extract_glimpse import ExtractGlimpse
from tf2migrate.rules.upgrade.gone_arguments import GoneArguments
from tf2migrate.rules.upgrade.graph_mode import GraphMode
from tf2migrate.rules.upgrade.image_resize import ImageResize
from tf2migrate.rules.upgrade.initializers import Initializers
from tf2migrate.rules.upgrade.loss_reduction import LossReduction
from tf2migrate.rules.upgrade.iterators import DatasetIterators
from tf2migrate.rules.upgrade.learning_phase import LearningPhase
from tf2migrate.rules.upgrade.morphology import Morphology
from tf2migrate.rules.upgrade.name_scope import NameScope
from tf2migrate.rules.upgrade.pool_seed import PoolSeed
from tf2migrate.rules.upgrade.regularizers import Regularizers
from tf2migrate.rules.upgrade.save_format import SaveFormat
from tf2migrate.rules.upgrade.shape_value import ShapeValue
from tf2migrate.rules.upgrade.softmax_labels import SoftmaxLabels
from tf2migrate.rules.upgrade.strings_split import StringsSplit

CODE_RULES = (
    MakeDatasetIterator, CallForEachReplica, AutoShard, ResetState, EmbeddingLookupStrategy,
    LossScaling, OutsideScope, DistributedInput, EstimatorToKeras,
    Dropout, Casts, ImageResize, SoftmaxLabels, Initializers, Regularizers, DatasetIterators, StringsSplit,
    NameScope, GoneArguments, PoolSeed, ExtractGlimpse, Morphology, SaveFormat,
    DeviceFunction, ShapeValue, GraphMode,
    LossReduction,  # keeps its edit only where the Estimator converter left the call: after it
    Unconverted,  # reads what the Estimator converter left, so it runs after it
    LearningPhase,  # removes the call only where the Estimator converter made the program Keras: after it
    ContribImports,  # reads what every rule above left of the tf.contrib imports
    KerasTarget,  # last: switches Keras for a file the rules above changed
)
CLAIMED = frozenset(name for cls in CODE_RULES for name in cls.claims)


def plugins(ctx) -> list:
    """Code rules first (they rewrite whole calls), then the generic table transformer."""
    return [cls(ctx) for cls in CODE_RULES] + [TablePlugin(ctx, load_tables(), CLAIMED)]


def fast_plugins(ctx) -> list:
    """The rules that report from the `ast` tree alone (`Plugin.report_from_ast`), for a file where no other
    rule has work (the pre-pass proved it)."""
    return [cls(ctx) for cls in CODE_RULES if cls.fast or "report_from_ast" in vars(cls)]


@functools.lru_cache(maxsize=None)
def all_infos() -> dict:
    infos = {rule.info.code: rule.info for rule in load_tables().rules}
    for cls in CODE_RULES:
        for info in cls.infos:
            infos[info.code] = info
    return dict(sorted(infos.items()))
