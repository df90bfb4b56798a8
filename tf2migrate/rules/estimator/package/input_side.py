"""The input module's side of a program given with it: its input functions return their datasets (TFM345).

`iris_data.train_input_fn` returns `dataset.make_one_shot_iterator().get_next()`, which the Estimator took as
its input and Keras takes as one batch. When the program that uses it as an input function converts (its whole
rewrite replayed, as helper_side.py does), the function returns its dataset instead: only a function that the
one program of the view uses only in `input_fn=` arguments, and nothing else calls (writing/input_modules.py
asks the same on the program's side, which blocks otherwise). Everything else of the module stays.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.estimator.package import helper_side
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.writing import input_modules


def convert(plugin, original: cst.Module, updated: cst.Module):
    """The module with the input functions of a converted program returning their datasets; None when no
    program of the view uses one of its functions that way."""
    ctx = plugin.ctx
    if ctx.package is None or ctx.tree is None:
        return None
    defs = {s.name.value: (k, s) for k, s in enumerate(original.body) if isinstance(s, cst.FunctionDef)}
    wanted = {}  # function name -> the program's neighbour
    for name, (_, fn) in defs.items():
        if not input_modules.iterates(fn):
            continue
        users = [n for n, _, text in ctx.package.modules if name in text]
        nb = built_elsewhere.neighbour(ctx, users[0]) if len(users) == 1 else None
        if nb is None or nb.ctx.tree is None:
            continue
        inside, outside = input_modules.uses(nb.ctx.tree, nb.name, ctx.package.name, name)
        if inside and not outside and not kept_source.references(original, name, plain=True):
            wanted[name] = nb
    if not wanted or not all(helper_side._converts(ctx, nb) for nb in {id(v): v for v in wanted.values()}.values()):
        return None
    body = list(updated.body)
    for name, nb in wanted.items():
        k, fn = defs[name]
        if not ctx.allowed(fn, input_modules.CODE) or not isinstance(body[k], cst.FunctionDef):
            continue
        notes: list = []
        done = input_modules.returning_dataset(body[k], ctx, notes)
        if done is None:
            continue
        found: list = []
        fn.visit(input_modules._ReturnDataset(ctx, found))  # the same returns, as written: the findings go there
        for node, _, _ in found or [(fn, None, None)]:
            ctx.report(node, input_modules.CODE, f"`{name}` returns its dataset: the Keras model of "
                       f"{built_elsewhere.shown(ctx, nb.path)} reads it as its input, a dataset it iterates (an "
                       "iterator's tensors would be one batch)",
                       severity=Severity.INFO)
        body[k] = done
    return updated.with_changes(body=body) if body != list(updated.body) else None
