"""eval_metric_ops built by a helper: `eval_metric_ops=metric_fn(labels, predictions)`, the helper returning a dict.

Programs often put their metrics in a function of the module (`def metric_fn(labels, logits): accuracy =
tf1.metrics.accuracy(...); return {"accuracy": accuracy}`). The general conversion (model_subclass.py) reads the dict that
call returns, with the helper's parameters replaced by the call's arguments and its local names by what they were
assigned, so each metric maps like one written in the model_fn. A helper with any other statement is not read.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.reading.spec import is_docstring
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind


def returned_dict(call, defs: dict) -> Optional[cst.Dict]:
    """The dict `call` of a helper in `defs` returns, in the caller's terms; None when it is no such helper."""
    fn = defs.get(call.func.value) if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) else None
    if not isinstance(fn, cst.FunctionDef) or isinstance(fn.params.star_arg, cst.Param) or fn.params.star_kwarg \
            or fn.params.kwonly_params:
        return None
    params = tuple(p.name.value for p in fn.params.params)
    try:
        values = dict(bind(call, params, fn.name.value))
    except Unreadable:
        return None
    if set(params) - set(values):
        return None  # a default value: not read
    body = [s for s in fn.body.body if not is_docstring(s)]
    for stmt in body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                and stmt is not body[-1]:
            values[small.targets[0].target.value] = small.value.visit(_Names(values))
        elif isinstance(small, cst.Return) and stmt is body[-1] and small.value is not None:
            made = small.value.visit(_Names(values))
            return made if isinstance(made, cst.Dict) else None
        else:
            return None
    return None


class _Names(cst.CSTTransformer):
    """Names replaced by expressions (not attribute names, nor keywords)."""

    def __init__(self, values: dict) -> None:
        super().__init__()
        self.values = values

    def leave_Name(self, original, updated):
        return self.values.get(original.value, updated)

    def leave_Attribute(self, original, updated):
        return updated.with_changes(attr=original.attr)

    def leave_Arg(self, original, updated):
        return updated.with_changes(keyword=original.keyword)
