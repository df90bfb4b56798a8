"""The model-mapping shim: a forward pass that does not convert is kept verbatim in a Keras layer.

TF's `tf.compat.v1.keras.utils.track_tf1_style_variables` lets a Keras layer's `call` create variables
with `tf1.get_variable` and `tf1.layers` and tracks them as the layer's weights. That is only sound
when the forward pass can be cut cleanly from the rest: it reads `features` (and `params`, given to the
layer's constructor, and `mode == ModeKeys.TRAIN`, its `training` argument) but not `labels`, ends in the
tensor the loss uses, and everything after it (loss, optimizer, metrics) converts.

A partitioner is the one thing the kept code may not keep: TF2's `get_variable` refuses one ("partitioner
arg for get_variable is unsupported in TF2"). Without a parameter server a `variable_scope(partitioner=P)`
loses its argument in the layer (partitioning changes no number, TFM311). Under ParameterServerStrategy the
partitioner would have to move to the strategy, but the shim's `get_variable` fails on the ShardedVariable
that makes, so that conversion is reported instead; so is a partitioner passed to `get_variable` itself.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.reading.spec import is_docstring
from tf2migrate.rules.estimator.shim_path import guards, training_flag
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in


@dataclass
class ShimPlan:
    name: str
    statements: list  # indices in the model_fn body
    output: str
    node: cst.CSTNode
    partitioners: list  # the `partitioner=` arguments of variable_scope calls in the kept statements
    params: bool = False  # the forward pass reads params: the layer gets them in its constructor
    training: bool = False  # it reads `mode == ModeKeys.TRAIN`: the layer's `training` argument
    ctx: object = None
    rescoped: bool = False  # unnamed tf1.layers: `call` re-enters the variable scope (guards.py)


def plan(model, ctx):
    """A ShimPlan when the forward pass separates cleanly, else None."""
    if model.loss is None or model.optimizer is None or model.blockers:
        return None
    if not all(p.shimmable for p in model.forward_blockers):
        return None
    if not isinstance(model.loss.output, cst.Name) or model.predictions is not None:
        return None
    body = model.node.body.body
    stmts = [body[i] for i in model.forward_indices if i < len(body)]
    stmts = [s for s in stmts if not is_docstring(s)]
    bound = set()
    for s in stmts:
        if "labels" in names_in(s) or training_flag.uses(s, ctx) is None:
            return None
        bound |= _targets(s)
    if model.loss.output.value not in bound:
        return None
    scoped = {id(arg) for arg, _ in model.partitioners}
    found = [arg for s in stmts for arg in _partitioner_args(s)]
    for arg in found:
        if id(arg) not in scoped:
            model.forward_blockers.insert(0, Unreadable(  # first: it is why this line blocks (one per line)
                arg, "`partitioner=` outside a variable_scope in a forward pass the Keras shim would keep: TF2's "
                "get_variable takes no partitioner; move it to a variable_scope or convert by hand"))
            return None
    lookup = guards.mod_lookup(stmts, ctx) if found else None
    if lookup is not None:  # the partitioner goes: TF1's shard-by-shard reading could not be kept
        model.forward_blockers.insert(0, Unreadable(lookup, guards.WHY_MOD, "TFM326"))
        return None
    base = model.node.name.value
    camel = "".join(p.capitalize() for p in base.split("_") if p)
    name = ("_" if base.startswith("_") else "") + camel + "Layer"
    return ShimPlan(name, [i for i in model.forward_indices if not is_docstring(body[i])], model.loss.output.value,
                    model.node, found, any("params" in names_in(s) for s in stmts),
                    any(training_flag.uses(s, ctx) for s in stmts), ctx, guards.unnamed_layers(stmts, ctx))


def _partitioner_args(stmt) -> list:
    out = []

    class _V(cst.CSTVisitor):
        def visit_Arg(self, node):
            if node.keyword is not None and node.keyword.value == "partitioner":
                out.append(node)

    stmt.visit(_V())
    return out


class _DropPartitioner(cst.CSTTransformer):
    """`variable_scope("emb", partitioner=P)` -> `variable_scope("emb")` in the kept code."""

    def __init__(self) -> None:
        super().__init__()
        self.dropped = 0

    def leave_Call(self, original, updated):
        args = [a for a in updated.args if not (a.keyword is not None and a.keyword.value == "partitioner")]
        if len(args) == len(updated.args):
            return updated
        self.dropped += len(updated.args) - len(args)
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(args=args)


def _targets(stmt) -> set:
    out = set()

    class _V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            if isinstance(node.target, cst.Name):
                out.add(node.target.value)

    stmt.visit(_V())
    return out


def layer_class(shim: ShimPlan, w) -> cst.ClassDef:
    """The layer class: the kept statements come from the (updated) model_fn, in its `call`."""
    fn = w.updated_model_fn
    statements = [fn.body.body[k] for k in shim.statements]
    if shim.training:
        statements = [stmt.visit(training_flag.Training(shim.ctx)) for stmt in statements]
    kept = cst.Module(body=statements)
    if shim.partitioners:
        if w.kind is StrategyKind.PARAMETER_SERVER:  # measured on TF 2.15: the shim's get_variable cannot make a ShardedVariable
            raise Unreadable(shim.partitioners[0], "partitioner in a forward pass kept in the Keras shim under "
                             "ParameterServerStrategy: TF2's get_variable cannot create the sharded variable the "
                             "strategy's variable_partitioner would make ('ShardedVariable' object has no attribute "
                             "'get_shape'); rewrite the forward pass with Keras layers, then convert")
        drop = _DropPartitioner()
        kept = kept.visit(drop)
        if drop.dropped != len(shim.partitioners):
            raise Unreadable(shim.partitioners[0], "partitioner not understood in the forward pass kept in the "
                             "Keras shim: convert by hand")
    body = list(kept.body)
    if shim.rescoped:  # layer names restart at every call (guards.py)
        scope = templates.current_scope(w)
        body = [templates.statement("with {scope}:\n{i}{body}", w, scope=scope, body=templates.block(body))
                .with_changes(leading_lines=[cst.EmptyLine(comment=cst.Comment(RESCOPED))])]
    shim.name = w.fresh(shim.name)
    return templates.statement(
        LAYER, w, name=shim.name, layer=w.tf("tf.keras.layers.Layer"), docstring=DOCSTRING.format(
            fn=shim.node.name.value), init=[templates.statement(INIT, w)] if shim.params else [],
        track=w.tf("tf.compat.v1.keras.utils.track_tf1_style_variables"),
        params=templates.parameters("self", "features", **({"training": "None"} if shim.training else {})),
        read_params=[templates.statement("params = self.params", w)] if shim.params else [],
        kept=body, output=shim.output)


LAYER = '''class {name}({layer}):
{i}{docstring}

{i}{init}

{i}@{track}
{i}def call({params}):
{i}{i}{read_params}
{i}{i}{kept}
{i}{i}return {output}
'''
RESCOPED = "# TF1 layer names restart at every call, as in the model_fn's own graph"
DOCSTRING = '"""The forward pass of `{fn}`, kept as written: Keras tracks its TF1 variables."""'
INIT = '''def __init__(self, params, **kwargs):
{i}super().__init__(**kwargs)
{i}self.params = params
'''


def construct(shim: ShimPlan) -> cst.Call:
    """The layer's construction in the builder (after `layer_class` named it)."""
    return templates.call(shim.name, ["params"] if shim.params else [])
