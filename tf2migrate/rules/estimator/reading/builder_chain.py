"""An Estimator helper that builds its columns, then chooses: `def build_estimator(model_dir, model_type): columns =
...; if model_type == "wide": return LinearClassifier(...) elif ...: return DNNClassifier(...) else: return ...`.

tensorflow/models' wide_deep.py writes its choice so, and calls the helper once: `model = build_estimator(FLAGS.
model_dir, FLAGS.model_type)`. builders.py reads only a helper whose body is one `return`. This one is read as
the statements it stands for: the call site becomes the helper's parameters bound to the call's arguments, its
statements, and its chain with `model = A(...)` in place of each `return A(...)` (an inlined view), which the
converter reads as any if/elif chain (choice_chain.py); the helper goes with the conversion. The helper is
inlined only where it is called once, with names of its own that the function around the call does not use.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.reading.choice_chain import branches
from tf2migrate.rules.estimator.reading.spec import is_docstring
from tf2migrate.rules.estimator.reading.uses import assignment
from tf2migrate.rules.estimator.syntax.kept_source import names_in, references


def inline(original: cst.Module, updated: cst.Module, is_estimator) -> Optional[tuple]:
    """(original view, updated view) with the one call of a choosing helper inlined, or None."""
    for i, fn in enumerate(original.body):
        chosen = _choosing(fn, is_estimator)
        if chosen is None or references(original, fn.name.value) != 1 or not isinstance(updated.body[i], cst.FunctionDef):
            continue
        site = _site(original, fn.name.value)
        if site is None:
            continue
        j, k, var, call = site
        new_fn = updated.body[i]
        views = []
        for module, helper in ((original, fn), (updated, new_fn)):
            outer = module.body[j]
            statements = _inlined(helper, var, call if module is original else _call(outer.body.body[k]))
            if statements is None or _clashes(helper, outer, k):
                return None
            inner = [*outer.body.body[:k], *statements, *outer.body.body[k + 1:]]
            outer = outer.with_changes(body=outer.body.with_changes(body=inner))
            body = [*module.body[:j], outer, *module.body[j + 1:]]
            views.append(module.with_changes(body=[*body[:i], *body[i + 1:]]))  # the helper goes
        return tuple(views)
    return None


def _choosing(fn, is_estimator) -> Optional[cst.If]:
    """The helper's final if/elif/else chain, each branch one `return Estimator(...)`, after plain assignments."""
    if not isinstance(fn, cst.FunctionDef) or fn.decorators or not isinstance(fn.body, cst.IndentedBlock):
        return None
    body = [s for s in fn.body.body if not is_docstring(s)]
    if not body or not isinstance(body[-1], cst.If) or not all(assignment(s)[0] or _unpacks(s) for s in body[:-1]):
        return None
    blocks = branches(body[-1])
    if blocks is None or len(blocks) < 2:
        return None
    for block in blocks:
        ret = _return(block)
        if ret is None or not is_estimator(ret.value):
            return None
    params = fn.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg or params.posonly_params \
            or params.kwonly_params or any(p.default is not None for p in params.params):
        return None
    return body[-1]


def _unpacks(stmt) -> bool:
    """`wide, deep = build_columns()`."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    return isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Tuple) \
        and all(isinstance(e.value, cst.Name) for e in small.targets[0].target.elements)


def _return(block: list) -> Optional[cst.Return]:
    if len(block) == 1 and isinstance(block[0], cst.SimpleStatementLine) and len(block[0].body) == 1 \
            and isinstance(block[0].body[0], cst.Return) and block[0].body[0].value is not None:
        return block[0].body[0]
    return None


def _site(module: cst.Module, name: str) -> Optional[tuple]:
    """(index of the top-level def holding it, index in that def's body, variable, call) of `var = name(...)`."""
    for j, outer in enumerate(module.body):
        if isinstance(outer, cst.FunctionDef) and isinstance(outer.body, cst.IndentedBlock):
            for k, stmt in enumerate(outer.body.body):
                var, value = assignment(stmt)
                if var is not None and isinstance(value, cst.Call) and isinstance(value.func, cst.Name) \
                        and value.func.value == name:
                    return j, k, var, value
    return None


def _call(stmt) -> cst.Call:
    return assignment(stmt)[1]


def _inlined(fn: cst.FunctionDef, var: str, call: cst.Call) -> Optional[list]:
    """The parameters bound, the helper's statements, and its chain assigning `var` in each branch."""
    names = [p.name.value for p in fn.params.params]
    if any(a.star for a in call.args) or len(call.args) != len(names):
        return None
    given = {}
    for k, arg in enumerate(call.args):
        key = arg.keyword.value if arg.keyword is not None else names[k]
        if key not in names or key in given:
            return None
        given[key] = arg.value
    bound = [cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(n))], given[n])]) for n in names
             if not (isinstance(given[n], cst.Name) and given[n].value == n)]
    body = [s for s in fn.body.body if not is_docstring(s)]
    return [*bound, *body[:-1], _assigning(body[-1], var)]


def _assigning(node: cst.If, var: str) -> cst.If:
    """The chain with `var = A(...)` for each `return A(...)`."""
    def assign(block):
        ret = block.body[0]
        made = cst.Assign([cst.AssignTarget(cst.Name(var))], ret.body[0].value)
        return block.with_changes(body=[ret.with_changes(body=[made])])

    orelse = node.orelse
    if isinstance(orelse, cst.If):
        orelse = _assigning(orelse, var)
    else:
        orelse = orelse.with_changes(body=assign(orelse.body))
    return node.with_changes(body=assign(node.body), orelse=orelse)


def _clashes(fn: cst.FunctionDef, outer: cst.FunctionDef, k: int) -> bool:
    """The helper's parameters or locals are names the function around the call uses elsewhere."""
    own = {p.name.value for p in fn.params.params} | names_in(fn.body)
    around = names_in(cst.Module(body=[*outer.body.body[:k], *outer.body.body[k + 1:]])) \
        | {p.name.value for p in outer.params.params}
    return bool(own & around - _globals(fn))


def _globals(fn: cst.FunctionDef) -> set:
    """Names the helper reads but does not bind (tf, module constants): the same on both sides of the call."""
    bound = {p.name.value for p in fn.params.params}
    for s in fn.body.body:
        name, _ = assignment(s)
        if name:
            bound.add(name)
        elif _unpacks(s):
            bound |= {e.value.value for e in s.body[0].targets[0].target.elements}
    return names_in(fn.body) - bound
