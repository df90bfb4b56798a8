"""An Estimator chosen by an `if/else`: `if args.use_tpu: est = TPUEstimator(...) else: est = Estimator(...)`.

Each branch is converted as if the program had taken it: the body is read twice, once with each branch's
statements in place of the `if` (two views). Both conversions must agree on everything outside the
branch (the builder, the runs); the result keeps the `if/else`, each branch holding its own strategy and
model statements. When the views disagree, the reason is reported and nothing is converted.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.reading import branch_outside
from tf2migrate.rules.estimator.reading.main_body import block_lines
from tf2migrate.rules.estimator.reading.uses import assignment


@dataclass
class Switch:
    index: int  # of the `if` in the body
    original: cst.If
    updated: cst.If
    views: list  # [(original view, updated view, branch length)] for the `if` branch, then the `else` branch

    around: cst.Module = None  # the body the `if` stands in, as the other rules left it

    def merge(self, converted: list) -> tuple:
        """(body, marks) from the two views' (body, marks): one `if/else` holding each view's branch, the
        statements outside it taken from the view that converted them (branch_outside.py)."""
        (body_a, marks_a), (body_b, marks_b) = converted
        i, n_a, n_b = self.index, self.views[0][2], self.views[1][2]
        branch = self.updated.with_changes(
            body=self.updated.body.with_changes(body=block_lines(body_a[marks_a[i]:marks_a[i + n_a]])),
            orelse=self.updated.orelse.with_changes(
                body=self.updated.orelse.body.with_changes(body=block_lines(body_b[marks_b[i]:marks_b[i + n_b]]))))
        return branch_outside.merge(converted, self.views, i, self.around, self.original.test, branch)


def find(original: cst.Module, updated: cst.Module, is_estimator) -> Optional[Switch]:
    """The first top-level `if/else` whose branches both hold an `x = Estimator(...)` statement."""
    return _find(original, updated, is_estimator)


def find_strategy(original: cst.Module, updated: cst.Module, prog) -> Optional[Switch]:
    """`if gpus > 1: strategy = MirroredStrategy() else: strategy = None` before `RunConfig(train_distribute=
    strategy)`: the strategy chosen by an if/else, each branch converted with its own."""
    wanted = prog.config.get("train_distribute")
    if prog.strategy_var is not None or not isinstance(wanted, cst.Name):
        return None
    return _find(original, updated, lambda value: True, wanted.value)


def _find(original, updated, is_estimator, name=None) -> Optional[Switch]:
    for i, stmt in enumerate(original.body):
        new = updated.body[i] if i < len(updated.body) else None
        if not (isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else) and isinstance(new, cst.If)
                and isinstance(new.orelse, cst.Else) and isinstance(stmt.body, cst.IndentedBlock)
                and isinstance(stmt.orelse.body, cst.IndentedBlock)):
            continue
        branches = [(stmt.body.body, new.body.body), (stmt.orelse.body.body, new.orelse.body.body)]
        if not all(any(is_estimator(assignment(s)[1]) and (name is None or assignment(s)[0] == name) for s in old)
                   and len(old) == len(upd) for old, upd in branches):
            continue
        views = [(original.with_changes(body=[*original.body[:i], *old, *original.body[i + 1:]]),
                  updated.with_changes(body=[*updated.body[:i], *upd, *updated.body[i + 1:]]), len(old))
                 for old, upd in branches]
        return Switch(i, stmt, new, views, updated)
    return None


def chained(module: cst.Module, is_estimator) -> dict:
    """id(Estimator call) -> message, for `est = X(...)` statements in the branches of an `if/elif` chain (canned or
    custom chosen on a flag, kubeflow's mnist): only an if/else of two branches converts (`find`)."""
    out = {}

    class _Chains(cst.CSTVisitor):
        def visit_If(self, node):
            if not isinstance(node.orelse, cst.If):
                return True
            branches, at = [], node
            while isinstance(at, cst.If):
                branches.append(at.body)
                at = at.orelse
            branches += [at.body] if isinstance(at, cst.Else) else []
            calls = [value for block in branches for stmt in block.body for _, value in [assignment(stmt)]
                     if is_estimator(value)]
            why = (f"an Estimator chosen in an if/elif chain of {len(branches)} branches: the conversion converts a "
                   "chain ending in `else` whose branches each build the same-named Estimator (canned or custom) or "
                   "exit (choice_chain.py); write the choice so, or convert by hand")
            out.update((id(call), why) for call in calls)
            return False

    module.visit(_Chains())
    return out

