"""Which imported TensorFlow names the module binds again: after `to_float = wrap(to_float)` or `tf = numpy`,
a use of the name may read the new value, so no rule may take it for TensorFlow's (`ImportMap.from_ast`).

A binding counts where it is in the module's own scope (not a function's: that is shadowing, which
`engine/scopes.py` handles per function): an assignment, augmented or annotated one, `del`, `for`, `with` and
`except` targets, walrus (a comprehension's too), `def` and `class`, match captures, an import of a path outside
TensorFlow, or a function that declares the name `global` and binds it. Another import of a TensorFlow path
(`try: import tensorflow.compat.v1 as tf / except ImportError: import tensorflow as tf`) is no rebinding.
A class body's binding counts too (a use in that body would read it). Each use is judged alike, before the
rebinding or after: which binding a use reads can depend on the flow (a loop, a function called later).
Only the module's statements are read (every node only where a walrus or a match pattern may bind), once
per tree and set of names.
"""
from __future__ import annotations

import ast

from tf2migrate.engine.ast_index import children, nodes

TF_ROOTS = ("tensorflow", "tensorflow_estimator")
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPOUND = frozenset(getattr(ast, kind) for kind in (
    "If", "For", "AsyncFor", "While", "With", "AsyncWith", "Try", "TryStar", "ClassDef") if hasattr(ast, kind))
_QUIET = frozenset((ast.Expr, ast.Return, ast.If, ast.While, ast.Pass, ast.Raise, ast.Assert))  # bind nothing
_MATCH = tuple(getattr(ast, kind) for kind in ("MatchAs", "MatchStar", "MatchMapping") if hasattr(ast, kind))


def is_tf_path(path: str) -> bool:
    return path.split(".")[0] in TF_ROOTS


def rebound(tree, names) -> dict:
    """`{name: node}` for each of `names` (bound by TensorFlow imports) that the module's scope binds otherwise;
    `node`: the first such binding in the source (for the finding). Answered once per tree and set of names
    (`ImportMap.from_ast` is asked several times a file)."""
    if not names:
        return {}
    key = frozenset(names)
    memo = tree.__dict__.setdefault("_tf2migrate_rebound", {})
    if key not in memo:
        memo[key] = _rebound(tree, key)
    return memo[key]


def rebinds_tf(tree) -> bool:
    """Does the module bind again a name a public TensorFlow import gave it (a TFM616 finding, rules/upgrade/
    rebound.py)? The pre-pass asks it of a file where no rule may act: most import no such name again."""
    names = {a.asname or a.name.split(".")[0] for n in nodes(tree, ast.Import) for a in n.names
             if is_tf_path(a.name) and not a.name.startswith("tensorflow.python")}
    names.update(a.asname or a.name for n in nodes(tree, ast.ImportFrom) for a in n.names
                 if not n.level and is_tf_path(n.module or "") and not n.module.startswith("tensorflow.python"))
    return bool(names) and bool(rebound(tree, names)) or bool(rebound_in_functions(tree))


def rebound_in_functions(tree) -> list:
    """[(name, import node)] for each public TensorFlow import inside a function that the function binds again
    (its own variable: `engine/scopes.py` then takes every use of the name in it for a local, the import
    included, so nothing of it is converted). Only a file with an indented TensorFlow import is looked at."""
    indented = [n for n in nodes(tree, ast.Import, ast.ImportFrom) if n.col_offset and _public_tf_names(n)]
    if not indented:
        return []
    from tf2migrate.engine.scopes import ast_function_locals  # LibCST-free, but only needed here

    out = []
    for fn in nodes(tree, ast.FunctionDef, ast.AsyncFunctionDef):
        own = [n for n in indented if fn.lineno < n.lineno <= fn.end_lineno]
        if own:
            local = ast_function_locals(fn)
            out.extend((name, n) for n in own for name in _public_tf_names(n) if name in local)
    return sorted(set(out), key=lambda item: (item[1].lineno, item[1].col_offset, item[0]))


def _public_tf_names(node) -> list:
    if type(node) is ast.Import:
        return [a.asname or a.name.split(".")[0] for a in node.names
                if is_tf_path(a.name) and not a.name.startswith("tensorflow.python")]
    if node.level or not is_tf_path(node.module or "") or node.module.startswith("tensorflow.python"):
        return []
    return [a.asname or a.name for a in node.names]


def _rebound(tree, names: frozenset) -> dict:
    found: dict = {}
    if nodes(tree, ast.NamedExpr) or _MATCH and nodes(tree, *_MATCH):  # bindings inside expressions: walk them
        candidates = _module_scope(tree)
    else:  # statements bind every other name: the module's statements (its blocks' and classes' too) suffice
        candidates = _module_statements(tree.body)
    for node in candidates:
        for name, where in _binds(node):
            if name in names:
                found.setdefault(name, []).append(where)
    if any(name in names for n in nodes(tree, ast.Global) for name in n.names):
        for fn in nodes(tree, ast.FunctionDef, ast.AsyncFunctionDef):
            for stmt in nodes(fn, ast.Global):
                for name in stmt.names:
                    if name in names and _function_binds(fn, name):
                        found.setdefault(name, []).append(stmt)
    return {name: min(where, key=lambda n: (n.lineno, n.col_offset)) for name, where in found.items()}


def _module_statements(body):
    """The module's statements, and those of its blocks and class bodies, not of its functions."""
    todo = list(body)
    while todo:
        stmt = todo.pop()
        yield stmt
        if type(stmt) in _COMPOUND:
            for field in ("body", "orelse", "finalbody"):
                todo.extend(getattr(stmt, field, ()))
            for handler in getattr(stmt, "handlers", ()):
                todo.extend(handler.body)


def _module_scope(tree):
    """Every node evaluated in the module's own scope (class bodies too), not inside a function or lambda,
    nor a comprehension's own `for` targets. A `def` or `lambda` is given (it binds its name), its decorators,
    defaults and annotations are walked, its body is not."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if node is None:
            continue
        yield node
        if isinstance(node, _FUNCTIONS):
            args = node.args
            todo.extend(getattr(node, "decorator_list", ()))
            todo.extend(d for d in (*args.defaults, *args.kw_defaults) if d is not None)
            continue
        if isinstance(node, ast.comprehension):
            todo.append(node.iter)
            todo.extend(node.ifs)
            continue
        todo.extend(children(node))


def _binds(node) -> list:
    """(name, node to report at) for each name `node` binds itself (a statement: its targets, not what its
    blocks bind; an expression node: a walrus's or a match capture's)."""
    kind = type(node)
    if kind in _QUIET:
        return []
    if kind is ast.Assign or kind is ast.Delete:
        targets = list(node.targets)  # a copy: the loop below pops from it
    elif kind in (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr):
        targets = [node.target]
    elif kind is ast.With or kind is ast.AsyncWith:
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    elif kind in _DEFS:
        return [(node.name, node)]
    elif kind is ast.Import:
        return [(a.asname or a.name.split(".")[0], node) for a in node.names if not is_tf_path(a.name)]
    elif kind is ast.ImportFrom:
        return [(a.asname or a.name, node) for a in node.names] if node.level or not is_tf_path(node.module or "") else []
    elif hasattr(node, "handlers"):  # try, try*
        return [(h.name, h) for h in node.handlers if h.name]
    elif _MATCH and kind in _MATCH:
        name = getattr(node, "name", None) or getattr(node, "rest", None)
        return [(name, node)] if name else []
    else:
        return []
    out = []
    while targets:
        target = targets.pop()
        if type(target) is ast.Name:
            out.append((target.id, node))
        elif type(target) in (ast.Tuple, ast.List):
            targets = [*targets, *target.elts]
        elif type(target) is ast.Starred:
            targets = [*targets, target.value]
    return out


def _function_binds(fn, name: str) -> bool:
    """`fn` (which declares `name` global) binds it in its own body."""
    for node in nodes(fn, ast.Name):
        if node.id == name and type(node.ctx) is not ast.Load:
            return True
    return any(n.name == name for n in nodes(fn, *_DEFS) if n is not fn) or any(
        (a.asname or a.name.split(".")[0]) == name for n in nodes(fn, ast.Import, ast.ImportFrom) for a in n.names)
