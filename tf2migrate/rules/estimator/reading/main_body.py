"""An Estimator program written in a block (`def main():`, `if __name__ == "__main__":`, `with run():`),
converted like one at the top level.

TF1 programs often build their Estimator in `main()` and call it from `if __name__ == "__main__":` or
`tf.compat.v1.app.run(main)`, or build it in the `if __name__ == "__main__":` block itself, or in a
`with mlflow.start_run():` block of a context manager the converter does not know (kept as it is). The
converter reads and writes a module body, so the block's statements are spliced in where the block stands
(a flat view), converted with the rest, and put back into the block afterwards: the model_fn and the input
functions stay where they are, the runs stay in the block. One top-level function, `if` without `else` or
`with` holding the `est = Estimator(...)` statement directly in its body is supported; an Estimator
anywhere else stays reported (TFM302).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.reading.uses import assignment


@dataclass
class Flat:
    original: cst.Module  # the flat views: the block's statements in place of the block
    updated: cst.Module
    index: int            # where the block stands in the body of the view around it
    count: int            # how many statements its body has
    header: tuple = ()    # the nodes of the block's own line: an `if`'s test, a `with`'s items
    outer: Optional["Flat"] = None  # the flat view this block stands in (`def main():` around `with run():`)

    def unflatten(self, updated: cst.Module, body: list, marks: dict) -> list:
        """The converted flat body, with the block's part put back into the block (and its own block's)."""
        around = self.outer.updated if self.outer is not None else updated
        start, end = marks[self.index], marks[self.index + self.count]
        fn = around.body[self.index]
        inner = block_lines(body[start:end])
        body = [*body[:start], fn.with_changes(body=fn.body.with_changes(body=inner)), *body[end:]]
        if self.outer is None:
            return body
        shift, size = (end - start) - 1, len(around.body)
        marks = {j: marks[j] if j <= self.index else marks[j + self.count - 1] - shift for j in range(size)}
        marks[size] = len(body)
        return self.outer.unflatten(updated, body, marks)

    def header_uses(self, prog, ctx) -> list:
        """Blockers for the program's names in the blocks' own lines (`with strategy.scope():`), which the flat
        view does not hold: the conversion would leave them pointing at nothing."""
        from tf2migrate.rules.estimator.reading.uses import Uses

        finder, flat = Uses(prog, ctx), self
        while flat is not None:
            for node in flat.header:
                node.visit(finder)
            flat = flat.outer
        return finder.problems


def flatten(original: cst.Module, updated: cst.Module, is_estimator, outer=None) -> Optional[Flat]:
    """The flat view when exactly one top-level block (`_is_block`) builds the Estimator in its own body, or in
    the body of an `if` or `with` in it (`def main(argv): with mlflow.start_run(): est = ...`)."""
    found = [i for i, stmt in enumerate(original.body) if _is_block(stmt) and _holds(stmt, is_estimator, outer is None)]
    if len(found) != 1:
        return None
    i = found[0]
    fn, new_fn = original.body[i], updated.body[i]
    if type(new_fn) is not type(fn) or len(new_fn.body.body) != len(fn.body.body):
        return None  # another rule reshaped the block: leave it to the report
    flat = original.with_changes(body=[*original.body[:i], *fn.body.body, *original.body[i + 1:]])
    flat_updated = updated.with_changes(body=[*updated.body[:i], *new_fn.body.body, *updated.body[i + 1:]])
    header = (fn.test,) if isinstance(fn, cst.If) else tuple(fn.items) if isinstance(fn, cst.With) else ()
    made = Flat(flat, flat_updated, i, len(fn.body.body), header, outer)
    if _holds(fn, is_estimator, False):
        return made
    return flatten(flat, flat_updated, is_estimator, made)


def _holds(block, is_estimator, nested: bool) -> bool:
    """The block builds the Estimator in its own body (`nested`: or in an `if`/`with` block of it)."""
    body = block.body.body
    if any(is_estimator(assignment(s)[1]) or _in_branches(s, is_estimator) for s in body):
        return True
    return nested and any(_is_block(s) and not isinstance(s, cst.FunctionDef) and _holds(s, is_estimator, False)
                          for s in body)


def _is_block(stmt) -> bool:
    """A function, an `if` without `else` (`if __name__ == "__main__":`) or a `with` whose body the program may
    stand in: its statements run in order when the block does, as at the top level."""
    if isinstance(stmt, cst.If) and stmt.orelse is not None:
        return False  # an if/else that chooses the Estimator: switch.py
    return isinstance(stmt, (cst.FunctionDef, cst.If, cst.With)) and isinstance(stmt.body, cst.IndentedBlock)


def _in_branches(stmt, is_estimator) -> bool:
    """An `if/else` or `if/elif` chain of the function's body builds the Estimator in a branch (see switch.py,
    choice_chain.py)."""
    if not (isinstance(stmt, cst.If) and stmt.orelse is not None):
        return False
    blocks, at = [], stmt
    while isinstance(at, cst.If):
        blocks.append(at.body)
        at = at.orelse
    blocks += [at.body] if isinstance(at, cst.Else) else []
    return any(is_estimator(assignment(s)[1]) for block in blocks for s in block.body)


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
