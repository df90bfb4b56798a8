"""The words that wake each code rule, kept free of LibCST.

The pre-pass settles a file whose code holds none of these words (nor any table rule's) without
importing LibCST, which alone costs about 0.2 s: a pre-commit hook on a clean file must not pay it. Each
rule class names its entry here (`Plugin.wake`), so a rule and the pre-pass cannot disagree; a test checks
that every registered code rule has one.

Per rule: (attribute words, which count on any receiver; symbol words, which count only where they name
TensorFlow through the file's imports).
"""
from __future__ import annotations

import functools
import re

# A module must contain one of these to build or fetch a strategy, or to run a replica function.
STRATEGY_WORDS = frozenset({
    "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "TPUStrategy",
    "ParameterServerStrategy", "CentralStorageStrategy", "CollectiveAllReduceStrategy", "get_strategy",
    "experimental_run_v2", "call_for_each_replica",
})
REPLICA_CALLS = frozenset({"experimental_run_v2", "call_for_each_replica"})
DISTRIBUTED_INPUT = frozenset({"experimental_distribute_dataset", "distribute_datasets_from_function",
                               "experimental_distribute_datasets_from_function"})
ESTIMATORS = frozenset({"Estimator", "DNNRegressor", "DNNClassifier", "LinearRegressor", "LinearClassifier"})

WAKE = {
    "make_dataset_iterator": (frozenset({"make_dataset_iterator"}), frozenset()),
    "call_for_each_replica": (frozenset({"call_for_each_replica"}), frozenset()),
    "auto_shard": (frozenset({"auto_shard"}), frozenset()),
    "reset_state": (frozenset({"reset_states"}), frozenset()),
    "embedding_lookup": (frozenset(), frozenset({"embedding_lookup", "embedding_lookup_sparse"})),
    "loss_scaling": (REPLICA_CALLS, STRATEGY_WORDS),
    "outside_scope": (REPLICA_CALLS, STRATEGY_WORDS),
    "distributed_input": (DISTRIBUTED_INPUT, frozenset()),
    "estimator": (frozenset(), ESTIMATORS),
    "keras_target": (frozenset(), frozenset()),   # acts in leave_module, on files another rule changed
}


@functools.lru_cache(maxsize=None)
def all_words() -> tuple:
    """(attribute words, symbol words) of every rule, the tables' included."""
    from tf2migrate.rules.tables import load_tables

    tables = load_tables()
    attrs, symbols = tables.triggers(), tables.symbol_triggers()
    for a, s in WAKE.values():
        attrs |= a
        symbols |= s
    return frozenset(attrs), frozenset(symbols - attrs)


@functools.lru_cache(maxsize=None)
def trigger_pattern() -> "re.Pattern":
    """Words whose absence proves a file needs no LibCST parse at all: group 1 matches attribute words
    (any receiver), group 2 symbol words (they count only as TensorFlow names)."""
    attrs, symbols = all_words()

    def alternation(words) -> str:
        return "|".join(sorted(map(re.escape, words))) or "(?!)"

    return re.compile(r"\b(?:(%s)|(%s))\b" % (alternation(attrs), alternation(symbols)))
