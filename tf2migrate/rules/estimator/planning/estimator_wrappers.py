"""`est = add_metrics(est, metric_fn)` and `est = forward_features(est, key)` after a canned estimator.

TF1 wrapped a built Estimator to add evaluation metrics (`tf.contrib.estimator.add_metrics`, later
`tf.estimator.add_metrics`) or to copy input features into its predictions (`forward_features`, for batch
prediction keys). The metric function's `{name: tf.metrics.X(labels, predictions["predictions"])}` becomes the
Keras metric computing the same number from the model's output, compiled with the model (metrics.py), so
`evaluate` reports it under the same name. `forward_features` only changed what predict returned: the Keras
model predicts its output alone, which is said (TFM335); a program that predicts is left as it was.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning.metrics import read_metric
from tf2migrate.rules.estimator.planning.plan_types import canned
from tf2migrate.rules.estimator.reading.spec import is_docstring
from tf2migrate.rules.estimator.reading.uses import assignment, callee
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.syntax.args import Unreadable

ADD_METRICS = frozenset({"tf.contrib.estimator.add_metrics", "tf.estimator.add_metrics"})
FORWARD = frozenset({"tf.contrib.estimator.forward_features", "tf.estimator.experimental.forward_features"})
CODE = "TFM335"
FORWARD_NOTE = ("forward_features dropped: it only copied input features into predict's output, and the Keras model "
                "predicts its output alone; predict the keys alongside by hand if you need them")


def read(module: cst.Module, prog, ctx) -> None:
    """Take the wrapping statements out of the program (`prog.removed`), their metrics into the canned plan."""
    for i, stmt in enumerate(module.body):
        name, value = assignment(stmt)
        wrapper = callee(value, ctx) if value is not None and i > prog.estimator else None
        if wrapper not in ADD_METRICS | FORWARD or name != prog.var:
            continue
        args = value.args
        if not args or args[0].keyword is not None or not (isinstance(args[0].value, cst.Name)
                                                             and args[0].value.value == prog.var):
            continue  # wraps another Estimator: the uses check reports it
        prog.removed.add(i)
        if not canned(prog.model):
            prog.blockers.append(Unreadable(value, f"`{wrapper}` of an Estimator with a model_fn: put the metric in "
                                            "its eval_metric_ops (or drop the wrapper), then convert"))
        elif wrapper in FORWARD:
            prog.model.notes.append((value, CODE, FORWARD_NOTE))
        else:
            _add_metrics(module, prog, ctx, value)


def _add_metrics(module, prog, ctx, call) -> None:
    fn = call.args[1].value if len(call.args) == 2 and call.args[1].keyword is None else None
    node = prog.defs.get(fn.value) if isinstance(fn, cst.Name) else None
    if not isinstance(node, cst.FunctionDef):
        prog.blockers.append(Unreadable(fn or call, "add_metrics with a metric function that is not a function "
                                        "defined at the top level of this file: convert by hand"))
        return
    try:
        prog.model.metrics.extend(_metrics(node, prog, ctx))
    except Unreadable as problem:
        prog.blockers.append(problem)
        return
    if kept_source.references(module, fn.value) == 1:  # only the wrapper used it: it goes with it
        prog.removed.add(next(i for i, stmt in enumerate(module.body) if stmt is node))


def _metrics(fn: cst.FunctionDef, prog, ctx) -> list:
    """`def f(labels, predictions): p = predictions["predictions"]; return {"rmse": tf.metrics.X(labels, p)}`."""
    params = [p.name.value for p in fn.params.params]
    if params[:2] != ["labels", "predictions"] or fn.params.kwonly_params or fn.params.star_kwarg \
            or isinstance(fn.params.star_arg, cst.Param):
        raise Unreadable(fn.params, "a metric function whose parameters are not (labels, predictions): convert by hand")
    if "Regressor" not in prog.model.canonical:
        raise Unreadable(fn.name, "add_metrics on a canned classifier (its predictions dict holds logistic, "
                         "probabilities, class_ids...): convert by hand")
    aliases, result = {}, None
    for stmt in fn.body.body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        name, value = assignment(stmt)
        if is_docstring(stmt):
            continue
        if name is not None and _is_output(value, aliases):
            aliases[name] = value
        elif isinstance(small, cst.Return) and isinstance(small.value, cst.Dict):
            result = small.value
        else:
            raise Unreadable(stmt, "statement not understood in an add_metrics function: convert by hand")
    if result is None:
        raise Unreadable(fn.name, "an add_metrics function that does not return a dict literal: convert by hand")
    out = []
    for el in result.elements:
        if not isinstance(el, cst.DictElement):
            raise Unreadable(el, "`**` in the metrics dict: convert by hand")
        made = read_metric(el.key, el.value, ctx, lambda expr: "output" if _is_output(expr, aliases) else None)
        if made is not None:
            out.append(made)
    return out


def _is_output(expr, aliases) -> bool:
    """`predictions["predictions"]` (the regressor's output), or a name assigned it."""
    if isinstance(expr, cst.Name) and expr.value in aliases:
        return True
    return isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and expr.value.value == "predictions" \
        and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index) \
        and isinstance(expr.slice[0].slice.value, cst.SimpleString) \
        and expr.slice[0].slice.value.evaluated_value == "predictions"
