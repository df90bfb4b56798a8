"""`TPUEstimatorSpec(eval_metrics=(metric_fn, [labels, logits]))` -> the same Keras metrics as eval_metric_ops.

On a TPU the metrics are computed on the host by `metric_fn` from the tensors listed next to it. Its
body is the eval_metric_ops idiom in a function: derived values, `tf1.metrics.*` calls, and a returned
dict. It is read as if written in the model_fn, with its parameters standing for the listed tensors, so
the metric mapping (metrics.py) applies unchanged.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.reading.spec import is_docstring
from tf2migrate.rules.estimator.syntax.args import Unreadable


def is_pair(value, functions: dict) -> bool:
    """`(metric_fn, tensors)`: a 2-tuple whose first element names a function the model_fn can see."""
    return isinstance(value, cst.Tuple) and len(value.elements) == 2 and isinstance(value.elements[0].value, cst.Name) \
        and isinstance(functions.get(value.elements[0].value.value), cst.FunctionDef)


def read(reader, value, defs: dict) -> None:
    """Read `(metric_fn, tensors)` into the reader's plan; raises Unreadable."""
    if not (isinstance(value, cst.Tuple) and len(value.elements) == 2 and isinstance(value.elements[0].value, cst.Name)):
        raise Unreadable(value, "eval_metrics that is not a (metric_fn, tensors) tuple: convert by hand")
    name, tensors = value.elements[0].value.value, value.elements[1].value
    fn = reader.local_functions.get(name) or defs.get(name)
    if name not in reader.local_functions:
        reader.plan.metric_fns.add(name)  # goes with the model_fn when nothing else uses it
    if not isinstance(fn, cst.FunctionDef) or fn.params.star_arg is not cst.MaybeSentinel.DEFAULT \
            or fn.params.star_kwarg or fn.params.kwonly_params:
        raise Unreadable(value, f"`{name}` is not a function of this file with plain parameters: convert by hand")
    params = [p.name.value for p in fn.params.params]
    given = _given(tensors, params, value)
    renamed = {p: t for p, t in given.items() if p != t}
    body = [s for s in fn.body.body if not is_docstring(s)]
    rename = _Rename(renamed)
    if renamed:  # metric_fn(y, scores) over [labels, logits]: read it with the model_fn's names
        body = [s.visit(rename) for s in body]
    first = len(reader.plan.metrics)
    try:
        _read_body(reader, body, name, given, fn)
    except Unreadable as problem:  # reported where it is written, not on the renamed copy
        problem.node = rename.origin.get(id(problem.node), problem.node)
        raise
    for metric in reader.plan.metrics[first:]:
        metric.node = rename.origin.get(id(metric.node), metric.node)


def _read_body(reader, body, name, given, fn) -> None:
    for stmt in body[:-1]:
        for target in _targets(stmt):
            if target in reader.env or target in {s.name for s in reader.plan.chain.steps} or target in given.values():
                raise Unreadable(stmt, f"`{target}` in {name} shadows a name of the model_fn: rename it")
        reader.statement(stmt, -1)
    last = body[-1] if body else fn
    ret = last.body[0] if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 else None
    if not isinstance(ret, cst.Return) or ret.value is None:
        raise Unreadable(last, f"{name} does not end by returning its metrics dict: convert by hand")
    reader.metrics(ret.value)


def _given(tensors, params, node) -> dict:
    """metric_fn parameter -> the model_fn local it receives."""
    if isinstance(tensors, (cst.List, cst.Tuple)):
        values = [e.value for e in tensors.elements]
        if len(values) != len(params):
            raise Unreadable(node, "metric_fn called with a different number of tensors than it takes")
        pairs = zip(params, values)
    elif isinstance(tensors, cst.Dict):
        pairs = [(e.key.evaluated_value if isinstance(e.key, cst.SimpleString) else None, e.value)
                 for e in tensors.elements if isinstance(e, cst.DictElement)]
        if {p for p, _ in pairs} != set(params):
            raise Unreadable(node, "metric_fn's tensors dict does not name exactly its parameters")
    else:
        raise Unreadable(tensors, "metric_fn tensors that are not a list or dict literal: convert by hand")
    out = {}
    for param, value in pairs:
        if not isinstance(value, cst.Name):
            raise Unreadable(value, "metric_fn tensor that is not a name of the model_fn: assign it to a name first")
        out[param] = value.value
    return out


def _targets(stmt) -> list:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        return [t.target.value for t in stmt.body[0].targets if isinstance(t.target, cst.Name)]
    return []


class _Rename(cst.CSTTransformer):
    """Renames names that are read; attribute names and keywords (`labels=labels`) keep theirs."""

    def __init__(self, names: dict) -> None:
        self.names = names
        self.origin: dict = {}  # id of a renamed call or statement -> the one written in metric_fn

    def on_leave(self, original, updated):
        updated = super().on_leave(original, updated)
        if isinstance(updated, (cst.Call, cst.SimpleStatementLine, cst.BaseExpression)):
            self.origin[id(updated)] = original
        return updated

    def leave_Name(self, original, updated):
        return updated.with_changes(value=self.names[updated.value]) if updated.value in self.names else updated

    def leave_Attribute(self, original, updated):
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original, updated):
        return updated.with_changes(keyword=original.keyword)
