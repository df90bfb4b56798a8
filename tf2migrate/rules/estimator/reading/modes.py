"""A model_fn as it runs in one mode: `if mode == ModeKeys.X:` branches resolved, up to its `return`.

An Estimator calls the model_fn once per mode (TRAIN for `train`, EVAL for `evaluate`, PREDICT for
`predict`), so every test on `mode` alone has a known value in each call. The general conversion
(model_subclass.py) reads the three straight-line programs this gives: what `train_step`, `test_step` and
`predict_step` each compute. Statements are the original nodes (not copies), so a statement found in
two modes is recognized by identity.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.reading import spec
from tf2migrate.rules.estimator.syntax.args import Unreadable

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


def specialize(body, mode: str, ctx, specs=None, dropped=None):
    """(statements run in `mode`, the returned EstimatorSpec's arguments or None if it does not return).
    Mode asserts and TF1 summaries are left out (the summaries' calls added to `dropped`, for the finding that
    says so); raises Unreadable for a return that is no EstimatorSpec. A spec may be assigned to a name first
    (`output_spec = EstimatorSpec(...)`, then `return output_spec`): `specs` holds those the run assigned so far."""
    out, specs = [], {} if specs is None else specs
    dropped = [] if dropped is None else dropped
    for stmt in body:
        if spec.is_docstring(stmt):
            continue
        if isinstance(stmt, cst.If):
            taken = value(stmt.test, mode, ctx)
            if taken is not None:
                branch = stmt.body.body if taken else _orelse(stmt.orelse)
                inner, returned = specialize(branch, mode, ctx, specs, dropped)
                out += inner
                if returned is not None:
                    return out, returned
                continue
        plain = _plain_branch(stmt, ctx)
        if plain is not None:  # `if params["use_tpu"]: return TPUEstimatorSpec(...) else: return EstimatorSpec(...)`
            inner, returned = specialize(plain, mode, ctx, specs, dropped)
            return out + inner, returned
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            made = spec.estimator_spec(small.value, ctx)
            if made is not None:
                specs[small.targets[0].target.value] = made
                continue
        if isinstance(small, cst.Return):
            named = specs.get(small.value.value) if isinstance(small.value, cst.Name) else None
            returned = named if named is not None else spec.estimator_spec(small.value, ctx)
            if returned is None:
                raise Unreadable(small, "model_fn returns something other than an EstimatorSpec: convert by hand")
            return out, returned
        if isinstance(small, cst.Assert) and spec.on_mode_only(small.test, ctx):
            continue
        if isinstance(small, cst.Expr) and spec.is_summary(small.value, ctx):
            dropped.append(small)
            continue
        out.append(stmt)
    return out, None


def _plain_branch(stmt, ctx) -> Optional[list]:
    """For an if/else that returns a TPUEstimatorSpec in one branch and the same EstimatorSpec in the other (Google's
    TPU templates, on `params["use_tpu"]`), the plain branch: both describe one model, and Keras needs one."""
    if not (isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else)):
        return None
    kinds = [_returned_kind(block.body, ctx) for block in (stmt.body, stmt.orelse.body)]
    if sorted(kinds, key=str) != ["plain", "tpu"]:
        return None
    return list((stmt.body if kinds[0] == "plain" else stmt.orelse.body).body)


def _returned_kind(block, ctx) -> Optional[str]:
    small = block[-1].body[0] if len(block) == 1 and isinstance(block[-1], cst.SimpleStatementLine) else None
    if not (isinstance(small, cst.Return) and isinstance(small.value, cst.Call)):
        return None
    canonical = ctx.resolve(small.value.func)[1]
    return "plain" if canonical == "tf.estimator.EstimatorSpec" else "tpu" if canonical in spec.TPU_SPECS else None


def _orelse(orelse) -> list:
    if orelse is None:
        return []
    if isinstance(orelse, cst.If):  # elif
        return [orelse]
    return list(orelse.body.body)


VALUES = {"TRAIN": "train", "EVAL": "eval", "PREDICT": "infer"}  # tf.estimator.ModeKeys' strings


class Known(cst.CSTTransformer):
    """A statement kept in a step, where the mode is known: a test on the mode becomes its value, `mode` itself
    the ModeKeys string TF1 gave (`tf1.logging.info("mode: %s", mode)` logs what it logged)."""

    def __init__(self, mode: str, ctx) -> None:
        super().__init__()
        self.mode, self.ctx = mode, ctx

    def _known(self, original, updated):
        known = value(original, self.mode, self.ctx)
        return updated if known is None else cst.Name(str(known), lpar=original.lpar, rpar=original.rpar)

    leave_Comparison = leave_BooleanOperation = leave_UnaryOperation = _known

    def leave_Name(self, original, updated):
        return cst.SimpleString(f'"{VALUES[self.mode]}"') if original.value == "mode" else updated

    def leave_Attribute(self, original, updated):  # `x.mode` is no use of the name
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original, updated):  # nor `f(mode=...)`'s keyword
        return updated.with_changes(keyword=original.keyword)
