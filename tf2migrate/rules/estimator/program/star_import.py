"""A model_fn a program takes from a sibling module by a star import: `from model_fn import *` in `train.py`, then
`Estimator(model_fn=model_fn)` (lchingen/conv-feature-extract, scripts in a folder without `__init__.py`).

The star import binds every public name of the module, so the model_fn converts as one imported by name does
(imported_model_fn.py): its module writes `build_model` where the model_fn stood, and the same star import brings
that name to the program, with nothing to rename. Only when exactly one star-imported module of the run defines the
name, nothing else in the program binds it, and that module has no `__all__` (which could leave `build_model` out).
The star import also brings the module's own imports: a `tf` bound to `tensorflow.compat.v1` there may be rebound
to `tensorflow` by its conversion, and would then replace the program's `tf` after the star import (found by the
pair est_model_fn_star_import); such a module is not followed, and the finding says to import the model_fn by name.
"""
from __future__ import annotations

import ast
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.program import built_elsewhere


def owner(ctx, name: str, given: set) -> Optional[built_elsewhere.Neighbour]:
    """The module of the run that a top-level `from M import *` of this file brings `name` from, else None."""
    stars = [node.module for node in ctx.tree.body if isinstance(node, ast.ImportFrom) and not node.level
             and node.module in given and node.names[0].name == "*"]
    found = [nb for nb in (built_elsewhere.neighbour(ctx, m) for m in stars)
             if nb is not None and isinstance(nb.defs.get(name), cst.FunctionDef)]
    bound = [alias for node in ast.walk(ctx.tree) if isinstance(node, (ast.Import, ast.ImportFrom))
             for alias in node.names if (alias.asname or alias.name.split(".")[0]) == name]
    if len(found) != 1 or bound or _exports_listed(found[0].module) or rebound(found[0]):
        return None
    return found[0]


def rebound(nb) -> list:
    """The names the module binds to a TensorFlow module other than `tensorflow` itself (`tf` for
    `tensorflow.compat.v1`), which its conversion may rebind and a star import would pass on."""
    return sorted(name for name, b in nb.ctx.imports.bindings.items() if not b.assigned and b.from_module is None
                  and b.target.split(".")[0] == "tensorflow" and b.target != "tensorflow")


def _exports_listed(module: cst.Module) -> bool:
    """Does the module set `__all__` (a star import then brings only what it lists)?"""
    return "__all__" in module.code and any(
        isinstance(t.target, cst.Name) and t.target.value == "__all__"
        for stmt in module.body if isinstance(stmt, cst.SimpleStatementLine)
        for small in stmt.body if isinstance(small, cst.Assign) for t in small.targets)
