"""A module that converts its own Estimator program while another module of the run takes its model_fn.

lchingen/conv-feature-extract: `model_fn.py` defines `model_fn` and exports it with its own Estimator
(`export_tf_model`); `train.py` does `from model_fn import *` and trains `Estimator(model_fn=model_fn)`. The
conversion of `model_fn.py`'s program replaces `model_fn` by the Keras model's builder, so `train.py`, unless
it converts with it (imported_model_fn.py, which then refuses a model_fn used twice), would be left calling a
name that no longer exists (a NameError a star import hides from pyflakes). So the program blocks here, naming
the other module, and both files stay as they were.
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.package import imported_modules
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.syntax.args import Unreadable


def problems(prog, ctx) -> list:
    """[Unreadable] at the model_fn when another module of the run's package view takes it; [] otherwise."""
    fn = prog.bound.get("model_fn")
    if ctx.package is None or built_elsewhere.external(prog) is not None or not isinstance(fn, cst.Name) \
            or not isinstance(prog.defs.get(fn.value), cst.FunctionDef):
        return []
    users = [built_elsewhere.shown(ctx, path) for name, path, text in ctx.package.modules
             if _takes(text, name, ctx.package.name, fn.value)]
    if not users:
        return []
    return [Unreadable(fn, f"`{fn.value}` is also taken by {', '.join(users)}, which would be left without it: "
                       "both programs go with one conversion; convert by hand")]


def _takes(text: str, name: str, owner: str, fn: str) -> bool:
    """Does the module `name` read `fn` of the module `owner` (`from owner import fn`, `owner.fn`, or
    `from owner import *` and a use of `fn`)?"""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    for local, (module, attr) in imported_modules(tree, name).items():
        if module == owner and attr == fn:
            return True
        if attr is None and module == owner and any(isinstance(n, ast.Attribute) and n.attr == fn and isinstance(
                n.value, ast.Name) and n.value.id == local for n in ast.walk(tree)):
            return True
    star = any(isinstance(n, ast.ImportFrom) and n.module == owner and n.names[0].name == "*" for n in tree.body)
    return star and any(isinstance(n, ast.Name) and n.id == fn for n in ast.walk(tree))
