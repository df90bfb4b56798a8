"""The words that wake each code rule, kept free of LibCST.

The pre-pass settles a file whose code holds none of these words (nor any table rule's) without
importing LibCST, which alone costs about 0.2 s: a pre-commit hook on a clean file must not pay it. Each
rule class names its entry here (`Plugin.wake`), so a rule and the pre-pass cannot disagree; a test checks
that every registered code rule has one.

Per rule: (attribute words, which count on any receiver; symbol words, which count only where they name
TensorFlow through the file's imports). A symbol written as a dotted name (`tf.strings.split`) wakes only
as that name, spelled so: `split` then needs `tf.strings.split`, not `tf.split`, `ops.split` nor (unless
listed too) `tf.compat.v1.strings.split` (see `exact_symbols`), so a common last word does not send every TF
file to LibCST.
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

def _and_v1(names) -> frozenset:
    """The names, also spelled through `tensorflow.compat.v1` (for the upgrades that act there too)."""
    names = frozenset(names)
    return names | {"tf.compat.v1." + name[3:] for name in names}


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
    # the TF1 -> TF2 call upgrades wake only as the exact names they claim (see `exact_symbols`)
    "dropout": (frozenset(), _and_v1({"tf.nn.dropout"})),
    "casts": (frozenset(), _and_v1("tf." + n for n in ("to_bfloat16", "to_complex128", "to_complex64", "to_double",
                                                        "to_float", "to_int32", "to_int64"))),
    "image_resize": (frozenset(), _and_v1("tf.image." + n for n in ("resize_area", "resize_bicubic", "resize_bilinear",
                                                                     "resize_nearest_neighbor"))),
    "softmax_labels": (frozenset(), frozenset({"tf.nn.softmax_cross_entropy_with_logits"})),
    "initializers": (frozenset(), frozenset({p + n for p in ("tf.contrib.layers.", "tf.contrib.slim.") for n in (
        "xavier_initializer", "xavier_initializer_conv2d", "variance_scaling_initializer")}) | _and_v1({
        "tf.uniform_unit_scaling_initializer", "tf.initializers.uniform_unit_scaling"})),
    "regularizers": (frozenset(), frozenset(p + n for p in ("tf.contrib.layers.", "tf.contrib.slim.")
                                            for n in ("l1_regularizer", "l2_regularizer"))),
    "iterators": (frozenset({"make_one_shot_iterator", "make_initializable_iterator"}), frozenset()),
    "strings_split": (frozenset(), frozenset({"tf.strings.split"})),
    "name_scope": (frozenset(), frozenset({"tf.name_scope"})),
    "pool_seed": (frozenset(), frozenset({"tf.nn.fractional_max_pool", "tf.nn.fractional_avg_pool"})),
    "extract_glimpse": (frozenset(), frozenset({"tf.image.extract_glimpse"})),
    "morphology": (frozenset(), frozenset({"tf.nn.dilation2d", "tf.nn.erosion2d"})),
    "save_format": (frozenset(), frozenset({"tf.keras.models.save_model"})),
    "gone_arguments": (frozenset(), frozenset({"tf.zeros_like", "tf.ones_like", "tf.while_loop",
                                               "tf.nn.ctc_beam_search_decoder"})),
}


@functools.lru_cache(maxsize=None)
def all_words() -> tuple:
    """(attribute words, symbol words) of every rule, the tables' included."""
    from tf2migrate.rules.tables import load_tables

    tables = load_tables()
    attrs, symbols = tables.triggers(), tables.symbol_triggers()
    for a, s in WAKE.values():
        attrs |= a
        symbols |= {_word(name) for name in s}
    return frozenset(attrs), frozenset(symbols - attrs)


def _word(name: str) -> str:
    return name.rsplit(".", 1)[-1]


@functools.lru_cache(maxsize=None)
def exact_symbols() -> dict:
    """word -> the names it wakes as (spelled as the file spells them, `tf.compat.v1.X` through compat.v1),
    for the symbol words that only dotted WAKE entries declare; a word that a table or another rule takes as
    any TF name is left out (it wakes as before)."""
    from tf2migrate.rules.tables import load_tables

    loose = load_tables().symbol_triggers() | {n for _, s in WAKE.values() for n in s if "." not in n}
    exact: dict = {}
    for _, s in WAKE.values():
        for name in s:
            if "." in name and _word(name) not in loose:
                exact.setdefault(_word(name), set()).add(name)
    return {word: sorted(names) for word, names in sorted(exact.items())}


@functools.lru_cache(maxsize=None)
def trigger_pattern() -> "re.Pattern":
    """Words whose absence proves a file needs no LibCST parse at all: group 1 matches attribute words
    (any receiver), group 2 symbol words (they count only as TensorFlow names)."""
    attrs, symbols = all_words()

    def alternation(words) -> str:
        return "|".join(sorted(map(re.escape, words))) or "(?!)"

    return re.compile(r"\b(?:(%s)|(%s))\b" % (alternation(attrs), alternation(symbols)))
