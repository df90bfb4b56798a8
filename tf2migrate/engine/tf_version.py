"""TF1 or TF2? Decided once per file, from its imports and the names it uses, never guessed.

Some upgrades change what a call means when the call is already TF2: `tf.nn.dropout(x, 0.5)` passes
`keep_prob` in TF1 and `rate` in TF2. Such upgrades ask `Context.tf1_semantics(literal)`, which answers
from the reference itself when it says (`tf.compat.v1.X` is TF1, `tf.compat.v2.X` is TF2) and otherwise
from this file-level verdict about the plain `tensorflow` namespace:

- TF1: the file uses TF1-only names through plain `tensorflow` (`tf.Session`, `tf.placeholder`,
  `tf.contrib`, ...: code that cannot run on TF2 was written for TF 1.x), or its only TensorFlow import
  is `tensorflow.compat.v1`;
- TF2: it imports `tensorflow.compat.v2`, uses TF2-only names (`tf.random.set_seed`,
  `tf.summary.create_file_writer`, ...), or imports `tensorflow` beside a separate `tensorflow.compat.v1`
  (its author keeps the two apart, so the plain name is TF2);
- UNKNOWN: no evidence, or evidence both ways. Meaning-changing upgrades then report (TFM650).

`[tool.tf2migrate] source = "tf1" | "tf2"` (or `--source`) replaces the verdict for the whole run.
Cheap: one scan of the `ast` index, made only when a meaning-changing rule asks.
"""
from __future__ import annotations

import ast
import enum
from dataclasses import dataclass

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ast_dotted

SOURCES = ("auto", "tf1", "tf2")


class TFVersion(str, enum.Enum):
    TF1 = "tf1"
    TF2 = "tf2"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Verdict:
    version: TFVersion
    reason: str  # what decided it, for the diagnostics: "uses `tf.Session` (line 4)"


# Canonical names (or prefixes ending in ".") that exist in TF 1.x's `tensorflow` namespace and not in
# TF2's: a file that spells one through plain `tensorflow` was written for TF 1.x.
# tests/test_tf_version.py checks each against the installed TensorFlow.
TF1_ONLY = frozenset({
    "tf.Session", "tf.InteractiveSession", "tf.ConfigProto", "tf.GraphKeys", "tf.placeholder",
    "tf.placeholder_with_default", "tf.get_variable", "tf.variable_scope", "tf.get_variable_scope",
    "tf.global_variables_initializer", "tf.local_variables_initializer", "tf.variables_initializer",
    "tf.global_variables", "tf.trainable_variables", "tf.get_collection", "tf.add_to_collection",
    "tf.reset_default_graph", "tf.get_default_session", "tf.assign", "tf.assign_add", "tf.Print",
    "tf.log", "tf.to_float", "tf.to_int32", "tf.to_int64", "tf.to_double", "tf.random_normal",
    "tf.random_uniform", "tf.truncated_normal", "tf.sparse_tensor_to_dense", "tf.train.Saver",
    "tf.train.AdamOptimizer", "tf.train.GradientDescentOptimizer", "tf.train.MomentumOptimizer",
    "tf.train.AdagradOptimizer", "tf.train.RMSPropOptimizer", "tf.train.get_global_step",
    "tf.train.get_or_create_global_step", "tf.train.MonitoredTrainingSession", "tf.summary.FileWriter",
    "tf.summary.merge_all", "tf.image.resize_bilinear", "tf.image.resize_images", "tf.layers.",
    "tf.contrib.", "tf.app.", "tf.logging.", "tf.flags.", "tf.nn.rnn_cell.",
})
# Names that TF2's `tensorflow` has and TF 1.x's had not (checked the same way): their use marks TF2 code.
TF2_ONLY = frozenset({
    "tf.random.set_seed", "tf.summary.create_file_writer", "tf.summary.record_if",
    "tf.distribute.MultiWorkerMirroredStrategy", "tf.distribute.TPUStrategy",
    "tf.distribute.experimental.coordinator", "tf.saved_model.LoadOptions", "tf.experimental.numpy",
    "tf.keras.mixed_precision.set_global_policy", "tf.config.experimental.enable_op_determinism",
})
_LAST_WORDS = frozenset(name.rstrip(".").rsplit(".", 1)[-1] for name in TF1_ONLY | TF2_ONLY)


def _tf1_only(canonical: str) -> bool:
    """`tf.Session`, or `tf.contrib` itself (prefix entries end in a dot; `ast` visits every link)."""
    return canonical in TF1_ONLY or canonical + "." in TF1_ONLY


def decide(tree: ast.AST, imports, source: str = "auto") -> Verdict:
    """The verdict for the plain `tensorflow` namespace of this module (see the module docstring)."""
    if source != "auto":
        return Verdict(TFVersion(source), f"`source = \"{source}\"` in the configuration")
    targets = {b.target for b in imports.bindings.values()}
    plain = {b.local for b in imports.bindings.values() if b.target == "tensorflow"}
    has_v1 = any(t == "tensorflow.compat.v1" or t.startswith("tensorflow.compat.v1.") for t in targets)
    tf1 = tf2 = None
    if any(t == "tensorflow.compat.v2" or t.startswith("tensorflow.compat.v2.") for t in targets):
        tf2 = "imports `tensorflow.compat.v2`"
    elif has_v1 and plain:
        tf2 = "imports `tensorflow` beside `tensorflow.compat.v1`"
    elif has_v1 and not any(t.split(".")[0] == "tensorflow" and ".compat." not in t for t in targets):
        tf1 = "imports `tensorflow.compat.v1` only"
    contrib = sorted(t for t in targets if t.startswith("tensorflow.contrib"))
    if contrib:
        tf1 = f"imports `{contrib[0]}`"
    for node in nodes(tree, ast.Attribute):
        if node.attr not in _LAST_WORDS:
            continue
        literal, canonical = imports.resolve_dotted(ast_dotted(node))
        if not literal or literal.startswith("tf.compat."):
            continue
        if tf1 is None and _tf1_only(canonical):
            tf1 = f"uses `{literal}` (line {node.lineno})"
        elif tf2 is None and canonical in TF2_ONLY:
            tf2 = f"uses `{literal}` (line {node.lineno})"
    if tf1 and tf2:
        return Verdict(TFVersion.UNKNOWN, f"{tf1}, but {tf2}")
    if tf1 or tf2:
        return Verdict(TFVersion.TF1 if tf1 else TFVersion.TF2, tf1 or tf2)
    return Verdict(TFVersion.UNKNOWN, "neither TF1-only names nor a TF2 marker")

