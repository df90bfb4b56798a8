"""What the forward pass kept in the Keras shim (kept_forward.py) needs to run as the model_fn ran in TF1.

- Layer names restart at every call. TF1 built the model_fn's graph once; Keras traces the layer's `call`
  more than once (tf.function's first call traces twice), and each trace names an unnamed `tf1.layers.dense`
  anew (`dense`, then `dense_1`): the second trace made new variables and training failed at its first step
  ("tf.function only supports singleton tf.Variables created on the first call"). Re-entering the current
  variable scope in `call`, as the Model subclass path does (model_subclass_source.py), restarts the names.
- A partitioned table read by id. The shim drops a `variable_scope(partitioner=P)` (TF2's get_variable takes
  none): the layer holds one variable with the shards' rows in order. TF1's `embedding_lookup` read id i from
  shard i % n (partition_strategy="mod", the default), not from row i of that order, so the converted model
  would compute other numbers from the same initial values; such a lookup blocks (TFM326). With
  partition_strategy="div" the shards are read in order: the same rows, and it converts.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.embedding_lookup import KEPT, strategy_of
from tf2migrate.rules.upgrade.common import literal_str

LAYER_MODULES = ("tf.layers.", "tf.compat.v1.layers.")
STATELESS = ("dropout", "flatten", "pooling")  # layers without variables: their names do not matter
WHY_MOD = ("embedding_lookup of a variable whose variable_scope has a partitioner: TF1 read id i from shard i % n "
           "(partition_strategy=\"mod\", the default), while the Keras shim keeps one unpartitioned variable, whose "
           "row i is another row: the converted model would compute other numbers from the same initial values. "
           "With partition_strategy=\"div\" TF1 read the rows in order (the same model): pass it if the original may "
           "change, or convert by hand")


def unnamed_layers(stmts, ctx) -> bool:
    """A `tf1.layers` layer with variables made without `name=` in the kept statements (their names count calls)."""
    def unnamed(call) -> bool:
        canonical = ctx.resolve(call.func)[1] or ""
        return canonical.startswith(LAYER_MODULES) and not any(word in canonical.lower() for word in STATELESS) \
            and not any(a.keyword is not None and a.keyword.value == "name" for a in call.args)

    return bool(_calls(stmts, unnamed))


def mod_lookup(stmts, ctx) -> Optional[cst.Call]:
    """The first `embedding_lookup` in the kept statements that reads its params by partition_strategy="mod"."""
    def by_mod(call) -> bool:
        canonical = ctx.resolve(call.func)[1]
        if canonical not in KEPT or any(a.star for a in call.args):
            return False
        given = strategy_of(call, canonical)
        return given is None or literal_str(given.value) != "div"

    return next(iter(_calls(stmts, by_mod)), None)


def _calls(stmts, wanted) -> list:
    found = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, node):
            if wanted(node):
                found.append(node)

    for stmt in stmts:
        stmt.visit(_Calls())
    return found
