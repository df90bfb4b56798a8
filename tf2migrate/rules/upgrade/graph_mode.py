"""TFM668: TF1 graph-only code (placeholders, Sessions, queue inputs) in a file that never leaves TF2's eager mode."""
from __future__ import annotations

import ast

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.upgrade.graph_only import GRAPH_ONLY
from tf2migrate.rules.unconverted.scan import references

# what makes the code run in a graph: the program's switch, or a graph it builds in
GRAPH_MAKERS = frozenset({"tf.disable_eager_execution", "tf.disable_v2_behavior", "tf.Graph",
                          "tf.wrap_function", "tf.function"})
_LAST_WORDS = frozenset(name.rsplit(".", 1)[-1] for name in GRAPH_MAKERS | GRAPH_ONLY)
BEFORE = '''import tensorflow.compat.v1 as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.layers.dense(x, 1)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
'''


class GraphMode(Plugin):
    """TF2 runs eagerly. `tf.compat.v1.placeholder` raises there ("not compatible with eager execution") and
    a `tf.compat.v1.Session` has no graph to run, so a TF1 graph program that tf_upgrade_v2 (or TFM606) moves
    to `tf.compat.v1.*` still fails at its first placeholder unless it runs in a graph: the program calls
    `tf.compat.v1.disable_eager_execution()` first (what TF1 programs ran under), or builds its model in
    `with tf.Graph().as_default():`. Queue-based input (`string_input_producer`, `shuffle_batch`, readers) and
    the sessions that make their own graph (`MonitoredTrainingSession`, `Supervisor`) fail alike in eager mode
    (graph_only.py lists them all). A file with graph-only names and none of those gets one finding, at the
    first graph-only name: the switch belongs to the program's entry point, which may be another file, so
    it is not added here. Migrating the Session code to TF2 (Keras, tf.function) removes the need. A file of
    the Estimator world is left to its own findings (TFM3xx): an Estimator built its graphs itself, and its
    serving_input_receiver_fn's placeholders go with the conversion."""

    infos = (
        RuleInfo(
            code="TFM668",
            name="graph-mode-needed",
            summary="placeholders, Sessions, queue inputs in a file that never leaves eager mode -> reported",
            message="TF2 runs eagerly: placeholders, Sessions and queue inputs need a graph; call "
                    "tf.compat.v1.disable_eager_execution() at the program's start or build the model in "
                    "`with tf.Graph().as_default():` (or migrate this code to TF2)",
            why=__doc__,
            fix="report only",
            severity=Severity.WARNING,
            before=BEFORE,
            after="",
        ),
    )

    def leave_module(self, original, updated):
        ctx = self.ctx
        if ctx.tree is None or not ctx.selection.enabled("TFM668"):
            return updated
        first, bound = None, ctx.imports.bindings
        for node in nodes(ctx.tree, ast.Attribute, ast.Name):
            # only a name the file imports, or an attribute spelled as one of these names ends, can resolve to one
            if node.attr not in _LAST_WORDS if type(node) is ast.Attribute else node.id not in bound:
                continue
            canonical = ctx.imports.ast_canonical(node)
            if canonical in GRAPH_MAKERS:
                return updated
            if canonical in GRAPH_ONLY and first is None:
                first = node
        if first is not None and not references(ctx.tree, ctx.imports):
            ctx.report(first, "TFM668", fixable=False)
        return updated
