"""Reading the statements of a model_fn for the general conversion (model_subclass.py).

Statements that only set up TF1 training are read, not kept (setup_statements.py). The others are kept, and the ones of
the TRAIN run split in two: the forward pass, which reads neither `labels` nor anything computed from
them and does not compute the loss, and the rest, which train_step computes on the forward pass's output.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.idiomatic import forward as forward_pass
from tf2migrate.rules.estimator.planning import contrib_gone
from tf2migrate.rules.estimator.shim_path import training_flag
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in

FORBIDDEN = {"tf.get_collection", "tf.add_to_collection", "tf.placeholder", "tf.get_default_graph"}


def split_forward(stmts, loss_names: set, ctx):
    """(forward pass, rest) of the TRAIN statements; raises Unreadable for what `call` cannot keep."""
    forward, rest, tainted = [], [], {"labels"}
    for stmt in stmts:
        binds = bound_in([stmt])
        mode_only = not binds and training_flag.uses(stmt, ctx) is None  # `tf1.logging.info(..., mode)`: in the step
        if names_in(stmt) & tainted or set(binds) & loss_names or _reads_variables(stmt, ctx) or mode_only:
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
            cond = "tf.cond" in {ctx.resolve(c.func)[1] for c in _calls(stmt)}
            raise Unreadable(stmt, ("`tf.cond` on the mode" if cond else "the forward pass reads `mode`") + " other "
                             "than `mode == ModeKeys.TRAIN` (the Keras `training` flag): convert by hand")
    return forward, rest


def check_step_statement(stmt, ctx) -> None:
    """A statement of a step may read `mode`: each step knows its own (modes.Known)."""
    _check(stmt, ctx)


def fatal(node, ctx) -> bool:
    """`node` holds what no conversion path keeps (tf.contrib, graph collections, placeholders)."""
    try:
        _check(node, ctx)
    except Unreadable:
        return True
    return False


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
            why = contrib_gone.why(canonical)
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
