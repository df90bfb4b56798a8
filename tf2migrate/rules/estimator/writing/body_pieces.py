"""Small pieces of putting the new module body together: blank lines, kept statements, replaced calls.

Kept statements come from the module the other rules already rewrote; input functions (and a canned
estimator's feature columns) are respelled for TF2. Blocking findings are reported once per line, and
a finding that only follows from another one (a layer fed by a blocked statement) is not repeated.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator.planning import canned, linear_columns, plan_types
from tf2migrate.rules.estimator.planning.optimizers import compat_class
from tf2migrate.rules.estimator.reading import uses
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import respell
from tf2migrate.rules.estimator.writing.returned_datasets import _ReturnDataset

V1_SWITCHES = {"tf.disable_v2_behavior", "tf.disable_eager_execution"}


def with_lines(new: list, old) -> list:
    """The replaced statement's blank lines and comments go with its replacement, its end-of-line comment
    to the last simple statement of it (or above it, when it has none)."""
    if not new or not hasattr(old, "leading_lines"):
        return new
    leading = list(old.leading_lines)
    comment = old.trailing_whitespace.comment if isinstance(old, cst.SimpleStatementLine) else None
    if comment is not None:
        simple = [k for k, stmt in enumerate(new) if isinstance(stmt, cst.SimpleStatementLine)
                  and stmt.trailing_whitespace.comment is None]
        if simple:
            new[simple[-1]] = new[simple[-1]].with_changes(trailing_whitespace=old.trailing_whitespace)
        else:
            leading.append(cst.EmptyLine(comment=comment))
    new[0] = new[0].with_changes(leading_lines=leading)
    return new


class ReplaceRuns(cst.CSTTransformer):
    """Rewrites `estimator.train/evaluate/predict(...)` nested in other statements (single-line forms)."""

    def __init__(self, prog_var, runs, ctx) -> None:
        self.var, self.runs, self.ctx = prog_var, runs, ctx

    def leave_Call(self, original, updated):
        func = original.func
        if self.ctx.resolve(func)[1] == "tf.estimator.train_and_evaluate":  # fit, then evaluate: two statements
            raise Unreadable(original, "train_and_evaluate inside another statement or expression: it becomes "
                             "fit and evaluate in TF2, two statements; call it on its own line")
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self.var \
                and func.attr.value in uses.METHODS:
            made = self.runs.method(original)
            if len(made) > 1 or "\n" in templates.code(made[0], self.runs.w).rstrip("\n"):
                raise Unreadable(original, "this call needs several statements in TF2: move it to its own line")
            return made[0].body[0].value
        return updated


def optimizers_compat(model, w) -> list:
    """The optimizer's compat class (RMSpropTF1) when the model needs it."""
    opt = model.optimizer if model is not None else None
    return [compat_class(w)] if opt is not None and opt.needs_compat_class else []


def render_kept(stmt, prog, ctx, notes, orig=None):
    if isinstance(stmt, cst.FunctionDef) and stmt.name.value in prog.input_fns:
        found = _ReturnDataset(ctx, [])  # the same returns as written: the findings point there, not at TFM657's
        (orig or stmt).visit(found)
        places = iter(node for node, _, _ in found.notes)
        return respell(stmt.visit(_ReturnDataset(ctx, notes, places)), ctx)  # before respelling: names resolve
    columns = prog.model.columns_name if prog.model is not None else None
    if columns is not None and uses.assignment(stmt)[0] == columns.value:
        indicators = prog.model.indicators if plan_types.canned(prog.model) else ()
        if indicators:  # a linear model's categorical columns, where the list is written (linear_columns.py)
            stmt = stmt.with_deep_changes(stmt.body[0], value=linear_columns.wrapped(
                stmt.body[0].value, indicators, lambda name: source(ctx.emit.attribute(name))))
        return respell(stmt, ctx)
    helper = prog.model.columns_helper if prog.model is not None else None
    if helper is not None and isinstance(stmt, cst.FunctionDef) and stmt.name.value == helper:
        return respell(stmt, ctx)  # the function that returns the feature columns is kept with them
    return stmt


def unused_columns(stmt, prog, w, module) -> bool:
    """Under keras3 the model reads Keras Inputs: the feature-column list goes when nothing else uses it."""
    columns = prog.model.columns_name if prog.model is not None else None
    if w.target != "keras3" or columns is None or uses.assignment(stmt)[0] != columns.value:
        return False
    if canned.keras3_inputs(prog.model, w.ctx) is None:
        return False
    return _count(module, columns.value) == 2  # assigned, then passed to the estimator


def _count(module, name) -> int:
    found = []

    class _V(cst.CSTVisitor):
        def visit_Attribute(self, node):
            node.value.visit(self)
            return False

        def visit_Arg(self, node):
            node.value.visit(self)
            return False

        def visit_Name(self, node):
            if node.value == name:
                found.append(node)

    module.visit(_V())
    return len(found)


def v1_switch(stmt, ctx, notes) -> bool:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr):
        value = stmt.body[0].value
        if isinstance(value, cst.Call) and ctx.resolve(value.func)[1] in V1_SWITCHES:
            notes.append((value, "TFM301", "TF1 graph mode switch removed: Keras runs eagerly"))
            return True
    return False


def one_per_line(problems, ctx) -> list:
    seen, out = set(), []
    roots = [p for p in problems if not p.cascade]
    for p in roots or problems:
        place = ctx.positions.place(p.node)
        line = place.line if place else 0
        if line not in seen:
            seen.add(line)
            out.append(p)
    return out
