"""A model_fn as it runs in one mode: `if mode == ModeKeys.X:` branches resolved, up to its `return`.

An Estimator calls the model_fn once per mode (TRAIN for `train`, EVAL for `evaluate`, PREDICT for
`predict`), so every test on `mode` alone has a known value in each call. The general conversion
(general.py) reads the three straight-line programs this gives: what `train_step`, `test_step` and
`predict_step` each compute. Statements are the original nodes (not copies), so a statement found in
two modes is recognized by identity.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator import cross_shard, spec
from tf2migrate.rules.estimator.args import Unreadable

MODES = ("TRAIN", "EVAL", "PREDICT")


def _key(expr, ctx) -> Optional[str]:
    canonical = ctx.resolve(expr)[1] or ""
    key = canonical.rpartition(".")[2]
    return key if canonical.startswith("tf.estimator.ModeKeys.") and key in MODES else None


def _keys(expr, ctx) -> Optional[set]:
    elements = expr.elements if isinstance(expr, (cst.Tuple, cst.List, cst.Set)) else None
    if elements is None:
        key = _key(expr, ctx)
        return {key} if key else None
    keys = {_key(e.value, ctx) for e in elements}
    return None if None in keys or not keys else keys


def value(test, mode: str, ctx) -> Optional[bool]:
    """The value of `test` when the model_fn runs in `mode`; None when it is not a test on the mode alone."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = value(test.expression, mode, ctx)
        return None if inner is None else not inner
    if isinstance(test, cst.BooleanOperation):
        left, right = value(test.left, mode, ctx), value(test.right, mode, ctx)
        if left is None or right is None:
            return None
        return (left and right) if isinstance(test.operator, cst.And) else (left or right)
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    op, other = test.comparisons[0].operator, test.comparisons[0].comparator
    left = test.left
    if isinstance(other, cst.Name) and other.value == "mode" and isinstance(op, (cst.Equal, cst.NotEqual)):
        left, other = other, left
    if not (isinstance(left, cst.Name) and left.value == "mode"):
        return None
    keys = _keys(other, ctx)
    if keys is None:
        return None
    if isinstance(op, (cst.Equal, cst.Is)) and len(keys) == 1:
        return mode in keys
    if isinstance(op, (cst.NotEqual, cst.IsNot)) and len(keys) == 1:
        return mode not in keys
    if isinstance(op, cst.In):
        return mode in keys
    if isinstance(op, cst.NotIn):
        return mode not in keys
    return None


def specialize(body, mode: str, ctx):
    """(statements run in `mode`, the returned EstimatorSpec's arguments or None if it does not return).
    Mode asserts and TF1 summaries are left out; raises Unreadable for a return that is no EstimatorSpec."""
    out = []
    for stmt in body:
        if spec.is_docstring(stmt):
            continue
        if isinstance(stmt, cst.If):
            taken = value(stmt.test, mode, ctx)
            if taken is not None:
                branch = stmt.body.body if taken else _orelse(stmt.orelse)
                inner, returned = specialize(branch, mode, ctx)
                out += inner
                if returned is not None:
                    return out, returned
                continue
        if "use_tpu" in source(stmt.test if isinstance(stmt, cst.If) else cst.Name("_")) \
                and cross_shard.switched(stmt, ctx) is not None:
            continue  # `if params["use_tpu"]: optimizer = CrossShardOptimizer(optimizer)`: never on a plain Estimator
        if spec.tpu_return(stmt, ctx):  # `if params["use_tpu"]: return TPUEstimatorSpec(...)`: a plain Estimator
            if stmt.orelse is None:     # runs the plain EstimatorSpec that follows (or is the `else:`)
                continue
            inner, returned = specialize(_orelse(stmt.orelse), mode, ctx)
            return out + inner, returned
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Return):
            returned = spec.estimator_spec(small.value, ctx)
            if returned is None:
                raise Unreadable(small, "model_fn returns something other than an EstimatorSpec: convert by hand")
            return out, returned
        if isinstance(small, cst.Assert) and spec.on_mode_only(small.test, ctx):
            continue
        if isinstance(small, cst.Expr) and spec.is_summary(small.value, ctx):
            continue
        out.append(stmt)
    return out, None


def _orelse(orelse) -> list:
    if orelse is None:
        return []
    if isinstance(orelse, cst.If):  # elif
        return [orelse]
    return list(orelse.body.body)
