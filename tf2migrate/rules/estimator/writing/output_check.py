"""Is the converted module a program that can run? Checked statically before it is written (issue 17, point 6).

A conversion that removes the Estimator, its specs and its model_fn must leave no use of them: a use it did
not rewrite is a NameError at run time, with nothing said at rewrite time. pyflakes (it reads the `ast`, it
imports nothing) lists the names the output uses and never defines; those the input already used without
defining (a name from `exec`, a star import, a typo of the user's) do not count. Nor may the output consume
`model.predict(...)` as Estimator.predict's generator of per-example dicts: Keras returns one batch (a dict of
arrays, or an array), so `for p in preds: p["class"]` and `next(preds)` fail (runs.py wraps it in examples_of).
Nor may it hand Keras an input function that returns an iterator's tensors (`iterator.get_next()`), which the
Estimator took as one input and Keras takes as one batch, or not at all (the survey's blog_custom_estimators.py).
A problem found here is the reason of TFM325: the engine writes the file without the conversion
(`Plugin.check_output`).
"""
from __future__ import annotations

import ast
from typing import Optional


def problem(before: str, after: str, path: str, models=frozenset()) -> Optional[str]:
    """Why `after`, the conversion of `before`, cannot run; None when nothing is found. `models`: the names of
    the converted Keras models (`model`), whose `predict` results are checked."""
    tree = ast.parse(after)
    read = _per_example_reads(tree, models) or _iterator_inputs(tree, models)
    if read is not None:
        return read
    uses = _undefined(after, path, tree)
    if not uses:
        return None
    known = _undefined(before, path)  # once, not per name: the input's own undefined names do not count
    new = {name: line for name, line in uses.items() if name not in known}
    if new:
        lines = after.splitlines()
        name, line = min(new.items(), key=lambda item: item[1])
        listed = ", ".join(f"`{n}`" for n in sorted(new))
        return (f"its output would use {listed}, which it no longer defines (NameError), first in "
                f"`{lines[line - 1].strip()}`")
    return None


def _undefined(code: str, path: str, tree=None) -> dict:
    """{name: first line} of the names `code` uses without defining them."""
    from pyflakes import checker, messages

    found: dict = {}
    for message in checker.Checker(tree or ast.parse(code), filename=path).messages:
        if isinstance(message, (messages.UndefinedName, messages.UndefinedLocal)):
            found.setdefault(message.message_args[0], message.lineno)
    return found


def _per_example_reads(tree: ast.Module, models) -> Optional[str]:
    """The first read of `model.predict(...)`'s result as if it yielded one dict per example, told as a reason."""
    raw = {node.targets[0].id for node in ast.walk(tree) if isinstance(node, ast.Assign) and len(node.targets) == 1
           and isinstance(node.targets[0], ast.Name) and _predicts(node.value, models)}
    is_raw = lambda node: _predicts(node, models) or isinstance(node, ast.Name) and node.id in raw  # noqa: E731
    found = []  # (line, col, reason)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "next" \
                and node.args and is_raw(node.args[0]):
            found.append((node.lineno, node.col_offset, f"`{ast.unparse(node)}`: model.predict returns one batch, "
                          "not Estimator.predict's generator of per-example predictions (TypeError: not an iterator)"))
        loops = [(node.target, node.iter, node.body)] if isinstance(node, (ast.For, ast.AsyncFor)) else \
            [(g.target, g.iter, [node]) for g in node.generators] if isinstance(
                node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) else []
        for target, iterated, body in loops:
            if not (isinstance(target, ast.Name) and is_raw(iterated)):
                continue
            for stmt in body:
                for read in ast.walk(stmt):
                    if isinstance(read, ast.Subscript) and isinstance(read.value, ast.Name) \
                            and read.value.id == target.id and isinstance(read.slice, ast.Constant) \
                            and isinstance(read.slice.value, str):
                        found.append((read.lineno, read.col_offset, f"`{ast.unparse(read)}` reads one example's "
                                      f"prediction from `{ast.unparse(iterated)}`, but model.predict returns one "
                                      "batch (a dict of arrays), not one dict per example"))
    return min(found)[2] if found else None


def _predicts(node, models) -> bool:
    """`model.predict(...)` of a converted model."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "predict" \
        and isinstance(node.func.value, ast.Name) and node.func.value.id in models


def _iterator_inputs(tree: ast.Module, models) -> Optional[str]:
    """An input function given to the model's fit/evaluate/predict that returns `get_next()`'s tensors."""
    functions = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args
                and node.func.attr in ("fit", "evaluate", "predict") and isinstance(node.func.value, ast.Name)
                and node.func.value.id in models):
            continue
        made = node.args[0]
        fn = functions.get(made.func.id) if isinstance(made, ast.Call) and isinstance(made.func, ast.Name) else None
        nexts = [call for call in ast.walk(fn) if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                 and call.func.attr == "get_next"] if fn is not None else []
        if nexts:
            return (f"`{fn.name}` returns the tensors of an iterator (`{ast.unparse(nexts[0])}`), which Keras' "
                    f"{node.func.attr} would read as one batch, not as the dataset: let it return its dataset")
    return None
