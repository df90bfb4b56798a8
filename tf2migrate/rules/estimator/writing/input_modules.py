"""Input functions of another module given with the program (TF's get-started `iris_data.py`), read on both sides.

`model.fit(iris_data.train_input_fn(...))` runs only if that function returns its dataset: one that returns
`dataset.make_one_shot_iterator().get_next()` hands Keras one batch's `(features, labels)` tuple as `x`
(DenseFeatures: "We expected a dictionary here"). When the folder or package is given, the engine gives the
two modules each other's text (`engine/package_inputs.py`); the input module then returns the dataset from
such a function (`package/input_side.py`, TFM345), exactly when the program converts and the function serves
only as its input functions. Both sides ask the questions below, so they never disagree; the program blocks
with the true cause where the input module could not follow.
"""
from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from tf2migrate.engine.imports import dotted
from tf2migrate.engine.package import imported_modules
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.writing.returned_datasets import _ReturnDataset

CODE = "TFM345"


def owner_of(ctx, func) -> Optional[tuple]:
    """(neighbour, its top-level FunctionDef) for an input function `func` of another module of the view."""
    if ctx.package is None or ctx.tree is None or not isinstance(func, (cst.Name, cst.Attribute)):
        return None
    given = {n for n, _, _ in ctx.package.modules}
    imported = imported_modules(ctx.tree, ctx.package.name)
    if isinstance(func, cst.Name) and func.value in imported and imported[func.value][1] == func.value:
        owner, name = imported[func.value][0], func.value
    elif isinstance(func, cst.Attribute) and dotted(func.value) in imported:
        module, attr = imported[dotted(func.value)]
        owner, name = (f"{module}.{attr}" if attr is not None else module), func.attr.value
    else:
        return None
    nb = built_elsewhere.neighbour(ctx, owner) if owner in given else None
    fn = nb.defs.get(name) if nb is not None else None
    return (nb, fn) if isinstance(fn, cst.FunctionDef) else None


def iterates(fn: cst.FunctionDef) -> bool:
    """Does the function read an iterator (`.get_next()`), which Keras would not iterate?"""
    return "get_next" in cst.Module([]).code_for_node(fn)


def returning_dataset(fn: cst.FunctionDef, ctx, notes: list) -> Optional[cst.FunctionDef]:
    """The function returning its dataset instead of the iterator's tensors, or None when a `get_next` stays."""
    done = fn.visit(_ReturnDataset(ctx, notes))
    return None if iterates(done) else done


def uses(tree: ast.Module, module_name: str, owner: str, name: str) -> tuple:
    """(inside, outside): the references of `owner.name` in a module, inside an `input_fn=` argument or not."""
    local = {n: v for n, v in imported_modules(tree, module_name).items()}
    heads = {n for n, (m, a) in local.items() if (m if a is None else f"{m}.{a}") == owner}
    plain = {n for n, (m, a) in local.items() if m == owner and a == name}
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    inside = outside = 0
    for node in ast.walk(tree):
        hit = isinstance(node, ast.Attribute) and node.attr == name and _dotted(node.value) in heads \
            or isinstance(node, ast.Name) and node.id in plain and isinstance(node.ctx, ast.Load)
        if not hit:
            continue
        up = parents.get(id(node))
        while up is not None and not (isinstance(up, ast.keyword) and up.arg == "input_fn"):
            up = parents.get(id(up))
        inside, outside = (inside + 1, outside) if up is not None else (inside, outside + 1)
    return inside, outside


def blocker(ctx, nb, fn: cst.FunctionDef, shown_name: str) -> Optional[str]:
    """Why the input module could not return `fn`'s dataset for this program (None: it will, or need not)."""
    where = built_elsewhere.shown(ctx, nb.path)
    if not iterates(fn):
        inner = _iterating_callee(nb, fn)
        return None if inner is None else (
            f"`{shown_name}` (in {where}) returns what `{inner}` gives, an iterator's tensors (`...get_next()`), which "
            "Keras' fit/evaluate/predict would read as one batch: let the input function return its tf.data.Dataset, "
            "then run again")
    if returning_dataset(fn, nb.ctx, []) is None:
        return (f"`{shown_name}` (in {where}) returns an iterator's tensors (`...get_next()`), which Keras' fit/"
                "evaluate/predict would read as one batch, and not in a form the conversion rewrites: let it "
                "return its tf.data.Dataset, then run again")
    others = [built_elsewhere.shown(ctx, path) for n, path, text in ctx.package.modules
              if n != nb.name and fn.name.value in text]
    if kept_source.references(nb.module, fn.name.value, plain=True) or others \
            or uses(ctx.tree, ctx.package.name, nb.name, fn.name.value)[1]:
        users = ", ".join(others) or "this program outside an input_fn, or its own module"
        return (f"`{shown_name}` (in {where}) returns an iterator's tensors (`...get_next()`), which Keras reads "
                f"as one batch; it is also used by {users}, so it cannot return its dataset for this program "
                "alone: convert by hand")
    if not nb.ctx.allowed(fn, CODE):
        return (f"`{shown_name}` (in {where}) returns an iterator's tensors, and a skip comment or --ignore keeps "
                f"{CODE} from returning its dataset there: Keras would read one batch")
    return None


def _iterating_callee(nb, fn) -> Optional[str]:
    """A function of the input module that `fn` calls, directly or through others, and that reads an iterator."""
    seen, todo = {fn.name.value}, [fn]
    while todo:
        for name in sorted(kept_source.names_in(todo.pop()) - seen):
            callee = nb.defs.get(name)
            if isinstance(callee, cst.FunctionDef):
                if iterates(callee):
                    return name
                seen.add(name)
                todo.append(callee)
    return None


def _dotted(node) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""
