"""An input function from another module of the package that uses a name its module never defines.

`estimator.train(Utils.train_input_fn_from_tfr())` where utils.py's static method returns
`lambda: create_dataset(path=FLAGS.train_path, ...)` and utils.py neither defines nor imports `create_dataset`
(survey 18, lchingen/conv-feature-extract): the Estimator calls that lambda when it trains and raises NameError,
so the original program does not run as written. That, not the converter, is the cause the user must read;
it is said the way a model_fn TF refuses is (TFM302, "does not run as written"). Read with `ast` only; a module
with a star import or a function with `global`/`nonlocal`/`exec`/`eval` is never judged (a name may come from
anywhere there).
"""
from __future__ import annotations

import ast
import builtins
from typing import Optional

import libcst as cst

from tf2migrate.engine.imports import dotted
from tf2migrate.engine.package import imported_modules

BUILTINS = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__builtins__", "__spec__"}
OPAQUE = (ast.Global, ast.Nonlocal)


def why(ctx, input_fn) -> Optional[str]:
    """The finding for `input_fn`, a call `f(...)`/`Class.f(...)`/`module.f(...)` of another module of the package,
    when the function it calls uses names that module never binds; else None."""
    if not isinstance(input_fn, cst.Call) or ctx.package is None or ctx.tree is None:
        return None
    name = dotted(input_fn.func) if isinstance(input_fn.func, (cst.Name, cst.Attribute)) else None
    if not name:
        return None
    head, _, rest = name.partition(".")
    imported = imported_modules(ctx.tree, ctx.package.name).get(head)
    if imported is None:
        return None
    module, attr = imported
    path = [attr] if attr is not None else []
    path += rest.split(".") if rest else []
    found = ctx.package.text_of(module)
    if found is None or not path:
        return None
    try:
        tree = ast.parse(found[1])
    except SyntaxError:
        return None
    fn = _member(tree.body, path)
    if fn is None or _opaque(tree, fn):
        return None
    missing = _undefined(fn, _module_names(tree))
    if not missing:
        return None
    where = found[0].replace("\\", "/").rsplit("/", 1)[-1]
    names = " and ".join(f"`{m}`" for m in missing[:2]) + (" (and more)" if len(missing) > 2 else "")
    return (f"the input function `{name}()` (in {where}) uses {names}, which {where} never defines or imports: "
            "the Estimator would raise NameError when it calls it, so this program does not run as written; "
            f"define or import {'it' if len(missing) == 1 else 'them'} there, then convert")


def _member(body, path) -> Optional[ast.FunctionDef]:
    """The function `path` names (`f`, or `Class.f`) among a module's top-level statements."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == path[0]:
            if len(path) == 1:
                return node if isinstance(node, ast.FunctionDef) else None
            return _member(node.body, path[1:]) if isinstance(node, ast.ClassDef) else None
    return None


def _opaque(tree, fn) -> bool:
    star = any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in tree.body)
    dynamic = any(isinstance(n, OPAQUE) or isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                  and n.func.id in ("exec", "eval", "globals", "locals", "vars") for n in ast.walk(fn))
    return star or dynamic


def _module_names(tree) -> set:
    """Every name the module binds anywhere (at the top or in a block): a generous reading, so no false NameError."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def _undefined(fn, bound: set) -> list:
    """The names `fn` loads that nothing binds, in order of first use."""
    out = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound \
                and node.id not in BUILTINS and node.id not in out:
            out.append(node.id)
    return sorted(out, key=lambda n: min((x.lineno, x.col_offset) for x in ast.walk(fn)
                                          if isinstance(x, ast.Name) and x.id == n))
