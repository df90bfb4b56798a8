"""The shapes a `model_fn` is written in: `if mode == ModeKeys.X:` branches, `EstimatorSpec(...)` returns,
TF1 summaries and the `UPDATE_OPS` idiom around `minimize` (which Keras layers make unnecessary).
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator.syntax.args import bind

SPEC_PARAMS = ("mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs", "training_chief_hooks",
               "training_hooks", "scaffold", "evaluation_hooks", "prediction_hooks")


def mode_branch(stmt, ctx) -> Optional[str]:
    """For `if <test on mode>:` without else, the test's source ('mode == ModeKeys.TRAIN', 'mode != ...',
    'mode in (...)'), else None. Keras has no modes: the body is read as if it always ran."""
    if not isinstance(stmt, cst.If) or stmt.orelse is not None:
        return None
    test = stmt.test
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, (cst.Equal, cst.NotEqual, cst.In))):
        return None
    left, right = test.left, test.comparisons[0].comparator
    if isinstance(right, cst.Name) and right.value == "mode" and not isinstance(test.comparisons[0].operator, cst.In):
        left, right = right, left
    if not (isinstance(left, cst.Name) and left.value == "mode"):
        return None
    keys = [e.value for e in right.elements] if isinstance(right, (cst.Tuple, cst.List)) else [right]
    if not keys or not all(_mode_key(k, ctx) for k in keys):
        return None
    return source(test)


def _mode_key(expr, ctx) -> bool:
    canonical = ctx.resolve(expr)[1] or ""
    return canonical.rpartition(".")[2] in ("PREDICT", "EVAL", "TRAIN") and canonical.startswith("tf.estimator.ModeKeys.")


def on_mode_only(test, ctx) -> bool:
    """`assert mode == ModeKeys.TRAIN`: a comparison of `mode` with a mode key, nothing else."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return False
    sides = [test.left, test.comparisons[0].comparator]
    keys = [s for s in sides if (ctx.resolve(s)[1] or "").startswith("tf.estimator.ModeKeys.")]
    return len(keys) == 1 and any(isinstance(s, cst.Name) and s.value == "mode" for s in sides)


TPU_SPEC_PARAMS = ("mode", "predictions", "loss", "train_op", "eval_metrics", "export_outputs", "scaffold_fn",
                   "host_call", "training_hooks", "evaluation_hooks", "prediction_hooks")
TPU_ONLY = {
    "host_call": "write the summaries with tf.summary in a Keras callback (or TensorBoard) by hand",
    "scaffold_fn": "restore the initial checkpoint with tf.train.Checkpoint(...).restore by hand before fit",
}
TPU_SPECS = {"tf.estimator.tpu.TPUEstimatorSpec", "tf.contrib.tpu.TPUEstimatorSpec"}


def estimator_spec(expr, ctx) -> Optional[dict]:
    """The arguments of an `EstimatorSpec(...)` or `TPUEstimatorSpec(...)`, by name."""
    canonical = ctx.resolve(expr.func)[1] if isinstance(expr, cst.Call) else None
    if canonical == "tf.estimator.EstimatorSpec":
        return bind(expr, SPEC_PARAMS, "EstimatorSpec")
    if canonical in TPU_SPECS:
        return bind(expr, TPU_SPEC_PARAMS, "TPUEstimatorSpec")
    return None


def tpu_return(stmt, ctx) -> bool:
    """`if params["use_tpu"]: return TPUEstimatorSpec(...)` (the plain EstimatorSpec follows, or is its `else:`):
    both describe the same model, Keras needs one; the switch itself becomes the strategy's."""
    if not (isinstance(stmt, cst.If) and (stmt.orelse is None or isinstance(stmt.orelse, cst.Else))
            and "use_tpu" in source(stmt.test)):
        return False
    blocks = [stmt.body] + ([stmt.orelse.body] if stmt.orelse is not None else [])
    return all(len(block.body) == 1 and _returns_spec(block.body[0], ctx) for block in blocks)


def _returns_spec(inner, ctx) -> bool:
    return (isinstance(inner, cst.SimpleStatementLine) and len(inner.body) == 1
            and isinstance(inner.body[0], cst.Return) and estimator_spec(inner.body[0].value, ctx) is not None)


def is_cross_shard(call, ctx) -> bool:
    """`tf1.tpu.CrossShardOptimizer(opt)`: Keras under TPUStrategy sums the replicas' gradients itself."""
    return isinstance(call, cst.Call) and ctx.resolve(call.func)[1] in ("tf.tpu.CrossShardOptimizer",
                                                                        "tf.contrib.tpu.CrossShardOptimizer")


def deletes(stmt, name: str) -> bool:
    """`del name` (`del config  # unused`): no use of the argument."""
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Del) \
        and isinstance(stmt.body[0].target, cst.Name) and stmt.body[0].target.value == name


def reads_argument(fn: cst.FunctionDef, name: str) -> bool:
    """Does the function read its argument `name` anywhere but in `del name`?"""
    from tf2migrate.rules.estimator.syntax.kept_source import names_in

    return any(name in names_in(s) for s in fn.body.body if not deletes(s, name))


def is_docstring(stmt) -> bool:
    return (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.Expr)
            and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def is_update_ops(call, ctx) -> bool:
    return (ctx.resolve(call.func)[1] == "tf.get_collection" and len(call.args) == 1
            and ctx.resolve(call.args[0].value)[1] == "tf.GraphKeys.UPDATE_OPS")


def is_summary(expr, ctx) -> bool:
    return isinstance(expr, cst.Call) and (ctx.resolve(expr.func)[1] or "").startswith("tf.summary.")
