"""Names bound locally in a function, so a parameter or variable that shadows an import is left alone.

They are read from Python's `ast` (fast) and matched to LibCST's function nodes by source order and
name: both trees come from the same text, so they always agree; if they ever did not, the rewrite
stops (an internal error, nothing written) rather than guess which names are local.
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.ast_index import children, nodes


def _params(params: cst.Parameters) -> set:
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    return names


def lambda_locals(node: cst.Lambda) -> set:
    return _params(node.params)


def _ast_targets(node, names: set) -> None:
    if isinstance(node, ast.Name):
        names.add(node.id)
    elif isinstance(node, (ast.Tuple, ast.List)):
        for el in node.elts:
            _ast_targets(el, names)
    elif isinstance(node, ast.Starred):
        _ast_targets(node.value, names)


def ast_function_locals(fn) -> set:
    """Parameters and names bound in `fn`'s own body (not in nested functions or classes). Read once per
    function node (the splice path, the report-only rules and the traversal all ask), a new set each time."""
    found = getattr(fn, "_tf2migrate_locals", None)
    if found is None:
        found = frozenset(_function_locals(fn))
        fn._tf2migrate_locals = found
    return set(found)


def _function_locals(fn) -> set:
    args = fn.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    declared_global: set = set()
    todo = list(fn.body)
    while todo:
        node = todo.pop()
        if node is None:  # an empty optional field (`children`)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        if isinstance(node, ast.Lambda) or isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Global):
            declared_global.update(node.names)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                _ast_targets(target, names)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            _ast_targets(node.target, names)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            _ast_targets(node.optional_vars, names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        todo.extend(children(node))
    return names - declared_global


class FunctionScopes:
    """Hands out each function's locals in LibCST visit order, from the `ast` tree."""

    def __init__(self, tree) -> None:
        found = nodes(tree, ast.FunctionDef, ast.AsyncFunctionDef)
        self.functions = sorted(found, key=lambda n: (n.lineno, n.col_offset))
        self.index = 0

    def skip(self, count: int) -> None:
        """The traversal stepped over a statement defining `count` functions."""
        self.index += count

    def next_for(self, node: cst.FunctionDef) -> set:
        fn = self.functions[self.index] if self.index < len(self.functions) else None
        self.index += 1
        if fn is None or fn.name != node.name.value:
            raise RuntimeError(f"function scopes out of step at `def {node.name.value}`")
        return ast_function_locals(fn)
