"""Where a statement of a model_fn stands: its path through bodies, if/elif/else branches and `with` blocks.

The general conversion (model_subclass.py) reads the original model_fn and writes the statements as the other rules left
them (model_subclass_source.py): a statement's path in the original finds the same statement in the updated model_fn.
"""
from __future__ import annotations

import libcst as cst


def places(stmts, prefix=()) -> dict:
    """id(statement) -> its path in the model_fn: indices into bodies, through if/elif/else branches."""
    out = {}
    for k, stmt in enumerate(stmts):
        out[id(stmt)] = prefix + (k,)
        if isinstance(stmt, cst.With):  # `with tf1.control_dependencies(update_ops):`, flattened (kept_statements.py)
            out.update(places(stmt.body.body, prefix + (k, "with")))
        if isinstance(stmt, cst.If):
            out.update(places(stmt.body.body, prefix + (k, "body")))
            if isinstance(stmt.orelse, cst.If):
                out.update(places([stmt.orelse], prefix + (k, "elif")))
            elif stmt.orelse is not None:
                out.update(places(stmt.orelse.body.body, prefix + (k, "else")))
    return out


def follow(stmts, path):
    stmt = stmts[path[0]]
    if len(path) == 1:
        return stmt
    branch = {"body": lambda: stmt.body.body, "elif": lambda: [stmt.orelse], "else": lambda: stmt.orelse.body.body,
              "with": lambda: stmt.body.body}
    return follow(branch[path[1]](), path[2:])
