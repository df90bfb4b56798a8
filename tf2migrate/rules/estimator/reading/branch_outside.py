"""The statements outside a choice of Estimator (if/else, if/elif chain), merged from each branch's conversion.

Each building branch is converted as if the program had taken it (one view per branch). When the branches build
the same model, every view writes the same statements outside the choice. When they build different ones (a
canned LinearClassifier in one branch, a custom `Estimator(model_fn=conv_model)` in another), each view converts
only its own model: the view of the canned branch leaves `conv_model` as the other rules left it, the view of the
custom branch writes its Keras model in its place. Statement by statement, the merge takes the one view that
changed it, or what all views agree on; two views that changed one statement differently block the choice.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.syntax.args import Unreadable


def merge(converted: list, views: list, index: int, updated: cst.Module, test, choice) -> tuple:
    """(body, marks): the merged statements outside the choice with `choice` (the converted if/elif) at `index`.

    `converted`: each view's (body, marks); `views`: each view's (original, updated, branch length); `index`: the
    choice's statement in the body around it; `updated`: that body as the other rules left it (the choice at
    `index`); `test`: the node a blocker is reported at. `marks` maps each statement of `updated` to its output."""
    size = len(updated.body)
    per_view = [_segments(body, marks, index, view[2], size) for (body, marks), view in zip(converted, views)]
    untouched = [""] + [_code([s]) for k, s in enumerate(updated.body) if k != index]
    body, marks = [], {}
    for k in range(len(per_view[0])):
        if k == index + 1:
            marks[index] = len(body)
            body.append(choice)
        if k:
            marks[k - 1 if k <= index else k] = len(body)
        texts = [_code(segs[k]) for segs in per_view]
        changed = {t for t in texts if t != untouched[k]}
        if len(changed) > 1:
            body.extend(_comments_joined([segs[k] for segs in per_view], test))
            continue
        pick = texts.index(changed.pop()) if changed else 0
        body.extend(per_view[pick][k])
    if index not in marks:
        marks[index] = len(body)
        body.append(choice)
    marks[size] = len(body)
    return body, marks


def _comments_joined(segments: list, test) -> list:
    """The one segment the views agree on but for the comments before its first statement, with all of them:
    a statement a branch's conversion removed leaves its comments on the next one, which may follow the choice."""
    if not all(segments) or len({_code([seg[0].with_changes(leading_lines=())] + seg[1:]) for seg in segments}) > 1:
        raise Unreadable(test, "the branches of this choice need different Keras programs outside it (model "
                         "builder, fit calls): convert by hand")
    base = max((seg[0].leading_lines for seg in segments), key=len)
    have = {_line(line) for line in base}
    missing = [line for seg in segments for line in seg[0].leading_lines
               if line.comment is not None and _line(line) not in have]
    return [segments[0][0].with_changes(leading_lines=[*dict.fromkeys(missing), *base]), *segments[0][1:]]


def _line(line: cst.EmptyLine) -> str:
    return cst.Module([]).code_for_node(line)


def _segments(body: list, marks: dict, index: int, n: int, size: int) -> list:
    """[what came before statement 0, then each statement outside the choice's output], in the body's order."""
    ends = [marks[j] for j in range(size - 1 + n)] + [len(body)]
    outside = [j for j in range(size - 1 + n) if not index <= j < index + n]
    return [body[:ends[0]]] + [body[ends[j]:ends[j + 1]] for j in outside]


def _code(statements: list) -> str:
    return cst.Module(body=statements).code
