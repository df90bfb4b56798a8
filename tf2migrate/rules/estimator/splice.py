"""Step 3 of converting one Estimator program: put the new module body together.

Each statement's replacement (`program_render.render_body`) takes its place. A statement that goes leaves
its blank lines and comments to the next statement that stays, so no comment is lost. `marks` says where
each old statement's output starts: a converted `main()` or if/else branch is put back from it (scope.py,
switch.py).
"""
from __future__ import annotations

import libcst as cst


def splice(updated: cst.Module, rendered: list) -> tuple:
    """(new body, marks: old statement index -> index of its output in the new body)."""
    body, marks, carried = [], {}, None
    for i, (stmt, new) in enumerate(zip(updated.body, rendered)):
        marks[i] = len(body)
        if new is None:
            carried = carried if carried is not None else stmt.leading_lines
            continue
        if carried is not None and new:
            # the output carries the statement's own lines first (then, maybe, its end-of-line comment)
            new = [new[0].with_changes(leading_lines=[*carried, *new[0].leading_lines[len(stmt.leading_lines):]]),
                   *new[1:]]
            carried = None
        body += new
    marks[len(updated.body)] = len(body)
    return body, marks


def insert_before(body: list, marks: dict, at: int, head: list) -> tuple:
    """`head` (a canned estimator's builder) goes just before the output of old statement `at`, two blank
    lines around it."""
    if not head:
        return body, marks
    start = marks[at]
    two = [cst.EmptyLine(), cst.EmptyLine()]
    head = [head[0].with_changes(leading_lines=two), *head[1:]]
    body = [*body[:start], *head, body[start].with_changes(leading_lines=two), *body[start + 1:]]
    return body, {i: where + len(head) if where > start else where for i, where in marks.items()}
