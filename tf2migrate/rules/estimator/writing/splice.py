"""Step 3 of converting one Estimator program: put the new module body together.

Each statement's replacement (`program_statements.render_body`) takes its place. A statement that goes leaves
its comments to the next statement that stays, so no comment is lost, and the wider of the two blank gaps
(the two blank lines before a `def` stay). `marks` says where
each old statement's output starts: a converted `main()` or if/else branch is put back from it (main_body.py,
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
            carried = stmt.leading_lines if carried is None else _merged(carried, stmt.leading_lines)
            continue
        if carried is not None and new:
            new = [new[0].with_changes(leading_lines=_merged(carried, new[0].leading_lines)), *new[1:]]
        carried = None if new else carried
        body += new
    marks[len(updated.body)] = len(body)
    return body, marks


def _merged(carried, own) -> list:
    """The comments of the statements that went, then the statement's own lines; without comments, the wider
    of the two gaps (a removed statement's blank line stays, and so do the two blank lines before a `def`)."""
    if any(line.comment is not None for line in [*carried, *own]):
        return [*carried, *own]
    return list(carried) if len(carried) > len(own) else list(own)


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
