"""Every code rule, once, in the order the traversal runs it: the one place a structural rule is declared.

A line says where the rule's class is, which codes it reports, the names that wake it, how much of a module
it reads, whether Python's `ast` answers it, and when it may act. The pre-pass's wake words
(`wake_words.py`), the traversal's rule list (`registry.py`) and the idle checks are derived from it, and
it stays free of LibCST and of the rule modules: a pre-commit run on a clean file reads it without
importing either (`tests/test_speed_paths.py`). Adding a structural rule is its module plus one line here;
`tests/test_manifest.py` checks each line against its class (codes, claims, opt-ins) and that the words
wake every place the rule acts on (its examples and fixtures, with and without the wake-word filter).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from tf2migrate.rules.upgrade.graph_only import GRAPH_ONLY  # the rule's own list, free of LibCST
from tf2migrate.rules.unconverted.names import WORDS as UNCONVERTED  # likewise


class Reads(enum.Enum):
    """How much of a module the rule reads (engine/reduce.py and engine/skip.py leave the rest out)."""
    STATEMENTS = "the statements that hold its words"
    MODULE = "the whole module where `reads_whole_module()` says so"
    EVERY_STATEMENT = "the whole module, entering every statement, where its methods say so"


class Ast(enum.Enum):
    """Whether Python's `ast` tree answers the rule in a file only its words wake (no LibCST)."""
    NO = "needs LibCST's traversal"
    ANSWERS = "reads only `ctx.tree` and reports, in `leave_module`"  # `wake_words.FAST`
    REPORTS = "reports from `ast` in `report_from_ast`, acts in the traversal"


class Acts(enum.Enum):
    """When the rule may act in a file its words wake (rules/idle.py)."""
    ON_WORD = "wherever a word wakes it"
    ON_RUN_CALL = "only where a strategy's `run` is called (`idle.RUN_CALL`)"  # `wake_words.RUN_RULES`
    ON_ESTIMATOR = "only where an Estimator is built or trained (`idle.estimator_may_act`)"
    ON_CHANGED = "only on a file another rule changed"
    ON_IMPORT = "only on a file that imports what its words name (`RuleSet.acts_on_imports`)"


@dataclass(frozen=True)
class Rule:
    """One code rule. `names`: canonical TF names, each wakes as written (`tf.strings.split`, not `tf.split`);
    `words`: last words of TF names, any TF name ending in one wakes; `attrs`: attribute words on any receiver;
    `v1`: the names wake spelled `tf.compat.v1.X` too (`import tensorflow.compat.v1 as tf` reaches `tf.contrib` too); `shared`: its words are
    the Estimator converter's too, and count as code words where that may act (`wake_words.SHARED`)."""
    name: str
    where: str  # "module:Class" under tf2migrate.rules
    codes: str  # the codes its `infos` declare, space-separated
    names: frozenset = frozenset()
    words: frozenset = frozenset()
    attrs: frozenset = frozenset()
    v1: bool = False
    reads: Reads = Reads.STATEMENTS
    ast: Ast = Ast.NO
    acts: Acts = Acts.ON_WORD
    shared: bool = False

    @property
    def wake_names(self) -> frozenset:
        """`names`, with their `tf.compat.v1` spellings where `v1`."""
        v1 = {"tf.compat.v1." + n[3:] for n in self.names} if self.v1 else set()
        return self.names | v1


def _names(*names) -> frozenset:
    return frozenset(names)


_SLIM = ("tf.contrib.layers.", "tf.contrib.slim.")
REPLICA_CALLS = frozenset({"experimental_run_v2", "call_for_each_replica"})
# a module must contain one of these to build or fetch a strategy, or to run a replica function
STRATEGY_WORDS = frozenset({
    "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "TPUStrategy",
    "ParameterServerStrategy", "CentralStorageStrategy", "CollectiveAllReduceStrategy", "get_strategy",
}) | REPLICA_CALLS
DISTRIBUTED_INPUT = frozenset({"experimental_distribute_dataset", "distribute_datasets_from_function",
                               "experimental_distribute_datasets_from_function"})
ESTIMATORS = frozenset({"Estimator", "DNNRegressor", "DNNClassifier", "LinearRegressor", "LinearClassifier",
                        "TPUEstimator"})
CANNED = frozenset({"DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor",
                    "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor", "BaselineClassifier",
                    "BaselineRegressor"})
# The Estimator converter's codes, in the order of its `codes.INFOS`, which writes them again: this module imports
# no rule module (the docstring says why), so tests/test_manifest.py checks that the two agree, code by code.
_E = "TFM301 TFM302 TFM303 TFM304 TFM305 TFM306 TFM307 TFM308 TFM309 TFM310 TFM311 TFM312 TFM313 TFM314 TFM315 " \
     "TFM316 TFM317 TFM319 TFM318 TFM320 TFM321 TFM336 TFM333 TFM335 TFM323 TFM324 TFM325 TFM327 TFM326 TFM330 " \
     "TFM331 TFM322 TFM348 TFM349 TFM345 TFM353 TFM354"

RULES = (
    Rule("make_dataset_iterator", "make_dataset_iterator:MakeDatasetIterator", "TFM108",
         attrs=_names("make_dataset_iterator")),
    Rule("call_for_each_replica", "call_for_each_replica:CallForEachReplica", "TFM109",
         attrs=_names("call_for_each_replica")),
    Rule("auto_shard", "auto_shard:AutoShard", "TFM112", attrs=_names("auto_shard")),
    Rule("reset_state", "reset_state:ResetState", "TFM113", attrs=_names("reset_states")),
    Rule("embedding_lookup", "embedding_lookup:EmbeddingLookupStrategy", "TFM205 TFM206",
         words=_names("embedding_lookup", "embedding_lookup_sparse")),
    Rule("loss_scaling", "custom_loops.loss_scaling:LossScaling", "TFM401 TFM402 TFM403", words=STRATEGY_WORDS,
         attrs=REPLICA_CALLS, reads=Reads.EVERY_STATEMENT, acts=Acts.ON_RUN_CALL),
    Rule("outside_scope", "custom_loops.scope:OutsideScope", "TFM404", words=STRATEGY_WORDS, attrs=REPLICA_CALLS,
         reads=Reads.EVERY_STATEMENT, acts=Acts.ON_RUN_CALL),
    Rule("distributed_input", "dist_input.plugin:DistributedInput", "TFM501 TFM502 TFM503 TFM504 TFM505 TFM506",
         attrs=DISTRIBUTED_INPUT, reads=Reads.MODULE),
    Rule("estimator", "estimator.plugin:EstimatorToKeras", _E, words=ESTIMATORS, reads=Reads.MODULE,
         acts=Acts.ON_ESTIMATOR),
    # the TF1 -> TF2 call upgrades: each wakes only as the names it claims, spelled so
    Rule("dropout", "upgrade.dropout:Dropout", "TFM651 TFM650", names=_names("tf.nn.dropout"), v1=True),
    Rule("casts", "upgrade.casts:Casts", "TFM652", v1=True, names=frozenset("tf." + n for n in (
        "to_bfloat16", "to_complex128", "to_complex64", "to_double", "to_float", "to_int32", "to_int64"))),
    Rule("image_resize", "upgrade.image_resize:ImageResize", "TFM653", v1=True, names=frozenset(
        "tf.image." + n for n in ("resize_area", "resize_bicubic", "resize_bilinear", "resize_nearest_neighbor"))),
    Rule("softmax_labels", "upgrade.softmax_labels:SoftmaxLabels", "TFM654 TFM650",
         names=_names("tf.nn.softmax_cross_entropy_with_logits")),
    Rule("initializers", "upgrade.initializers:Initializers", "TFM655", v1=True, names=frozenset(
        p + n for p in _SLIM for n in ("xavier_initializer", "xavier_initializer_conv2d",
                                       "variance_scaling_initializer"))
         | _names("tf.uniform_unit_scaling_initializer", "tf.initializers.uniform_unit_scaling")),
    Rule("regularizers", "upgrade.regularizers:Regularizers", "TFM656", v1=True,
         names=frozenset(p + n for p in _SLIM for n in ("l1_regularizer", "l2_regularizer"))),
    Rule("iterators", "upgrade.iterators:DatasetIterators", "TFM657",
         attrs=_names("make_one_shot_iterator", "make_initializable_iterator")),
    Rule("strings_split", "upgrade.strings_split:StringsSplit", "TFM659 TFM650", names=_names("tf.strings.split")),
    Rule("name_scope", "upgrade.name_scope:NameScope", "TFM660", names=_names("tf.name_scope")),
    Rule("gone_arguments", "upgrade.gone_arguments:GoneArguments", "TFM658 TFM650", names=_names(
        "tf.zeros_like", "tf.ones_like", "tf.while_loop", "tf.nn.ctc_beam_search_decoder")),
    Rule("pool_seed", "upgrade.pool_seed:PoolSeed", "TFM661",
         names=_names("tf.nn.fractional_max_pool", "tf.nn.fractional_avg_pool")),
    Rule("extract_glimpse", "upgrade.extract_glimpse:ExtractGlimpse", "TFM662",
         names=_names("tf.image.extract_glimpse")),
    Rule("morphology", "upgrade.morphology:Morphology", "TFM663 TFM650",
         names=_names("tf.nn.dilation2d", "tf.nn.erosion2d")),
    Rule("save_format", "upgrade.save_format:SaveFormat", "TFM664", names=_names("tf.keras.models.save_model"),
         v1=True),  # TFM664 acts on both spellings
    Rule("summary_record", "upgrade.summary_record:SummaryRecording", "TFM615", v1=True, names=_names(
        "tf.contrib.summary.always_record_summaries", "tf.contrib.summary.never_record_summaries")),
    Rule("device_function", "upgrade.device_function:DeviceFunction", "TFM665", names=_names("tf.device")),
    Rule("shape_value", "upgrade.shape_value:ShapeValue", "TFM667", attrs=_names("value"),  # `x.shape[-1].value`
         ast=Ast.REPORTS),
    Rule("graph_mode", "upgrade.graph_mode:GraphMode", "TFM668", names=GRAPH_ONLY, v1=True, ast=Ast.ANSWERS),
    Rule("rebound", "upgrade.rebound:Rebound", "TFM616", ast=Ast.ANSWERS),  # woken by process.precheck's rebinding check
    # keeps its edit only where the Estimator converter left the call: after it
    Rule("loss_reduction", "upgrade.loss_reduction:LossReduction", "TFM666 TFM650", words=CANNED),
    # reads what the Estimator converter left, so it runs after it
    Rule("unconverted", "unconverted.plugin:Unconverted", "TFM350 TFM351 TFM352 TFM340 TFM341", words=UNCONVERTED,
         ast=Ast.ANSWERS, shared=True),
    # removes the call only where the Estimator converter made the program Keras: after it
    Rule("learning_phase", "upgrade.learning_phase:LearningPhase", "TFM344", words=_names("set_learning_phase")),
    # reads what every rule above left of the tf.contrib imports
    Rule("contrib_imports", "unconverted.contrib_imports:ContribImports", "TFM343", words=_names("contrib"),
         reads=Reads.MODULE, acts=Acts.ON_IMPORT),
    # last: switches Keras for a file the rules above changed
    Rule("keras_target", "keras_target:KerasTarget", "", reads=Reads.MODULE, acts=Acts.ON_CHANGED),
)
BY_NAME = {rule.name: rule for rule in RULES}
