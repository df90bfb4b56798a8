"""TF1 modules that TF2 has only under `tf.compat.v1` (`tf.layers`, `tf.logging`), and the aliases made of them.

`layers = tf.layers` then `layers.dense(x)`: the table plugin renames the module where the alias is made
(TFM610) and leaves every use through the alias as written, instead of writing each use out in full and
leaving the alias pointing at a module TF2 does not have.
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ast_dotted
from tf2migrate.rules.tables import Tables


def alias_sources(tree, imports) -> frozenset:
    """(line, 1-based col, dotted text) of the value of each `name = tf.path` assignment that makes an alias
    (the text tells `tf.app.flags` from the `tf.app` inside it, which starts at the same place)."""
    assigned = {b.local for b in imports.bindings.values() if b.assigned}
    return frozenset((a.value.lineno, a.value.col_offset + 1, ast_dotted(a.value)) for a in nodes(tree, ast.Assign)
                     if any(isinstance(t, ast.Name) and t.id in assigned for t in a.targets)) if tree else frozenset()


def head(expr):
    """The name a reference chain starts from: `layers` in `layers.dense`."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return expr


_COMPAT_MODULES: dict = {}


def compat_v1_module(tables: Tables, canonical) -> bool:
    """A TF1 module whose members the tables move to the same place under `tf.compat.v1` (tf.layers, tf.logging;
    at least 9 in 10: `tf.layers.InputSpec` has a Keras name too): TF2 has the module only as
    `tf.compat.v1.<module>`, which holds every member TF1 had."""
    if not canonical or not canonical.startswith("tf.") or canonical.count(".") != 1:
        return False
    key = (id(tables), canonical)
    if key not in _COMPAT_MODULES:
        prefix = canonical + "."
        members = [(n, acts) for n, acts in tables.by_symbol.items() if n.startswith(prefix)]
        moved = sum(any(a.new == "tf.compat.v1." + n[len("tf."):] and not a.on_call for a in acts) for n, acts in members)
        own = tables.by_symbol.get(canonical, ())  # TFM610 names it, to wake the file where an alias is made
        _COMPAT_MODULES[key] = bool(members) and moved * 10 >= 9 * len(members) and all(
            a.new == "tf.compat.v1." + canonical[len("tf."):] for a in own)
    return _COMPAT_MODULES[key]
