"""An Estimator chosen in an `if/elif` chain: `if kind == "wide": est = A(...) elif ...: est = B(...) else: exit`.

Programs choose their model on a flag or an environment variable, in as many branches as they have models,
and end the chain with a branch that refuses an unknown choice (`sys.exit(1)`, `raise ValueError(...)`). As for
an if/else (switch.py), each branch that builds the Estimator is converted as if the program had taken it
(one view per branch); the views must agree on everything outside the chain. The chain stays as the user wrote
it, each building branch holding its own strategy and model statements, each exiting branch as it was: it
never reaches the runs, so it needs no model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.reading import branch_outside
from tf2migrate.rules.estimator.reading.main_body import block_lines
from tf2migrate.rules.estimator.reading.uses import assignment

EXITS = ("sys.exit", "exit", "quit", "os._exit")


@dataclass
class Chain:
    index: int  # of the `if` in the body
    original: cst.If
    updated: cst.If
    views: list  # [(original view, updated view, branch length)] for each branch that builds the Estimator
    built: list  # per branch of the chain (if, elifs, else): its position in `views`, or None (an exit branch)

    around: cst.Module = None  # the body the chain stands in, as the other rules left it

    def merge(self, converted: list) -> tuple:
        """(body, marks) from each view's (body, marks): the chain holding each view's converted branch, the
        statements outside it taken from the view that converted them (branch_outside.py)."""
        slices = [body[marks[self.index]:marks[self.index + view[2]]]
                  for (body, marks), view in zip(converted, self.views)]
        chain = _rebuild(self.updated, 0, self.built, slices)
        return branch_outside.merge(converted, self.views, self.index, self.around, self.original.test, chain)


def find(original: cst.Module, updated: cst.Module, is_estimator) -> Optional[Chain]:
    """The first top-level `if/elif` chain (or if/else) whose branches each build an Estimator or exit, at least
    one of them building it, and not the if/else of two building branches (switch.py reads that one)."""
    for i, stmt in enumerate(original.body):
        new = updated.body[i] if i < len(updated.body) else None
        if not (isinstance(stmt, cst.If) and stmt.orelse is not None and isinstance(new, cst.If)):
            continue
        old_blocks, new_blocks = branches(stmt), branches(new)
        if old_blocks is None or new_blocks is None or len(old_blocks) != len(new_blocks):
            continue
        built, views = [], []
        for old, upd in zip(old_blocks, new_blocks):
            if any(is_estimator(assignment(s)[1]) for s in old) and len(old) == len(upd):
                built.append(len(views))
                views.append((original.with_changes(body=[*original.body[:i], *old, *original.body[i + 1:]]),
                              updated.with_changes(body=[*updated.body[:i], *upd, *updated.body[i + 1:]]), len(old)))
            elif old and _exits(old[-1]):
                built.append(None)
            else:
                break
        else:
            if views and not (len(built) == 2 and None not in built):
                return Chain(i, stmt, new, views, built, updated)
    return None


def branches(node: cst.If) -> Optional[list]:
    """The statements of each branch of an if/elif/else chain, or None when one is not an indented block or the
    chain has no `else` (then no branch may run, and no Estimator be built)."""
    out, at = [], node
    while isinstance(at, cst.If):
        if not isinstance(at.body, cst.IndentedBlock):
            return None
        out.append(list(at.body.body))
        at = at.orelse
    if not (isinstance(at, cst.Else) and isinstance(at.body, cst.IndentedBlock)):
        return None
    return out + [list(at.body.body)]


def _exits(stmt) -> bool:
    """`raise ...`, `return ...` or `sys.exit(...)`: the branch never reaches the statements after the chain."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    if isinstance(small, (cst.Raise, cst.Return)):
        return True
    call = small.value if isinstance(small, cst.Expr) else None
    if not isinstance(call, cst.Call):
        return False
    name = cst.Module([]).code_for_node(call.func)
    return name in EXITS


def _rebuild(node: cst.If, k: int, built: list, slices: list) -> cst.If:
    """The chain with branch k's (and the following ones') statements replaced where they were converted."""
    body = node.body
    if built[k] is not None:
        body = body.with_changes(body=block_lines(slices[built[k]]))
    orelse = node.orelse
    if isinstance(orelse, cst.If):
        orelse = _rebuild(orelse, k + 1, built, slices)
    elif built[k + 1] is not None:
        orelse = orelse.with_changes(body=orelse.body.with_changes(body=block_lines(slices[built[k + 1]])))
    return node.with_changes(body=body, orelse=orelse)
