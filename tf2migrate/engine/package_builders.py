"""What a module of a package builds, read from Python's `ast`: its Estimator helpers (a top-level function
whose body is `return Estimator(...)`) and whether a top-level function builds one (engine/package.py).

Only top-level functions count: the program that trains a helper's Estimator imports it by name.
"""
from __future__ import annotations

import ast
import bisect
import re

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ImportMap
from tf2migrate.engine.source import NEWLINE

CALLS_ESTIMATOR = re.compile(r"(Estimator|Classifier|Regressor)\s*\(")


def _estimator_call(node, imports: ImportMap) -> bool:
    """A call of an Estimator class (the plugin decides exactly; here a wider net only costs a parse)."""
    if not isinstance(node, ast.Call):
        return False
    canonical = imports.ast_canonical(node.func) or ""
    return canonical.startswith("tf.estimator.") and canonical.rsplit(".", 1)[-1][:1].isupper()


def helpers_of(tree, imports: ImportMap) -> dict:
    """Top-level undecorated functions whose body (docstring aside) is `return Estimator(...)`."""
    out = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not stmt.decorator_list:
            body = [s for s in stmt.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                 and isinstance(s.value.value, str))]
            if len(body) == 1 and isinstance(body[0], ast.Return) and _estimator_call(body[0].value, imports):
                out[stmt.name] = stmt.lineno
    return out


def builds_in_functions(tree, imports: ImportMap) -> bool:
    """A top-level function calls an Estimator class somewhere in its body (read from the `ast` index's calls,
    placed by line, instead of a walk of each function)."""
    spans = _function_spans(tree)
    if not spans:
        return False
    starts = [first for first, _ in spans]
    for node in nodes(tree, ast.Call):
        at = bisect.bisect_right(starts, node.lineno) - 1
        if at >= 0 and node.lineno <= spans[at][1] and _estimator_call(node, imports):
            return True
    return False


def calls_in_functions(tree, text: str) -> bool:
    """Does an `Estimator(` / `...Classifier(` / `...Regressor(` call start on a line of a top-level function
    (its decorators included)? Only there can a helper or a build be (`helpers_of`, `builds_in_functions`): the
    library's own modules call them in methods, and their imports are not resolved (a walk of the whole tree)."""
    spans = _function_spans(tree)
    if not spans:
        return False
    starts = [0] + [m.end() for m in NEWLINE.finditer(text)]  # lines as `ast` counts them (\r too)
    lines = [bisect.bisect_right(starts, m.start()) for m in CALLS_ESTIMATOR.finditer(text)]
    return any(first <= line <= last for line in lines for first, last in spans)


def _function_spans(tree) -> list:
    """(first line, decorators included, last line) of each top-level function."""
    return [(min([stmt.lineno] + [d.lineno for d in stmt.decorator_list]), stmt.end_lineno)
            for stmt in tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))]
