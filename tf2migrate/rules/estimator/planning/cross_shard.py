"""`CrossShardOptimizer(optimizer)`: TPUEstimator summed the shards' gradients with it; Keras under TPUStrategy
sums the replicas' gradients itself, so the wrapper goes (and the `if FLAGS.use_tpu:` that applied it)."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.reading import spec
from tf2migrate.rules.estimator.reading.uses import assignment
from tf2migrate.rules.estimator.syntax.args import Unreadable


def read(reader, name, call) -> None:
    """`name = CrossShardOptimizer(opt)` in a `_Reader` (model_fn_statements.py): `name` holds `opt`'s optimizer."""
    inner = call.args[0].value if call.args and call.args[0].keyword is None else None
    held = reader.env.get(inner.value) if isinstance(inner, cst.Name) else None
    if isinstance(inner, cst.Call) and read_optimizer(inner, reader.ctx) is not None:
        held = ("optimizer", read_optimizer(inner, reader.ctx))
    if held is None or held[0] != "optimizer" or len(call.args) != 1:
        raise Unreadable(call, "CrossShardOptimizer of something not built from a TF1 optimizer: convert by hand")
    reader.env[name] = held
    reader.plan.notes.append((call, "TFM317", "CrossShardOptimizer dropped: under TPUStrategy Keras sums the "
                              "replicas' gradients itself"))


def switch(reader, stmt) -> bool:
    """`if FLAGS.use_tpu: optimizer = CrossShardOptimizer(optimizer)`: the wrap goes, and so does its switch."""
    wrap = switched(stmt, reader.ctx)
    if wrap is None:
        return False
    read(reader, *wrap)
    return True


def switched(stmt, ctx):
    """(name, call) of `if <test>: name = CrossShardOptimizer(...)` alone in an `if` without else, else None."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None or len(stmt.body.body) != 1:
        return None
    inner = stmt.body.body[0]
    if not (isinstance(inner, cst.SimpleStatementLine) and len(inner.body) == 1):
        return None
    name, value = assignment(inner)
    return (name, value) if name is not None and spec.is_cross_shard(value, ctx) else None
