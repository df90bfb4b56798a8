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


def plan(model, ctx):
    """A ShimPlan when the forward pass separates cleanly, else None."""
    if model.loss is None or model.optimizer is None or model.blockers or model.uses_params:
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
        if names_in(s) & {"labels", "mode", "params"}:
            return None
        bound |= _targets(s)
    if model.loss.output.value not in bound:
        return None
    base = model.node.name.value
    camel = "".join(p.capitalize() for p in base.split("_") if p)
    name = ("_" if base.startswith("_") else "") + camel + "Layer"
    return ShimPlan(name, [i for i in model.forward_indices if not is_docstring(body[i])], model.loss.output.value,
                    model.node)


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
    kept = cst.Module(body=[fn.body.body[k] for k in shim.statements], default_indent=i).code
    inner = "".join(f"{i}{i}{line}\n" if line.strip() else "\n" for line in kept.rstrip("\n").split("\n"))
    shim.name = w.fresh(shim.name)
    return (f"class {shim.name}({w.tf('tf.keras.layers.Layer')}):\n"
            f'{i}"""The forward pass of `{shim.node.name.value}`, kept as written: Keras tracks its TF1 variables."""\n\n'
            f"{i}@{w.tf('tf.compat.v1.keras.utils.track_tf1_style_variables')}\n"
            f"{i}def call(self, features):\n{inner}{i}{i}return {shim.output}\n")
