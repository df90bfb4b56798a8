"""What a model_fn converted to a Keras Model subclass (model_subclass.py) still runs TF1-style (TFM336).

The default path keeps the model_fn's statements as written: its forward pass runs in `call` under
`track_tf1_style_variables` (TF's modeling shim), its loss in `train_step`. That is TF's recommended first step
of a migration, not its end: the shim has no Keras 3 form, and `tf1.layers`, `tf1.get_variable`, `tf1.losses`
and the user's helpers that call them are what to refactor next. This module names them, in the order they first
appear, for one warning and one comment above `call`, so the user knows where to start.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source

CODE = "TFM336"
PREFIXES = ("tf.layers.", "tf.losses.", "tf.contrib.", "tf.keras.layers.")  # keras layers: fine, but called TF1-style
SHIM_NAMES = {"tf.feature_column.input_layer", "tf.get_variable", "tf.variable_scope", "tf.get_variable_scope", "tf.Variable", "tf.global_variables", "tf.initializers.variance_scaling", "tf.truncated_normal_initializer",
              "tf.random_normal_initializer", "tf.glorot_uniform_initializer"}


def parts(stmts, ctx, helpers) -> list:
    """The TF1-style calls of `stmts` and the user's helpers they call (`helpers`: names of functions of the
    module or of the builder), each once, as written in the source (`tf1.layers.dense`, `dense_block()`)."""
    found = []

    class _V(cst.CSTVisitor):
        def visit_Call(self, node):
            canonical = ctx.resolve(node.func)[1] or ""
            if isinstance(node.func, cst.Name) and node.func.value in helpers:
                found.append(f"{node.func.value}()")
            elif canonical.startswith(PREFIXES[:3]) or canonical in SHIM_NAMES:
                found.append(source(node.func))

    for stmt in stmts:
        stmt.visit(_V())
    return list(dict.fromkeys(found))


def message(forward: list, steps: list) -> str:
    """TFM336's message: which parts of `call` and of the steps run TF1-style, and what to do next."""
    where = []
    if forward:
        where.append("in `call`, under the shim (track_tf1_style_variables): " + _listed(forward))
    if steps:
        where.append("in the steps: " + _listed(steps))
    if not where:
        return ("model_fn kept as written in a Keras Model subclass: its forward pass runs under the shim "
                "(track_tf1_style_variables); replace it by Keras layers, then drop the shim")
    return ("model_fn kept as written; still TF1-style " + "; ".join(where)
            + ": refactor these to Keras layers and losses next, then drop the shim")


def comment(forward: list, width: int = 96) -> str:
    """The comment above `call`: the same list, as many names as fit in `width` (a method's line of WIDTH)."""
    head, tail = "# TF1-style under the shim (TFM336): ", "; refactor to Keras layers next"
    for most in range(len(forward), 0, -1):
        made = head + _listed(forward, most) + tail
        if len(made) <= width:
            return made
    return head + "the forward pass" + tail


def _listed(names: list, most: int = 6) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")

KERAS_MADE = ("a Keras layer or model made in the model_fn's forward pass: kept in `call` under the shim, it would be "
              "made anew at every call, which tf.function refuses ('only supports singleton tf.Variables created on "
              "the first call'); use a tf1.layers layer there, or make the Keras model once outside the model_fn, "
              "then convert")


def keras_made(stmts, ctx, defs: dict, seen=None):
    """The first Keras layer or model the statements construct, directly or in a helper of `defs`, or None. Under
    the shim a Keras object made in `call` is made anew at every call: tf.function refuses its variables (measured
    on TF 2.15: "tf.function only supports singleton tf.Variables created on the first call"); tf1.layers' classes
    reuse theirs through the variable scope and are fine."""
    seen = set() if seen is None else seen
    found = []

    class _V(cst.CSTVisitor):
        def visit_Call(self, node):
            canonical = ctx.resolve(node.func)[1] or ""
            name = node.func.value if isinstance(node.func, cst.Name) else None
            made = defs.get(name)
            if canonical.startswith("tf.keras.") and canonical.rpartition(".")[2][:1].isupper():
                found.append(node)
            elif isinstance(made, cst.ClassDef) and "keras" in "".join(source(b.value) for b in made.bases):
                found.append(node)
            elif isinstance(made, cst.FunctionDef) and name not in seen:
                seen.add(name)
                if keras_made(made.body.body, ctx, defs, seen) is not None:
                    found.append(node)

    for stmt in stmts:
        stmt.visit(_V())
        if found:
            return found[0]
    return None
