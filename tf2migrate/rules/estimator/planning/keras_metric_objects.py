"""A Keras metric object in eval_metric_ops: `acc = tf.keras.metrics.BinaryAccuracy(); acc.update_state(y, p)`.

TF1's Estimator took a Keras `Metric` as an eval_metric_ops value (it ran its update ops and read `result()`),
and TF's own distribute examples do so. Made in the model_fn, such an object would be made anew at every trace
of test_step, which tf.function refuses; in the general conversion (model_subclass.py) it is made once, in the model's
`__init__` under the eval_metric_ops key (the key Estimator.evaluate reported), and its one `update_state` call of
the model_fn is test_step's update. The class is written `tf.keras.metrics.X` (also when the program imported it
from the private `tensorflow.python.keras`, which TF 2.16+ lacks); its keyword arguments but `name` are kept.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.syntax.args import Unreadable

PREFIXES = ("tf.keras.metrics.", "tf.python.keras.metrics.")


def made(value, ctx) -> Optional[str]:
    """The Keras metric class a call makes (`BinaryAccuracy`), or None when it is not a Keras metric's constructor."""
    canonical = ctx.resolve(value.func)[1] if isinstance(value, cst.Call) else None
    for prefix in PREFIXES:
        if canonical and canonical.startswith(prefix) and canonical[len(prefix):][:1].isupper() \
                and "." not in canonical[len(prefix):]:
            return canonical[len(prefix):]
    return None


def update(stmt, objects: dict):
    """(name, update_state call) when `stmt` is `name.update_state(...)` of one of the metric objects, else None."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    call = small.value if isinstance(small, cst.Expr) else None
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "update_state" \
            and isinstance(call.func.value, cst.Name) and call.func.value.value in objects:
        return call.func.value.value, call
    return None


def metric(key, name: str, env):
    """(Keras class, update_state's arguments, constructor keywords) of the metric object bound to `name`."""
    call = env.keras_metrics[name]
    if any(a.keyword is None for a in call.args):
        raise Unreadable(call, "a Keras metric made with positional arguments in eval_metric_ops: write them as "
                         "keywords, or convert by hand")
    updates = env.metric_updates.get(name, [])
    if len(updates) != 1:
        raise Unreadable(call, f"a Keras metric in eval_metric_ops updated {len(updates)} times in the model_fn (the "
                         "conversion makes it once and updates it once per test step): convert by hand")
    args = []
    for arg in updates[0].args:
        if arg.star:
            raise Unreadable(arg, "update_state(*args) of an eval metric: convert by hand")
        args.append((arg.keyword.value, arg.value) if arg.keyword is not None else arg.value)
    keywords = [a for a in call.args if a.keyword.value != "name"]
    return made(call, env.ctx), args, keywords
