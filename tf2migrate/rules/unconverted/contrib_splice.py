"""TFM343 on the splice path (rules/table_only.py): `ContribImports`' decisions (`contrib_imports.decide`, shared)
made on the spliced text, and an unused import removed as a text edit, so a file that imports tf.contrib needs
no LibCST for this rule (tensor2tensor 1.14.0: 11 files).

LibCST's rule drops the import's line and its blank leading lines and carries its comments to the next
statement (all of its leading lines when no statement stands before it): the same lines are cut here. What the
text cannot promise as LibCST writes it (an import the engine drops, a removed import that shares a line, is
edited, or ends the module) is `NotSure`, and the file goes to LibCST.
"""
from __future__ import annotations

import ast

from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules.unconverted.contrib_imports import decide


def leave_module(ctx, tree, edits) -> None:
    """`ContribImports.leave_module`, written into `edits` (an `engine.text_edits.Text`)."""
    if not ctx.selection.enabled("TFM343"):
        return
    gone, dropped = decide(ctx, edits.result)
    if dropped:
        raise NotSure("a tf.contrib import the rewrite left unused")
    if not gone:
        return
    shown = {ast.unparse(node) for node in gone}
    body, kept = tree.body, False
    for i, stmt in enumerate(body):
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)) or ast.unparse(stmt) not in shown:
            kept = True
            continue
        if i + 1 == len(body) or i and body[i - 1].end_lineno >= stmt.lineno or body[i + 1].lineno <= stmt.end_lineno:
            raise NotSure("a removed tf.contrib import that shares a line or ends the module")
        _cut(edits, body[i - 1].end_lineno + 1 if i else stmt.lineno, stmt, kept)


def _cut(edits, first: int, stmt, blanks: bool) -> None:
    """Cut `stmt`'s lines and, when `blanks`, the blank lines among lines `first`.. before it (its comments stay)."""
    starts, text = edits.starts, edits.text
    start = starts[first - 1]
    end = starts[stmt.end_lineno] if stmt.end_lineno < len(starts) else len(text)
    if any(s < end and e > start for s, e, _ in edits.edits):
        raise NotSure("an edit in a removed tf.contrib import")
    lines = [text[starts[n - 1]:starts[n]] for n in range(first, stmt.lineno)]
    kept = "".join(line for line in lines if not blanks or line.strip())
    edits.replace(start, end, kept)
