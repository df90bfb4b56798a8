"""Where a canned estimator's feature-column list comes from, and which of its columns convert.

Lists built at run time: `[numeric_column(k) for k in keys]`, or `cols = []` appended to in a loop (`for key in
train_x.keys(): cols.append(numeric_column(key=key))`, the tutorials' shape). When every column such a list can
hold converts (`convertible`: numeric, or for a DNN indicator/embedding), its statements are kept as written and
the Keras model reads it through `DenseFeatures(cols)`, which orders the columns by name as the canned estimators
do; its keys are only known at run time, so the file targets tf-keras. A list returned by a helper of the file
(`returned_list`) or passed through one unchanged (`passthrough`) is the list literal it stands for.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.reading.spec import is_docstring
from tf2migrate.rules.estimator.syntax.args import Unreadable

NUMERIC = "tf.feature_column.numeric_column"
# dense columns over categorical ones: DenseFeatures computes them as the DNN estimators' input layer does
DENSE_OVER_CATEGORICAL = {"tf.feature_column.indicator_column", "tf.feature_column.embedding_column"}


def convertible(node, ctx, linear: bool) -> bool:
    """A column the Keras model reads as the estimator did: numeric ones always; for a DNN, an indicator or
    embedding column too (a linear model keeps one sparse weight per category: not DenseFeatures' form)."""
    if not isinstance(node, cst.Call):
        return False
    name = ctx.resolve(node.func)[1]
    return name == NUMERIC or (not linear and name in DENSE_OVER_CATEGORICAL)


def refusal(linear: bool) -> str:
    return ("only numeric_column feature columns, and categorical ones written in the estimator's list (not built at "
            "run time), convert automatically in a linear estimator" if linear else
            "only numeric_column, indicator_column and embedding_column feature columns convert automatically")


def elements(value, name: str, module, ctx, estimator_call, linear=False):
    """The numeric_column calls that the list `name = value` can hold, or None when `value` is no list built at
    run time. Raises Unreadable with the reason when it is one whose columns are not all numeric."""
    if isinstance(value, cst.ListComp):
        if value.elt is not None and convertible(value.elt, ctx, linear):
            return [value.elt]
        raise Unreadable(value.elt, refusal(linear))
    if not (isinstance(value, cst.List) and not value.elements):
        return None
    found = _Uses(name)
    module.visit(found)
    if found.passed != 1 and not found.other:
        found.other.append(value)
    if found.other:
        raise Unreadable(found.other[0], f"feature_columns built up after an empty list, and `{name}` is used "
                         f"otherwise than by `{name}.append(...)`: convert by hand")
    if not found.appended:
        raise Unreadable(value, "feature_columns built up after an empty list, and nothing is appended to it "
                         "in this scope: convert by hand")
    for column in found.appended:
        if not convertible(column, ctx, linear):
            raise Unreadable(column, refusal(linear))
    call_line = _line(estimator_call, ctx)
    late = [c for c in found.appended if call_line is not None and (_line(c, ctx) or 0) > call_line]
    if late:
        raise Unreadable(late[0], "a feature column appended after the Estimator is built: convert by hand")
    return found.appended


def passthrough(value, defs):
    """`f(NAME)` where `def f(feats): return feats` (taxifare's `add_more_features`, comments or a docstring
    aside): NAME, whose list the call returns unchanged; else None."""
    if not (isinstance(value, cst.Call) and len(value.args) == 1 and not value.args[0].keyword
            and not value.args[0].star and isinstance(value.args[0].value, cst.Name)
            and isinstance(value.func, cst.Name)):
        return None
    fn = defs.get(value.func.value)
    if not isinstance(fn, cst.FunctionDef) or fn.decorators or len(fn.params.params) != 1 \
            or fn.params.kwonly_params or isinstance(fn.params.star_arg, cst.Param) or fn.params.star_kwarg:
        return None
    body = _without_docstring(fn)
    param = fn.params.params[0].name.value
    if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 \
            and isinstance(body[0].body[0], cst.Return) and isinstance(body[0].body[0].value, cst.Name) \
            and body[0].body[0].value.value == param:
        return value.args[0].value.value
    return None


def _without_docstring(fn) -> list:
    return [s for s in fn.body.body if not is_docstring(s)]


def returned_list(value, defs):
    """`get_columns()` where `def get_columns(): return [...]` (a docstring allowed): the list literal it returns.
    Only a function with no parameters and that one statement: its list is then the same on every call."""
    if not (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Name)):
        return None
    fn = defs.get(value.func.value)
    if not isinstance(fn, cst.FunctionDef) or fn.decorators or fn.params.params or fn.params.kwonly_params \
            or isinstance(fn.params.star_arg, cst.Param) or fn.params.star_kwarg is not None:
        return None
    body = _without_docstring(fn)
    if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 \
            and isinstance(body[0].body[0], cst.Return) and isinstance(body[0].body[0].value, (cst.List, cst.Tuple)):
        return body[0].body[0].value
    return None


def _line(node, ctx):
    place = ctx.positions.place(node)
    return place.line if place else None


class _Uses(cst.CSTVisitor):
    """Every `name` of the scope: `name = ...` (the list itself, once), `name.append(x)` (x collected), an
    argument of a call (the Estimator's, counted in `passed`); anything else is `other`."""

    def __init__(self, name: str) -> None:
        self.name, self.appended, self.other, self.assigned, self.passed = name, [], [], 0, 0

    def visit_Assign(self, node):
        for target in node.targets:
            if isinstance(target.target, cst.Name) and target.target.value == self.name:
                self.assigned += 1
                if self.assigned > 1:
                    self.other.append(target.target)
                node.value.visit(self)
                return False
        return True

    def visit_Call(self, node):
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self.name:
            if func.attr.value == "append" and len(node.args) == 1 and node.args[0].keyword is None:
                self.appended.append(node.args[0].value)
                node.args[0].value.visit(self)
                return False
            self.other.append(node)
            return False
        for arg in node.args:
            if isinstance(arg.value, cst.Name) and arg.value.value == self.name and not arg.star:
                self.passed += 1
            else:
                arg.value.visit(self)
        func.visit(self)
        return False

    def visit_Name(self, node):
        if node.value == self.name:
            self.other.append(node)
