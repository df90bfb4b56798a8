"""`tf.contrib.estimator.replicate_model_fn`: TF1's multi-GPU towers, switched on by the program -> MirroredStrategy.

Google's official models write it so (official/mnist): `model_function = model_fn`, then `if flags.multi_gpu:
model_function = replicate_model_fn(model_fn, loss_reduction=tf.losses.Reduction.MEAN)`, the optimizer wrapped in
`TowerOptimizer` inside the model_fn, and `Estimator(model_fn=model_function)`. The towers split each batch and
averaged their gradients; a `tf.distribute.MirroredStrategy` does the same to the batch Keras gives it, and the
converted step divides the loss by the replicas before their gradients are summed (TFM309's scaling), which is
MEAN's arithmetic. So the alias becomes the default strategy, the switch's assignment the mirrored one, and the
model is built in the chosen strategy's scope. Another loss reduction summed the towers' losses (the gradients
are then the towers' number times larger): that, or `devices=`, blocks with the reason.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.rules.estimator.planning import strategy
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.reading.uses import REPLICATE, assignment, callee
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

PARAMS = ("model_fn", "loss_reduction", "devices")
MEAN = "tf.losses.Reduction.MEAN"
CODE = "TFM348"


@dataclass
class Replicated:
    alias: int  # the `model_function = model_fn` statement: the default strategy is made there
    index: int  # the `if` whose body replicates the model_fn: the mirrored strategy is made there
    at: int  # the replicating statement's place in that body
    call: cst.Call
    names: set  # ids of the Name nodes of that statement: no use the conversion leaves behind


def read(module, prog, ctx) -> None:
    """`prog.replicated` for `alias = model_fn` then `if test: ...; alias = replicate_model_fn(model_fn, ...)`
    before the Estimator (parts.py, once the alias is followed); a blocker when the towers do not average."""
    alias, fn = prog.model_fn_alias, prog.bound.get("model_fn")
    if alias is None or not isinstance(fn, cst.Name):
        return
    for i, stmt in enumerate(module.body):
        if not (isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock)):
            continue
        for at, inner in enumerate(stmt.body.body):
            name, value = assignment(inner)
            if name != alias or callee(value, ctx) not in REPLICATE:
                continue
            try:
                bound = bind(value, PARAMS, "replicate_model_fn")
            except Unreadable as problem:
                prog.blockers.append(problem)
                return
            given, reduction = bound.get("model_fn"), bound.get("loss_reduction")
            alias_at = next((j for j in sorted(prog.removed) if assignment(module.body[j])[0] == alias), None)
            why = None
            if not (isinstance(given, cst.Name) and given.value == fn.value) or alias_at is None \
                    or not alias_at < i < prog.estimator:
                why = (f"`{alias}` replicates another function than the model_fn `{fn.value}`, or not between "
                       f"`{alias} = {fn.value}` and the Estimator")
            elif "devices" in bound:
                why = "replicate_model_fn(devices=...) names its GPUs: give MirroredStrategy(devices=...) by hand"
            elif reduction is None or ctx.resolve(reduction)[1] != MEAN:
                why = ("replicate_model_fn without loss_reduction=tf.losses.Reduction.MEAN summed the towers' losses "
                       "(gradients the towers' number times larger), which a MirroredStrategy does not")
            if why is not None:
                prog.blockers.append(Unreadable(value, why + ": convert by hand"))
                return
            names = set()
            inner.visit(_Names(names))
            prog.replicated = Replicated(alias_at, i, at, value, names)
            prog.strategy_in_place = True  # made where the program chose it; the model built in its scope
            return


class _Names(cst.CSTVisitor):
    def __init__(self, out: set) -> None:
        self.out = out

    def visit_Name(self, node: cst.Name) -> None:
        self.out.add(id(node))


def render(conv, i: int, stmt):
    """The replacement of statement `i`: the alias -> the default strategy, the switch -> the mirrored one in
    place of the replicating statement; None for any other statement."""
    prog, w = conv.prog, conv.writer
    r = prog.replicated
    if r is None or i not in (r.alias, r.index):
        return None
    if i == r.alias:
        made = templates.statement("{var} = {get}()", w, var=w.strategy_var, get=w.tf("tf.distribute.get_strategy"))
        return [made.with_changes(leading_lines=stmt.leading_lines)]
    mirrored = strategy.statements(StrategyKind.MIRRORED, w.strategy_var, prog, w.ctx, w, None)
    old = stmt.body.body[r.at]
    mirrored[0] = mirrored[0].with_changes(leading_lines=old.leading_lines)
    body = [*stmt.body.body[:r.at], *mirrored, *stmt.body.body[r.at + 1:]]
    conv.notes.append((r.call, CODE, None))
    return [stmt.with_changes(body=stmt.body.with_changes(body=body))]
