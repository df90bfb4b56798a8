"""Weight decay written into the loss: `loss + wd * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()])`.

TF1 model_fns add an L2 penalty over the graph's trainable variables to the loss. Keras adds the losses a
model collects (`model.add_loss`) to the compiled loss at every step, after it: the same sum in the same
order. The penalty is kept as written in a `lambda`, over `model.trainable_variables` (the variables of the
model, which are the graph's trainable variables of the model_fn). The loss may be written in one
expression, or the penalty added to the loss variable in a later statement (`loss += ...`).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in

TRAINABLE = "tf.trainable_variables"


def split(value, ctx, read_loss):
    """(loss, penalty) for `<TF1 loss> + <penalty>`, None when `value` is not that shape."""
    if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)):
        return None
    loss = read_loss(value.left, ctx) if isinstance(value.left, cst.Call) else None
    if loss is None or not is_penalty(value.right, ctx):
        return None
    return loss, value.right


def is_penalty(expr, ctx) -> bool:
    """An expression over `tf.trainable_variables()` (and nothing of the model_fn: checked by `check`)."""
    found = []

    class _V(cst.CSTVisitor):
        def visit_Call(self, node):
            if ctx.resolve(node.func)[1] == TRAINABLE and not node.args:
                found.append(node)

    expr.visit(_V())
    return bool(found)


def check(penalty, model_names: set) -> None:
    """The penalty may read module names and params, not the model_fn's tensors; raises Unreadable."""
    local = set()

    class _V(cst.CSTVisitor):
        def visit_CompFor(self, node):
            local.update(names_in(node.target))

    penalty.visit(_V())
    used = (names_in(penalty) - local) & model_names
    if used:
        raise Unreadable(penalty, f"the loss penalty reads `{sorted(used)[0]}` of the model_fn: convert by hand")


class _OnModel(cst.CSTTransformer):
    def __init__(self, ctx, model_var: str) -> None:
        self.ctx, self.model_var = ctx, model_var

    def leave_Call(self, original, updated):
        if self.ctx.resolve(original.func)[1] == TRAINABLE and not original.args:
            return cst.Attribute(cst.Name(self.model_var), cst.Name("trainable_variables"))
        return updated


def render(penalty, w) -> cst.BaseStatement:
    """`model.add_loss(lambda: <penalty over model.trainable_variables>)`."""
    on_model = penalty.visit(_OnModel(w.ctx, w.model_var))
    return templates.statement("{model}.add_loss(lambda: {penalty})", w, model=w.model_var, penalty=w.text(on_model))


def penalty(reader, expr, name) -> None:
    """Record the penalty of a `_Reader` (model_fn_statements.py): it may read params and module names, not tensors."""
    plan = reader.plan
    if plan.penalty is not None:
        raise Unreadable(expr, "a second penalty added to the loss: convert by hand")
    check(expr, set(reader.env) | {s.name for s in plan.chain.steps} | {"features", "labels", "mode"})
    plan.penalty, plan.penalized = expr, name
    plan.notes.append((expr, "TFM319", None))


def added_penalty(reader, name, value) -> bool:
    """`loss = loss + wd * tf.add_n(...)` after the loss: the penalty joins it."""
    if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)
            and isinstance(value.left, cst.Name) and reader.env.get(value.left.value) == ("loss",)
            and is_penalty(value.right, reader.ctx)):
        return False
    penalty(reader, value.right, name)
    reader.env[name] = ("loss",)
    reader.plan.tensors.add(name)
    return True
