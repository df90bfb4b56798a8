"""Reading the statements of a model_fn for the general conversion (general.py).

Statements that only set up TF1 training (the global step, the optimizer, `minimize`, `tf1.metrics.*`
calls and their dict, `loss = None` defaults) are read, not kept. The others are kept, and the ones of
the TRAIN run split in two: the forward pass, which reads neither `labels` nor anything computed from
them and does not compute the loss, and the rest, which train_step computes on the forward pass's output.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator import forward as forward_pass, training_flag
from tf2migrate.rules.estimator.args import Unreadable, bind
from tf2migrate.rules.estimator.optimizers import read_optimizer
from tf2migrate.rules.estimator.render import names_in
from tf2migrate.rules.estimator.schedules import GLOBAL_STEP

MINIMIZE_PARAMS = ("loss", "global_step", "var_list", "gate_gradients", "aggregation_method",
                   "colocate_gradients_with_ops", "name", "grad_loss")
FORBIDDEN = {"tf.get_collection", "tf.add_to_collection", "tf.placeholder", "tf.get_default_graph"}


class Env:
    """What the set-up statements of the model_fn bound: optimizers, train ops, metrics."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.optimizers: dict = {}  # name -> Optimizer
        self.train_ops: dict = {}  # name -> minimize call
        self.metric_calls: dict = {}  # name -> tf1.metrics.* call
        self.metric_dicts: dict = {}  # name -> dict literal of metrics

    def kept(self, stmts) -> list:
        """The statements of one run that its step computes (set-up statements are recorded instead)."""
        out = []
        for stmt in stmts:
            target, value = _assignment(stmt)
            if target is None or not self._setup(target, value):
                out.append(stmt)
        return out

    def _setup(self, name, value) -> bool:
        ctx = self.ctx
        if isinstance(value, cst.Name) and value.value == "None":
            return True  # `loss = None` before the mode branches assign it
        if isinstance(value, cst.Dict) and value.elements and all(
                isinstance(e, cst.DictElement) and self._metric(e.value) for e in value.elements):
            self.metric_dicts[name] = value
            return True
        if not isinstance(value, cst.Call):
            return False
        canonical = ctx.resolve(value.func)[1] or ""
        if canonical in GLOBAL_STEP and not value.args:
            return True
        if canonical.startswith("tf.metrics."):
            self.metric_calls[name] = value
            return True
        opt = read_optimizer(value, ctx)
        if opt is not None:
            self.optimizers[name] = opt
            return True
        if isinstance(value.func, cst.Attribute) and value.func.attr.value == "minimize":
            self.train_ops[name] = value
            return True
        return False

    def _metric(self, value) -> bool:
        if isinstance(value, cst.Name):
            return value.value in self.metric_calls
        return isinstance(value, cst.Call) and (self.ctx.resolve(value.func)[1] or "").startswith("tf.metrics.")

    def optimizer(self, train_op, loss):
        """The optimizer of `train_op` (a name bound to `minimize`, or the call itself), minimizing `loss`."""
        call = self.train_ops.get(train_op.value) if isinstance(train_op, cst.Name) else train_op
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "minimize"):
            raise Unreadable(train_op, "train_op that is not `optimizer.minimize(loss)`: convert by hand")
        owner = call.func.value
        opt = self.optimizers.get(owner.value) if isinstance(owner, cst.Name) else \
            read_optimizer(owner, self.ctx) if isinstance(owner, cst.Call) else None
        if opt is None:
            raise Unreadable(call, "`minimize` on something not built from a TF1 optimizer: convert by hand")
        bound = bind(call, MINIMIZE_PARAMS, "minimize")
        if set(bound) - {"loss", "global_step", "name"}:
            raise Unreadable(call, "`minimize` with var_list/gate_gradients/grad_loss: convert by hand")
        if not bound["loss"].deep_equals(loss):
            raise Unreadable(call, "`minimize` of something other than the loss the EstimatorSpec returns: "
                             "convert by hand")
        if isinstance(opt.learning_rate, cst.BaseExpression) and names_in(opt.learning_rate) - {"params"} & \
                (self._locals()):
            raise Unreadable(opt.learning_rate, "a learning rate computed in the model_fn: convert by hand")
        return opt

    def _locals(self) -> set:
        return set(self.optimizers) | set(self.train_ops) | set(self.metric_calls)


def split_forward(stmts, loss_names: set, ctx):
    """(forward pass, rest) of the TRAIN statements; raises Unreadable for what `call` cannot keep."""
    forward, rest, tainted = [], [], {"labels"}
    for stmt in stmts:
        binds = bound_in([stmt])
        if names_in(stmt) & tainted or set(binds) & loss_names or _reads_variables(stmt, ctx):
            tainted |= set(binds)
            rest.append(stmt)
        else:
            forward.append(stmt)
    clash = set(bound_in(forward)) & set(bound_in(rest))
    if clash:
        name = sorted(clash)[0]
        raise Unreadable(next(s for s in rest if name in bound_in([s])), f"`{name}` is assigned both in the "
                         "forward pass and after it: rename one of them, then convert")
    for stmt in forward:
        _check(stmt, ctx)
        if training_flag.uses(stmt, ctx) is None:
            raise Unreadable(stmt, "the forward pass reads `mode` other than `mode == ModeKeys.TRAIN` (the "
                             "Keras `training` flag): convert by hand")
    return forward, rest


def check_step_statement(stmt, ctx) -> None:
    _check(stmt, ctx)
    if "mode" in names_in(stmt):
        raise Unreadable(stmt, "reads `mode` other than in an `if` on the mode: convert by hand")


def _check(stmt, ctx) -> None:
    found = []

    class _V(cst.CSTVisitor):
        def visit_Call(self, node):
            canonical = ctx.resolve(node.func)[1] or ""
            if canonical.startswith("tf.contrib.") or canonical in FORBIDDEN or canonical in forward_pass.WHY \
                    and canonical != "tf.get_variable" and canonical != "tf.cond":
                found.append((node, canonical))

        def visit_Arg(self, node):
            if node.keyword is not None and node.keyword.value == "partitioner":
                found.append((node, "partitioner"))

        def visit_Return(self, node):
            found.append((node, None))

        def visit_FunctionDef(self, node):
            return False

    stmt.visit(_V())
    for node, canonical in found:
        if canonical is None:
            raise Unreadable(node, "a `return` inside a block of the model_fn: convert by hand")
        if canonical == "partitioner":
            raise Unreadable(node, "`partitioner=` in a model_fn converted to a Keras Model subclass: TF2's "
                             "get_variable takes no partitioner; drop it (without a parameter server it changes no "
                             "number) or convert by hand")
        why = forward_pass.WHY.get(canonical, "graph collections and placeholders do not exist in TF2")
        if canonical.startswith("tf.contrib."):
            why = "`tf.contrib` is gone in TF2: replace it (see the TF2 migration guide) before converting"
        raise Unreadable(node, why)


def _reads_variables(stmt, ctx) -> bool:
    """`tf1.trainable_variables()`: the model's variables, read after the forward pass made them."""
    return "tf.trainable_variables" in {ctx.resolve(n.func)[1] for n in _calls(stmt)}


def _calls(stmt) -> list:
    found = []

    class _V(cst.CSTVisitor):
        def visit_Call(self, node):
            found.append(node)

    stmt.visit(_V())
    return found


def bound_in(stmts) -> list:
    """The names the statements assign, in order of first assignment."""
    out = []

    class _V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            out.extend(names_in(node.target))

        def visit_AugAssign(self, node):
            out.extend(names_in(node.target))

        def visit_For(self, node):
            out.extend(names_in(node.target))

        def visit_AsName(self, node):
            out.extend(names_in(node.name))

        def visit_FunctionDef(self, node):
            out.append(node.name.value)
            return False

    for stmt in stmts:
        stmt.visit(_V())
    return list(dict.fromkeys(out))


def _assignment(stmt):
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign) \
            and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name):
        return stmt.body[0].targets[0].target.value, stmt.body[0].value
    return None, None
