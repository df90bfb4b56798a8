"""The model-mapping shim: a forward pass that does not convert is kept verbatim in a Keras layer.

TF's `tf.compat.v1.keras.utils.track_tf1_style_variables` lets a Keras layer's `call` create variables
with `tf1.get_variable` and `tf1.layers` and tracks them as the layer's weights. That is only sound
when the forward pass can be cut cleanly from the rest: it reads `features` alone (not `labels` or
`mode`), ends in the tensor the loss uses, and everything after it (loss, optimizer, metrics) converts.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.rules.estimator.render import names_in
from tf2migrate.rules.estimator.spec import is_docstring


@dataclass
class ShimPlan:
    name: str
    statements: list  # indices in the model_fn body
    output: str
    node: cst.CSTNode
    params: bool = False  # the forward pass reads params: the layer gets them in its constructor
    training: bool = False  # it reads `mode == ModeKeys.TRAIN`: the layer's `training` argument
    ctx: object = None


def _mode_uses(stmt, ctx):
    """Whether `stmt` tests `mode == ModeKeys.TRAIN` (or `!=`); None if it reads `mode` any other way (Keras
    only tells a layer whether it trains)."""
    rewritten = stmt.visit(_Training(ctx))
    if "mode" in names_in(rewritten):
        return None
    return not rewritten.deep_equals(stmt)


def _train_test(node, ctx):
    """True for `mode == ModeKeys.TRAIN`, False for `mode != ModeKeys.TRAIN`, else None."""
    if not (isinstance(node, cst.Comparison) and len(node.comparisons) == 1):
        return None
    op, sides = node.comparisons[0].operator, (node.left, node.comparisons[0].comparator)
    if not isinstance(op, (cst.Equal, cst.NotEqual)) or not any(isinstance(x, cst.Name) and x.value == "mode"
                                                                for x in sides):
        return None
    if not any(ctx.resolve(x)[1] == "tf.estimator.ModeKeys.TRAIN" for x in sides):
        return None
    return isinstance(op, cst.Equal)


class _Training(cst.CSTTransformer):
    """`mode == ModeKeys.TRAIN` -> `training`, `mode != ModeKeys.TRAIN` -> `not training`."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx

    def leave_Comparison(self, original, updated):
        test = _train_test(original, self.ctx)
        if test is None:
            return updated
        name = cst.Name("training", lpar=original.lpar, rpar=original.rpar)
        return name if test else cst.UnaryOperation(cst.Not(), cst.Name("training"), lpar=original.lpar,
                                                    rpar=original.rpar)


def plan(model, ctx):
    """A ShimPlan when the forward pass separates cleanly, else None."""
    if model.loss is None or model.optimizer is None or model.blockers:
        return None
    if not all(getattr(p, "shimmable", False) for p in model.forward_blockers):
        return None
    if not isinstance(model.loss.output, cst.Name) or model.predictions is not None:
        return None
    body = model.node.body.body
    stmts = [body[i] for i in model.forward_indices if i < len(body)]
    stmts = [s for s in stmts if not is_docstring(s)]
    bound = set()
    for s in stmts:
        if "labels" in names_in(s) or _mode_uses(s, ctx) is None:
            return None
        bound |= _targets(s)
    if model.loss.output.value not in bound:
        return None
    base = model.node.name.value
    camel = "".join(p.capitalize() for p in base.split("_") if p)
    name = ("_" if base.startswith("_") else "") + camel + "Layer"
    return ShimPlan(name, [i for i in model.forward_indices if not is_docstring(body[i])], model.loss.output.value,
                    model.node, any("params" in names_in(s) for s in stmts),
                    any(_mode_uses(s, ctx) for s in stmts), ctx)


def _targets(stmt) -> set:
    out = set()

    class _V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            if isinstance(node.target, cst.Name):
                out.add(node.target.value)

    stmt.visit(_V())
    return out


def layer_class(shim: ShimPlan, w) -> str:
    """Source of the layer class: the kept statements come from the (updated) model_fn, re-indented."""
    i = w.indent
    fn = w.updated_model_fn
    statements = [fn.body.body[k] for k in shim.statements]
    if shim.training:
        statements = [stmt.visit(_Training(shim.ctx)) for stmt in statements]
    kept = cst.Module(body=statements, default_indent=i).code
    if shim.params:
        kept = "params = self.params\n" + kept
    inner = "".join(f"{i}{i}{line}\n" if line.strip() else "\n" for line in kept.rstrip("\n").split("\n"))
    shim.name = w.fresh(shim.name)
    init = (f"{i}def __init__(self, params, **kwargs):\n{i}{i}super().__init__(**kwargs)\n"
            f"{i}{i}self.params = params\n\n") if shim.params else ""
    signature = "self, features, training=None" if shim.training else "self, features"
    return (f"class {shim.name}({w.tf('tf.keras.layers.Layer')}):\n"
            f'{i}"""The forward pass of `{shim.node.name.value}`, kept as written: Keras tracks its TF1 variables."""\n\n'
            f"{init}{i}@{w.tf('tf.compat.v1.keras.utils.track_tf1_style_variables')}\n"
            f"{i}def call({signature}):\n{inner}{i}{i}return {shim.output}\n")


def construct(shim: ShimPlan) -> str:
    """The layer's construction in the builder (after `layer_class` named it)."""
    return f"{shim.name}(params)" if shim.params else f"{shim.name}()"
