"""The forward pass of a `model_fn`: a chain of layers from `features` to the tensor the loss uses.

Each assignment either applies a layer to the end of the chain, or derives a value from chain tensors
for the predictions (`argmax`, `softmax`); whatever else it does (`get_variable`, collections,
`tf.contrib`, `tf.cond`) is a blocker that names the construct. Layers after the loss's tensor that are
plain activations (`probabilities = tf.nn.softmax(logits)`) move to the predictions.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator.idiomatic.chain import Step
from tf2migrate.rules.estimator.idiomatic.layers import read_layer, read_scaling, read_selection
from tf2migrate.rules.estimator.planning import contrib_gone
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in

DERIVING = {"tf.argmax", "tf.math.argmax", "tf.nn.softmax", "tf.nn.sigmoid", "tf.sigmoid", "tf.math.sigmoid",
            "tf.round", "tf.cast", "tf.squeeze", "tf.expand_dims", "tf.nn.log_softmax"}
SCOPES = {"tf.variable_scope", "tf.name_scope"}
WHY = {
    "tf.get_variable": "`tf.get_variable` outside a layer: the forward pass needs the Keras shim "
                       "(track_tf1_style_variables) or a Keras layer",
    "tf.get_collection": "graph collections do not exist in TF2: keep state in Keras layers or metrics",
    "tf.add_to_collection": "graph collections do not exist in TF2: keep state in Keras layers or metrics",
    "tf.cond": "`tf.cond` in the forward pass (often on the mode): Keras passes `training` to layers instead",
    "tf.placeholder": "placeholders do not exist in TF2: feed data through the input function",
}


def _calls(expr, ctx) -> list:
    found = []

    class V(cst.CSTVisitor):
        def visit_Call(self, node):
            found.append((node, ctx.resolve(node.func)[1]))

    expr.visit(V())
    return found


SHIMMABLE = {"tf.get_variable"}


def _why(expr, ctx):
    """(node, message, shimmable): why a forward statement does not convert, and whether the shim may keep it."""
    for node, canonical in _calls(expr, ctx):
        if canonical and canonical.startswith("tf.contrib."):
            return node, contrib_gone.why(canonical), False
        if canonical in WHY:
            return node, WHY[canonical], canonical in SHIMMABLE
    return expr, "not a layer the converter knows: use a Keras layer, or convert the Estimator by hand", True


def read_assign(name, value, stmt, plan, ctx, layers=True) -> None:
    """Record `name = value` (after the loss only values derived for metrics and predictions, no layers);
    raises Unreadable (and taints `name`) when it does not convert."""
    chain = plan.chain
    if names_in(value) & chain.tainted:
        chain.tainted.add(name)
        problem = Unreadable(value, "uses a value that does not convert (reported above)")
        problem.shimmable, problem.cascade = True, True
        raise problem
    try:
        _read_assign(name, value, stmt, chain, ctx, layers)
    except Unreadable:
        chain.tainted.add(name)
        raise


def _read_assign(name, value, stmt, chain, ctx, layers) -> None:
    layer = read_layer(value, ctx) if isinstance(value, cst.Call) else read_selection(value) \
        or read_scaling(value, chain.end())
    if layer is not None and not layers:
        raise Unreadable(stmt, "a layer after the loss: convert the Estimator by hand")
    if isinstance(value, cst.Name) and value.value == chain.end() and layers:
        chain.alias = name  # `net = features`: the next layer reads `net`
        return
    if layer is not None:
        nested = _nested(layer, ctx)  # dense(dense(x, 12), 1): the innermost layer first
        head = read_selection(nested[0].input)  # reshape(features["x"], ...): the feature picked first
        if head is not None and not chain.layers and isinstance(head.input, cst.Name) \
                and head.input.value == chain.end():
            nested = [head, *nested]
        first = nested[0]
        if not (isinstance(first.input, cst.Name) and first.input.value == chain.end()):
            what = source(first.input)
            problem = Unreadable(first.input, f"layer input `{what}` is not the previous layer's output: "
                                 "a non-sequential model needs converting by hand")
            problem.shimmable = True  # kept as written in a layer when the rest converts (kept_forward.py)
            raise problem
        chain.steps += [Step("", stmt, inner) for inner in nested[:-1]] + [Step(name, stmt, layer)]
        chain.alias = None
        return
    known = {s.name for s in chain.steps}
    used = names_in(value)
    calls = [c for _, c in _calls(value, ctx)]
    if used & {"labels", "mode", "features"} or not used & known or any(c not in DERIVING for c in calls):
        node, why, shimmable = _why(value, ctx)
        problem = Unreadable(node, why)
        problem.shimmable = shimmable
        raise problem
    chain.steps.append(Step(name, stmt))


def _nested(layer, ctx) -> list:
    """`layer` and the layers nested in its input, innermost first: a call of calls is still sequential."""
    out = [layer]
    while isinstance(out[0].input, cst.Call):
        inner = read_layer(out[0].input, ctx)
        if inner is None:
            break
        out.insert(0, inner)
    return out


def read_for(stmt: cst.For, plan, ctx, reader) -> None:
    """`for units in params["hidden_units"]: net = tf1.layers.dense(net, units)`: one layer per pass, fed by
    the layer before it; the loop becomes a list comprehension in the Sequential model."""
    chain, start = plan.chain, len(plan.chain.steps)
    body = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else ()
    names = names_in(stmt.iter)
    before = chain.end()
    if plan.loss is None and stmt.orelse is None and stmt.asynchronous is None and isinstance(stmt.target, cst.Name) \
            and len(body) == 1 and not names & ({"features", "labels", "mode"} | {s.name for s in chain.steps}):
        reader.statement(body[0], -1)
    added = chain.steps[start:]
    if len(added) != 1 or added[0].layer is None or added[0].name != before or added[0].layer.kind == "Select":
        del chain.steps[start:]
        problem = Unreadable(stmt, "`for` loop in model_fn that is not one layer per pass, fed by the name it "
                             "reassigns: convert by hand")
        problem.shimmable = True  # a forward pass the shim may keep as written
        raise problem
    added[0].layer.loop = stmt


def read_with(stmt: cst.With, plan, ctx, reader) -> None:
    if len(stmt.items) != 1 or not isinstance(stmt.items[0].item, cst.Call):
        raise Unreadable(stmt, "`with` block in model_fn not understood: convert by hand")
    call = stmt.items[0].item
    canonical = ctx.resolve(call.func)[1]
    if canonical == "tf.control_dependencies" and len(call.args) == 1 and isinstance(call.args[0].value, cst.Name) \
            and reader.env.get(call.args[0].value.value) == ("update_ops",):
        for inner in stmt.body.body:
            reader.statement(inner, -1)
        return
    if canonical not in SCOPES or plan.loss is not None:
        raise Unreadable(call, f"`with {canonical or 'this'}` in model_fn not understood: convert by hand")
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "partitioner":
            plan.chain.partitioners.append((arg, arg.value))
        elif arg.keyword is not None and arg.keyword.value not in ("name_or_scope", "default_name", "values", "name"):
            raise Unreadable(arg, f"`{canonical}({arg.keyword.value}=...)`: convert by hand")
    for inner in stmt.body.body:
        reader.statement(inner, -1)
