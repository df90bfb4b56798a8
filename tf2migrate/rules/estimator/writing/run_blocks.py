"""Runs inside a loop or a block: `for epoch in range(n): est.train(...); est.evaluate(...)`.

Programs train N steps, evaluate, and repeat. The loop (or `if`/`with`/`while` block) is kept: each of its
statements that runs the Estimator is rendered as a top-level run statement is (program_statements.run_statements),
so a `fit` that needs several statements or callbacks takes several lines inside the loop; every other statement
stays as the other rules left it. Each `fit(steps_per_epoch=N)` trains N more steps, as each `train(steps=N)`
did: the optimizer's step count goes on from one call to the next like the global step.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.reading.uses import Uses

BLOCKS = (cst.For, cst.While, cst.If, cst.With)


def is_block(stmt) -> bool:
    return isinstance(stmt, BLOCKS) and isinstance(stmt.body, cst.IndentedBlock)


def render(orig, stmt, runs, render_one) -> list:
    """`stmt` (the updated block) with each statement of its body and `else` that holds a run rendered by
    `render_one(orig, updated) -> [statements]`; None when the blocks' shapes differ (another rule reshaped it)."""
    if type(orig) is not type(stmt) or len(orig.body.body) != len(stmt.body.body):
        return None
    body = []
    for old, new in zip(orig.body.body, stmt.body.body):
        body += _one(old, new, runs, render_one)
    made = stmt.with_changes(body=stmt.body.with_changes(body=body), **_header(orig, runs))
    orelse_old, orelse_new = getattr(orig, "orelse", None), getattr(stmt, "orelse", None)
    if orelse_old is None or orelse_new is None:
        return [made]
    if isinstance(orelse_old, cst.If):  # elif
        inner = render(orelse_old, orelse_new, runs, render_one)
        return None if inner is None else [made.with_changes(orelse=inner[0])]
    if not isinstance(orelse_new.body, cst.IndentedBlock) or len(orelse_old.body.body) != len(orelse_new.body.body):
        return None
    body = []
    for old, new in zip(orelse_old.body.body, orelse_new.body.body):
        body += _one(old, new, runs, render_one)
    return [made.with_changes(orelse=orelse_new.with_changes(body=orelse_new.body.with_changes(body=body)))]


HEADERS = {cst.For: "iter", cst.While: "test", cst.If: "test", cst.With: "items"}


def _header(orig, runs) -> dict:
    """`for p in est.predict(...):`: a run in the block's own line, rewritten in place (one expression)."""
    from tf2migrate.rules.estimator.writing.body_pieces import ReplaceRuns

    key = HEADERS[type(orig)]
    value = getattr(orig, key)
    finder = Uses(runs.prog, runs.ctx)
    for node in value if isinstance(value, (list, tuple)) else [value]:
        node.visit(finder)
    if not finder.runs:
        return {}
    replacer = ReplaceRuns(prog_var=runs.prog.var, runs=runs, ctx=runs.ctx)
    if isinstance(value, (list, tuple)):
        return {key: [item.visit(replacer) for item in value]}
    return {key: value.visit(replacer)}


def _one(old, new, runs, render_one) -> list:
    finder = Uses(runs.prog, runs.ctx)
    old.visit(finder)
    if not finder.runs:
        return [new]
    return render_one(old, new)
