"""What a model_fn converted to a Keras Model subclass (model_subclass.py) runs in test_step and predict_step.

The EVAL and PREDICT runs of the model_fn (modes.py) after the forward pass, which `call` already holds: the
evaluation loss and metrics, the PREDICT dict and only the statements it needs. A mode whose spec has no loss
(or no predictions) gets no step.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.default_path import metric_ops, kept_statements
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in


def evaluate(result, run, env, ctx, defs) -> None:
    evaluate, spec_e = run
    if spec_e.get("loss") is None or _only_default(spec_e["loss"], evaluate, env):
        return
    seen = {id(s) for s in evaluate} | {id(result.twins[id(s)]) for s in evaluate if id(s) in result.twins}
    for stmt in result.forward:
        if id(stmt) not in seen:
            raise Unreadable(stmt, "a statement of the forward pass that the model_fn runs in training only: "
                             "write it with `training=mode == ModeKeys.TRAIN` or convert by hand")
    skip = _not_stepped(result)
    result.evaluate = [s for s in env.kept(evaluate) if id(s) not in skip]
    result.eval_loss = spec_e["loss"]
    if "eval_metric_ops" in spec_e:
        result.metrics = metric_ops.read(spec_e["eval_metric_ops"], env, ctx, defs)


def predict(result, run, env) -> None:
    predict, spec_p = run
    if spec_p.get("predictions") is None or _only_default(spec_p["predictions"], predict, env):
        return
    skip = _not_stepped(result)
    result.predict = _live([s for s in env.kept(predict) if id(s) not in skip],
                           names_in(spec_p["predictions"]))
    result.predict_output = spec_p["predictions"]
    for stmt in result.predict:
        if "labels" in names_in(stmt):
            raise Unreadable(stmt, "the PREDICT computation reads `labels`: convert by hand")


def _only_default(value, stmts, env) -> bool:
    """`loss=loss` where the run only bound `loss = None` (the template's default; TF1 had no loss in that mode)."""
    if not isinstance(value, cst.Name):
        return False
    return value.value not in kept_statements.bound_in(env.kept(stmts)) and value.value in kept_statements.bound_in(stmts)


def _not_stepped(result) -> set:
    """Statements test_step and predict_step do not repeat: the forward pass (in `call`), the gradients (computed
    in TF1's EVAL graph too, never run there)."""
    return {id(s) for s in [*result.forward, *result.gradients]} | set(result.twins)


def _live(stmts, needed: set) -> list:
    """The statements a step needs for `needed`: a loss computed before the PREDICT return is not (and reads the
    labels predict has not); a statement that binds nothing (a log) stays."""
    out = []
    for stmt in reversed(stmts):
        bound = set(kept_statements.bound_in([stmt]))
        if not bound or bound & needed:
            out.insert(0, stmt)
            needed = (needed - bound) | names_in(stmt)
    return out
