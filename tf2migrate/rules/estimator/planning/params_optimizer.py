"""An optimizer class the model_fn takes from its params: `opt = params.get("optimizer", tf1.train.AdamOptimizer)`.

TensorFlow's own regression example passes the class in the Estimator's params (`params={"optimizer":
tf.train.AdamOptimizer, ...}`) and makes the optimizer in the model_fn: `optimizer = optimizer(lr)`. The class is
known when the Estimator is given a dict literal (or a name bound to one): the key's value there, else the
`.get` default (there spelled `tf.compat.v1.train.X`, `respelled`). The general conversion (setup_statements.py) then reads `optimizer(lr)` as that TF1 optimizer made
with those arguments, so compile gets the Keras optimizer with TF1's numbers (optimizers.py); the params entry
stays, unread by the model. A class the conversion cannot know (params built at run time) raises Unreadable.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.planning.optimizers import TF1_OPTIMIZERS
from tf2migrate.rules.estimator.syntax.args import Unreadable


def given(bound: dict, values: dict) -> Optional[cst.Dict]:
    """The params dict literal the Estimator is given (`params={...}`, or a name bound to one; an empty one when it
    is given none, as TF1 gave the model_fn `{}`), or None when the conversion cannot read it."""
    if "params" not in bound:
        return cst.Dict([])
    value = bound["params"]
    if isinstance(value, cst.Name):
        value = values.get(value.value)
    return value if isinstance(value, cst.Dict) else None


def read(value, ctx) -> Optional[cst.BaseExpression]:
    """For `params.get("k", default)` or `params["k"]`: the key (None when `value` is neither)."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "get" \
            and _is_params(value.func.value) and 1 <= len(value.args) <= 2 \
            and all(a.keyword is None and not a.star for a in value.args):
        return value.args[0].value
    if isinstance(value, cst.Subscript) and _is_params(value.value) and len(value.slice) == 1 \
            and isinstance(value.slice[0].slice, cst.Index):
        return value.slice[0].slice.value
    return None


def optimizer_class(value, params: Optional[cst.Dict], ctx) -> Optional[cst.BaseExpression]:
    """The TF1 optimizer class `value` (a params read) names, or None when its default names none and the key is not
    given one; raises Unreadable when it may name an optimizer that the conversion cannot know."""
    key = read(value, ctx)
    if not isinstance(key, cst.SimpleString):
        return None
    default = value.args[1].value if isinstance(value, cst.Call) and len(value.args) == 2 else None
    entry = _entry(params, key.evaluated_value) if params is not None else None
    chosen = entry if entry is not None else default
    if not (_is_optimizer(default, ctx) or _is_optimizer(entry, ctx)):
        return None
    if params is None:
        raise Unreadable(value, "an optimizer class taken from params, which the Estimator is not given as a dict "
                         "literal: the conversion cannot know which Keras optimizer to make; pass the optimizer's "
                         "class in a dict literal, or convert by hand")
    if not _is_optimizer(chosen, ctx):
        raise Unreadable(value, f"params[{key.value}] is not a TF1 optimizer class the conversion knows "
                         f"({', '.join(sorted(k.rsplit('.', 1)[1] for k in TF1_OPTIMIZERS))}): convert by hand")
    return chosen


def made(call: cst.Call, cls: cst.BaseExpression) -> cst.Call:
    """`optimizer(lr)` as the TF1 constructor call it is (`tf1.train.AdamOptimizer(lr)`), for optimizers.py."""
    return call.with_changes(func=cls)


def respelled(params: cst.BaseExpression, w) -> cst.BaseExpression:
    """The params dict with its TF1 optimizer classes spelled `tf.compat.v1.train.X` (TF2 has no `tf.train.X`): the
    model no longer reads them, but the program's dict is kept as it was, and must still run."""

    class _Respell(cst.CSTTransformer):
        def leave_Attribute(self, original, updated):
            canonical = w.ctx.resolve(original)[1]
            if canonical in TF1_OPTIMIZERS and ".compat." not in (w.ctx.resolve(original)[0] or ""):
                return cst.parse_expression(w.tf("tf.compat.v1." + canonical[len("tf."):]))
            return updated

    return params.visit(_Respell())


def _entry(params: cst.Dict, key: str):
    found = None
    for element in params.elements:
        if not isinstance(element, cst.DictElement):
            return None  # `**other`: the key may come from elsewhere
        if isinstance(element.key, cst.SimpleString) and element.key.evaluated_value == key:
            found = element.value
    return found


def _is_optimizer(value, ctx) -> bool:
    return value is not None and ctx.resolve(value)[1] in TF1_OPTIMIZERS


def _is_params(node) -> bool:
    return isinstance(node, cst.Name) and node.value == "params"
