"""Feature-column lists unpacked from a helper that builds several: `wide, deep = build_model_columns()`.

tensorflow/models' wide_deep.py builds its columns in one function of many statements (`age = numeric_column(...)`,
`base = [...]`, `wide = base + crossed`, `deep = [age, indicator_column(...), ...]`) and returns them as a tuple,
unpacked where the Estimator is built. The lists stay as the program builds them, called at run time, and the
Keras model reads the one it was given through `DenseFeatures`, as for a list built in a loop (built_columns.py).
What each list can hold is read from the helper: an element is a column call, or a name the helper assigns one
once; a list is a literal, a name the helper assigns once, or a sum of those. A DNN's columns must be numeric,
indicator or embedding ones; a linear model's numeric or categorical ones, and its categorical ones are read
one-hot at run time (`indicator_column`), as where the list is written (linear_columns.py) and as the combined
estimator's linear part does (canned_combined.py). Anything else in the helper is left as it is: it runs as before.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.planning import built_columns, linear_columns
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable

ONE_HOT = '[c if hasattr(c, "variable_shape") else {indicator}(c) for c in {name}]'


def read(name: str, module, defs: dict, values: dict, ctx, linear: bool) -> Optional[tuple]:
    """(the columns the list `name` can hold, whether a linear model must read some one-hot) when `name` is
    unpacked once at the top level from a call of a helper of this file; None when it is not. Raises Unreadable
    when the helper's list cannot be read, or holds a column the estimator's Keras model would not read alike."""
    if name in values:
        return None
    found = [s.body[0] for s in module.body if _unpacks(s, name)]
    if len(found) != 1 or not isinstance(found[0].value, cst.Call):
        return None
    assign = found[0]
    call = assign.value
    fn = defs.get(call.func.value) if isinstance(call.func, cst.Name) else None
    if not isinstance(fn, cst.FunctionDef) or fn.decorators or not isinstance(fn.body, cst.IndentedBlock):
        return None
    returned = _returned(fn, len(assign.targets[0].target.elements))
    if returned is None:
        raise Unreadable(call, f"feature columns unpacked from `{fn.name.value}()`, which does not end with "
                         "`return a, b` of as many names: convert by hand")
    outside = [s for s in module.body if not isinstance(s, (cst.FunctionDef, cst.ClassDef))]
    if _changed(outside, name) or _bound(outside).count(name) != 1:
        raise Unreadable(assign.targets[0].target, f"`{name}` is assigned or changed again after it is unpacked "
                         f"from `{fn.name.value}()`: its feature columns are not read; convert by hand")
    position = [e.value.value for e in assign.targets[0].target.elements].index(name)
    local = _assigned_once(fn)
    columns = _elements(returned[position], local, fn, set())
    one_hot = False
    for column in columns:
        if linear and linear_columns.categorical(column, ctx, {}):
            one_hot = True
        elif not built_columns.convertible(column, ctx, linear):
            raise Unreadable(column, "only numeric_column and categorical feature columns convert automatically in "
                             "a linear estimator" if linear else built_columns.refusal(linear))
    return columns, one_hot


def one_hot(columns, w, depth: int) -> cst.ListComp:
    """The list a linear model's DenseFeatures reads, its categorical columns as indicator columns; written on a
    line of its own at `depth + 1` indents, as the combined estimator's (canned_combined.ONE_HOT)."""
    made = templates.expression(ONE_HOT, w, indicator=w.tf(linear_columns.INDICATOR), name=w.text(columns))
    return made.with_changes(lbracket=cst.LeftSquareBracket(whitespace_after=templates.newline(w, depth + 1)),
                             rbracket=cst.RightSquareBracket(whitespace_before=templates.newline(w, depth)))


def _unpacks(stmt, name: str) -> bool:
    """`a, name, b = ...` (names only)."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.targets[0].target, (cst.Tuple, cst.List))):
        return False
    elements = small.targets[0].target.elements
    return all(isinstance(e.value, cst.Name) and not isinstance(e, cst.StarredElement) for e in elements) \
        and any(e.value.value == name for e in elements)


def _returned(fn, count: int) -> Optional[list]:
    """The names of the helper's final `return a, b`, when there are `count` of them and no other return."""
    last = fn.body.body[-1]
    if not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 and isinstance(last.body[0], cst.Return)):
        return None
    value = last.body[0].value
    if not isinstance(value, (cst.Tuple, cst.List)) or len(value.elements) != count \
            or not all(isinstance(e.value, cst.Name) and not isinstance(e, cst.StarredElement) for e in value.elements):
        return None
    returns = []
    fn.visit(_Collect(cst.Return, returns))
    return [e.value for e in value.elements] if len(returns) == 1 else None


def _assigned_once(fn) -> dict:
    """The helper's `x = value` statements of its own body, for names bound nowhere else in it."""
    bound = _bound([fn.body])
    once = {n for n in bound if bound.count(n) == 1}
    out = {}
    for stmt in fn.body.body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                and small.targets[0].target.value in once:
            out[small.targets[0].target.value] = small.value
    return out


def _elements(node, local: dict, fn, seen: set) -> list:
    """The columns a list expression of the helper holds: a literal, a name assigned one once, or their sum."""
    if isinstance(node, cst.Name) and node.value in local and node.value not in seen:
        if _changed([fn.body], node.value):
            raise Unreadable(node, f"`{node.value}` is changed after it is built (`.append`, `+=`, ...) in "
                             f"`{fn.name.value}`: its feature columns are not read; convert by hand")
        return _elements(local[node.value], local, fn, seen | {node.value})
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _elements(node.left, local, fn, seen) + _elements(node.right, local, fn, seen)
    if isinstance(node, (cst.List, cst.Tuple)) and not any(isinstance(e, cst.StarredElement) for e in node.elements):
        unknown = [e.value for e in node.elements if isinstance(e.value, cst.Name) and e.value.value not in local]
        if unknown:
            raise Unreadable(unknown[0], f"`{unknown[0].value}` is not a feature column that `{fn.name.value}` "
                             "assigns once: its feature columns are not read; convert by hand")
        return [local[e.value.value] if isinstance(e.value, cst.Name) else e.value for e in node.elements]
    raise Unreadable(node, f"a feature-column list of `{fn.name.value}` that is not a list literal, a name it assigns "
                     "one once, or a sum of those: convert by hand")


def _bound(nodes) -> list:
    out = []
    for node in nodes:
        node.visit(_Bindings(out))
    return out


def _changed(nodes, name: str) -> bool:
    """`name.append(...)`, `name[0] = ...` or `name += ...` anywhere in `nodes`."""
    uses, augmented = [], []
    for node in nodes:
        node.visit(_Collect((cst.Attribute, cst.Subscript), uses))
        node.visit(_Collect(cst.AugAssign, augmented))
    return any(isinstance(u.value, cst.Name) and u.value.value == name for u in uses) \
        or any(isinstance(a.target, cst.Name) and a.target.value == name for a in augmented)


class _Collect(cst.CSTVisitor):
    def __init__(self, kinds, out: list) -> None:
        self.kinds, self.out = kinds, out

    def on_visit(self, node) -> bool:
        if isinstance(node, self.kinds):
            self.out.append(node)
        return True


class _Bindings(cst.CSTVisitor):
    """Every name an assignment, a loop or a `with ... as` of the helper binds."""

    def __init__(self, out: list) -> None:
        self.out = out

    def _targets(self, node) -> None:
        if isinstance(node, cst.Name):
            self.out.append(node.value)
        elif isinstance(node, (cst.Tuple, cst.List)):
            for e in node.elements:
                self._targets(e.value)

    def visit_AssignTarget(self, node) -> None:
        self._targets(node.target)

    def visit_AnnAssign(self, node) -> None:
        self._targets(node.target)

    def visit_For(self, node) -> None:
        self._targets(node.target)

    def visit_AsName(self, node) -> None:
        self._targets(node.name)
