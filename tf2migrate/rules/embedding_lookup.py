"""TFM205/TFM206: `tf.nn.embedding_lookup(_sparse)` and TF1's `partition_strategy`."""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import remove_arg
from tf2migrate.rules.upgrade.common import called, keyword, literal_str, positional, tf1_here, to_keywords

# canonical name -> TF1's signature; TF2 reads the first KEPT positional arguments alike and has no
# `partition_strategy` (always "div") nor `validate_indices` (TF1 ignored it already)
TF1_ARGS = {
    "tf.nn.embedding_lookup": ("params", "ids", "partition_strategy", "name", "validate_indices", "max_norm"),
    "tf.nn.embedding_lookup_sparse": ("params", "sp_ids", "sp_weights", "partition_strategy", "name", "combiner",
                                      "max_norm"),
}
KEPT = {"tf.nn.embedding_lookup": 2, "tf.nn.embedding_lookup_sparse": 3}
LOOKUPS = frozenset(TF1_ARGS)
GONE = ("partition_strategy", "validate_indices")


class EmbeddingLookupStrategy(Plugin):
    """TF1 `embedding_lookup` over a partitioned variable defaulted to `partition_strategy="mod"`
    (id i lives in shard i % n). TF2 always uses the "div" layout (contiguous ranges) and has no
    argument for it; tf_upgrade_v2 drops the argument with a warning, which silently changes which
    shard serves which id and so breaks restored checkpoints. A call relying on the default is
    reported (TFM205), never changed: keep the TF1 layout by re-partitioning the checkpoint, or
    confirm the params are not partitioned. Params that are one variable made in the same function
    (`get_variable` without a partitioner, `tf.Variable`), in a file that names no partitioner, are
    not partitioned: both layouts read the same rows, and nothing is reported.

    TF2's `tf.nn.embedding_lookup(params, ids, max_norm, name)` also reads TF1's later arguments
    differently: a positional `"div"` would be taken for `max_norm`, and `partition_strategy=` or
    `validate_indices=` raise a TypeError. In TF1 code such a call is rewritten (TFM206): with "div"
    the strategy and `validate_indices` are dropped and the rest passed by keyword; with "mod" (or a
    strategy nobody can read) the call keeps TF1's function, `tf.compat.v1.nn.embedding_lookup`."""

    infos = (
        RuleInfo(
            code="TFM205",
            name="embedding-lookup-mod",
            summary='embedding_lookup relying on partition_strategy="mod" (TF2 uses "div")',
            message='relies on TF1\'s partition_strategy="mod"; TF2 always uses "div": with partitioned '
            "params each id is read from a different shard",
            fix="report only",
            why=__doc__,
            before="import tensorflow.compat.v1 as tf1\nrows = tf1.nn.embedding_lookup(params, ids)\n",
        ),
        RuleInfo(
            code="TFM206",
            name="embedding-lookup-tf1-arguments",
            summary="embedding_lookup with TF1's partition_strategy/validate_indices -> TF2 keywords, or "
            "tf.compat.v1 for an explicit \"mod\"",
            message='TF2\'s embedding_lookup has no partition_strategy (always "div") nor validate_indices, '
            "and reads its third positional argument as max_norm",
            why=__doc__,
            before='import tensorflow as tf\nsess = tf.Session()\nrows = tf.nn.embedding_lookup(params, ids, "div", "rows")\n',
            after='import tensorflow as tf\nsess = tf.compat.v1.Session()\nrows = tf.nn.embedding_lookup(params, ids, '
            'name="rows")\n',
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, canonical = called(self.ctx, original, LOOKUPS)
        args = positional(updated)
        if canonical is None or args is None:
            return updated
        kept = KEPT[canonical]
        strategy = strategy_of(updated, canonical)
        if strategy is None and not unpartitioned(self.ctx, original) or strategy is not None and _is_mod(strategy.value):
            self.ctx.report(original, "TFM205")
        if literal.startswith("tf.compat.v1."):
            return updated  # TF1's own function: TF1's arguments
        if strategy is None and keyword(updated, "validate_indices") is None:
            return updated
        certain = literal_str(strategy.value if strategy is not None else None) is not None or any(
            keyword(updated, name) is not None for name in GONE)  # no TF2 call passes these
        if not certain and not tf1_here(self.ctx, original, literal, f"`{literal}` with TF1's arguments"):
            return updated
        if strategy is not None and literal_str(strategy.value) != "div":  # "mod", or not known here
            message = (f"`{literal}` with partition_strategy other than \"div\" keeps TF1's function "
                       f"`tf.compat.v1.{canonical[3:]}` (TF2's has no partition_strategy)")
            if not self.ctx.report(original, "TFM206", message):
                return updated
            return updated.with_changes(func=self.ctx.emit.attribute(f"tf.compat.v1.{canonical[3:]}"))
        if not self.ctx.report(original, "TFM206"):
            return updated
        names = (None,) * kept + TF1_ARGS[canonical][kept:]
        out = to_keywords(updated.args, names)
        for gone in GONE:
            index = next((i for i, a in enumerate(out) if a.keyword is not None and a.keyword.value == gone), None)
            if index is not None:
                out = remove_arg(out, index)
        return updated.with_changes(args=out)


def strategy_of(call: cst.Call, canonical: str):
    """The argument that gives a lookup's partition_strategy (its keyword, or TF1's position), else None; the call
    spreads no `*args` (shim_path/guards.py asks it too)."""
    args = [a for a in call.args if a.keyword is None]
    kept = KEPT[canonical]
    return keyword(call, "partition_strategy") or (args[kept] if len(args) > kept else None)


def unpartitioned(ctx, call: cst.Call) -> bool:
    """Are the params one variable that no partitioner can cut, so "mod" and "div" read the same rows? A name
    assigned once, in the function around the call, from `get_variable(...)` without `partitioner=` (or from
    `tf.Variable(...)`), in a file that names no partitioner at all (a variable_scope's would reach it)."""
    params = call.args[0].value if call.args and call.args[0].keyword is None else None
    place = ctx.positions.place(call) if isinstance(params, cst.Name) and ctx.tree is not None else None
    if place is None or "partitioner" in ctx.text:
        return False
    scope = ctx.tree
    for fn in ast.walk(ctx.tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.lineno <= place.line <= fn.end_lineno \
                and (scope is ctx.tree or fn.lineno > scope.lineno):
            scope = fn
    values = [node.value for node in ast.walk(scope) if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
              and any(isinstance(t, ast.Name) and t.id == params.value
                      for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))]
    if len(values) != 1 or not isinstance(values[0], ast.Call):
        return False
    made = ctx.imports.ast_canonical(values[0].func) or ""
    return made in ("tf.get_variable", "tf.Variable") and not any(k.arg in ("partitioner", None)
                                                                  for k in values[0].keywords)


def _is_mod(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.SimpleString) and value.evaluated_value == "mod"
