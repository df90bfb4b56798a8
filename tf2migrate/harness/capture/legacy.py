"""TF1 legacy mode: run a real TF1 script (`import tensorflow as tf`; `tf.train.AdamOptimizer`) unchanged.

`tensorflow` resolves to `tensorflow.compat.v1` with v2 behaviour disabled, and the few names removed after
TF 1.x that have a direct successor are provided as aliases of that successor (api-mapping.md section 2).
`choose_api` decides `--original-api auto`: legacy mode is used for a program the rewrite reads as TF1
(`engine/tf_version.py`), or that names something that exists under `tf.compat.v1` but not in TF2 (it would
fail without it); an ambiguous program runs with TF2 behaviour and the report says so.
"""
import ast
import sys
import types

API_NOTE = "original API"                   # how the note on `--original-api auto`'s choice opens
AMBIGUOUS = f"{API_NOTE} ambiguous, ran with "   # ... when its source could be TF 1.x or TF2

_TF2_ONLY_OK = {"contrib"}  # names that exist in neither, but that legacy mode provides


def tensorflow_aliases(tree):
    """Local names bound to the `tensorflow` module itself (`import tensorflow as tf`)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "tensorflow":
                    names.add(alias.asname or "tensorflow")
    return names


def attribute_chains(tree, roots):
    """Every dotted name used below one of `roots`, e.g. `tf.train.AdamOptimizer` -> ['train', 'AdamOptimizer']."""
    chains = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            parts = []
            cur = node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name) and cur.id in roots:
                chains.append(list(reversed(parts)))
    return chains


def _resolves(module, chain):
    obj = module
    for part in chain:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return False
    return True


def needs_legacy(source):
    """True when the script uses `tensorflow.X` names that only TF1 (compat.v1) provides."""
    import tensorflow as tf

    tree = ast.parse(source)
    roots = tensorflow_aliases(tree)
    if not roots:
        return False
    for chain in attribute_chains(tree, roots):
        if chain[0] in _TF2_ONLY_OK:
            return True
        if not _resolves(tf, chain) and _resolves(tf.compat.v1, chain):
            return True
    return False


def choose_api(texts):
    """(api, note, ambiguous) for `--original-api auto`, the rewrite's own TF1/TF2 reading of the program
    (`engine/tf_version.py`) first: TF1 -> v1; a name only compat.v1 has -> v1 (it would fail otherwise);
    TF2 -> v2. Neither (no TF1-only name, no TF2 marker) is ambiguous: it runs with TF2 behaviour, and the
    note says so, since TF 1.x meant other numbers for some of the same calls (canned estimators summed
    their loss over the batch, TF2's average it)."""
    from tf2migrate.engine.imports import ImportMap
    from tf2migrate.engine.tf_version import TFVersion, decide

    verdicts = []
    for text in texts:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        verdicts.append(decide(tree, ImportMap.from_ast(tree)))
    tf1 = [v for v in verdicts if v.version is TFVersion.TF1]
    if tf1:
        return "v1", f"{API_NOTE}: TF 1.x (auto: the program reads as TF1 code, it {tf1[0].reason})", False
    if _needs_legacy_any(texts):
        return "v1", f"{API_NOTE}: TF 1.x (auto: it uses names only tf.compat.v1 has)", False
    tf2 = [v for v in verdicts if v.version is TFVersion.TF2]
    if tf2:
        return "v2", f"{API_NOTE}: TF2 (auto: the program reads as TF2 code, it {tf2[0].reason})", False
    return "v2", (f"{AMBIGUOUS}TF2 behaviour (auto: neither TF1-only names nor a TF2 marker, so it may be TF 1.x or "
                  "TF2 code); `--original-api v1` runs it as TF 1.x did"), True


def _needs_legacy_any(texts):
    for text in texts:
        try:
            if needs_legacy(text):
                return True
        except SyntaxError:
            if len(texts) == 1:
                raise
    return False


def enable():
    """Make `import tensorflow` give compat.v1 (v2 behaviour off) plus the TF1 aliases."""
    import tensorflow as tf

    v1 = tf.compat.v1
    v1.disable_v2_behavior()
    add_aliases()
    sys.modules["tensorflow"] = v1
    return v1


def add_aliases():
    """Names removed after they had a direct successor. Also given to TF2-era originals (TF 2.0 to 2.3
    programs call `strategy.experimental_run_v2`), which must keep eager execution."""
    import tensorflow as tf
    from tensorflow.python.distribute import distribute_lib

    v1 = tf.compat.v1

    if "tensorflow.contrib" in sys.modules:  # applied already (`enable` applies them too): once is enough
        return
    for cls in (distribute_lib.StrategyBase, distribute_lib.StrategyV1):
        if not hasattr(cls, "experimental_run_v2"):
            cls.experimental_run_v2 = cls.run
    reduce = distribute_lib.StrategyBase.reduce

    def reduce_with_tf1_default(self, reduce_op, value, axis=None):  # TF1 defaulted axis to None
        return reduce(self, reduce_op, value, axis)

    distribute_lib.StrategyBase.reduce = reduce_with_tf1_default
    strategies = types.SimpleNamespace(
        MirroredStrategy=v1.distribute.MirroredStrategy,
        OneDeviceStrategy=v1.distribute.OneDeviceStrategy,
        CollectiveAllReduceStrategy=v1.distribute.experimental.MultiWorkerMirroredStrategy,
        ParameterServerStrategy=v1.distribute.experimental.ParameterServerStrategy,
        CrossDeviceOps=tf.distribute.CrossDeviceOps,
        ReductionToOneDeviceCrossDeviceOps=tf.distribute.ReductionToOneDevice,
    )
    contrib = types.ModuleType("tensorflow.contrib")
    contrib.distribute = strategies
    contrib.data = types.SimpleNamespace(AUTOTUNE=tf.data.experimental.AUTOTUNE)  # the TPU templates' prefetch
    contrib.tpu = types.SimpleNamespace(  # TF 1.x's TPU estimator names, moved under tf.compat.v1 (survey 42)
        TPUEstimator=v1.estimator.tpu.TPUEstimator, TPUEstimatorSpec=v1.estimator.tpu.TPUEstimatorSpec,
        TPUConfig=v1.estimator.tpu.TPUConfig, RunConfig=v1.estimator.tpu.RunConfig,
        CrossShardOptimizer=v1.tpu.CrossShardOptimizer)
    contrib.cluster_resolver = types.SimpleNamespace(TPUClusterResolver=tf.distribute.cluster_resolver.TPUClusterResolver)
    layers = _contrib_layers()
    if layers is not None:
        contrib.layers = layers
    v1.contrib = contrib
    sys.modules["tensorflow.contrib"] = contrib


def _contrib_layers():
    """`tf.contrib.layers.optimize_loss` (surveys 39, 45): TF 1.x's own code, which the tf-slim package keeps as it
    was (tf_slim/layers/optimizers.py; it no longer colocates gradients, which places ops and changes no number)."""
    import importlib

    from tensorflow.python.framework import indexed_slices, ops, tensor

    try:
        optimizers = importlib.import_module("tf_slim.layers.optimizers")
    except ImportError:  # not installed: the program fails on the name, as it would without legacy mode
        return None
    for name, moved in (("Tensor", tensor.Tensor), ("IndexedSlices", indexed_slices.IndexedSlices)):
        if not hasattr(ops, name):  # moved out of framework/ops.py by TF 2.14; tf-slim 1.1.0 reads them there
            setattr(ops, name, moved)
    return types.SimpleNamespace(optimize_loss=optimizers.optimize_loss)
