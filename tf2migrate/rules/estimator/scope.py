"""An Estimator program written in a function (`def main():`), converted like one at the top level.

TF1 programs often build their Estimator in `main()` and call it from `if __name__ == "__main__":` or
`tf.compat.v1.app.run(main)`. The converter reads and writes a module body, so the function's statements
are spliced in where the function stands (a flat view), converted with the rest, and put back into the
function afterwards: the model_fn and the input functions stay where they are, the runs stay in `main()`.
One function holding the `est = Estimator(...)` statement directly in its body is supported; an
Estimator anywhere else stays reported (TFM302).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.uses import assignment


@dataclass
class Flat:
    original: cst.Module  # the flat views: the function's statements in place of the function
    updated: cst.Module
    index: int            # where the function stands in the module body
    count: int            # how many statements its body has

    def unflatten(self, updated: cst.Module, body: list, marks: dict) -> list:
        """The converted flat body, with the function's part put back into the function."""
        start, end = marks[self.index], marks[self.index + self.count]
        fn = updated.body[self.index]
        inner = block_lines(body[start:end])
        return [*body[:start], fn.with_changes(body=fn.body.with_changes(body=inner)), *body[end:]]


def flatten(original: cst.Module, updated: cst.Module, is_estimator) -> Optional[Flat]:
    """The flat view when exactly one top-level function builds the Estimator in its own body."""
    found = [i for i, stmt in enumerate(original.body) if isinstance(stmt, cst.FunctionDef)
             and isinstance(stmt.body, cst.IndentedBlock)
             and any(is_estimator(assignment(s)[1]) or _in_branches(s, is_estimator) for s in stmt.body.body)]
    if len(found) != 1:
        return None
    i = found[0]
    fn, new_fn = original.body[i], updated.body[i]
    if not isinstance(new_fn, cst.FunctionDef) or len(new_fn.body.body) != len(fn.body.body):
        return None  # another rule reshaped the function: leave it to the report
    flat = original.with_changes(body=[*original.body[:i], *fn.body.body, *original.body[i + 1:]])
    flat_updated = updated.with_changes(body=[*updated.body[:i], *new_fn.body.body, *updated.body[i + 1:]])
    return Flat(flat, flat_updated, i, len(fn.body.body))


def _in_branches(stmt, is_estimator) -> bool:
    """An `if/else` of the function's body builds the Estimator in a branch (see switch.py)."""
    if not (isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else)):
        return False
    return any(is_estimator(assignment(s)[1]) for block in (stmt.body, stmt.orelse.body) for s in block.body)


def block_lines(statements: list) -> list:
    """Statements made at the module level, laid out for a block: black's blank lines, none opening it."""
    inner = [_blank_lines_for_a_block(stmt) for stmt in statements] or [cst.SimpleStatementLine([cst.Pass()])]
    first = inner[0]  # no blank line opens a block (lines carried from a removed statement before it)
    inner[0] = first.with_changes(leading_lines=[line for line in first.leading_lines if line.comment is not None])
    return inner


def _blank_lines_for_a_block(stmt):
    """Inside a function, one blank line at the most between statements (as black writes them), and no
    indentation on it: lines written for the module level would otherwise carry trailing whitespace."""
    lines, blank = [], False
    for line in stmt.leading_lines:
        if line.comment is None:
            if not blank:
                lines.append(cst.EmptyLine(indent=False))
            blank = True
        else:
            lines.append(line)
            blank = False
    return stmt.with_changes(leading_lines=lines)
