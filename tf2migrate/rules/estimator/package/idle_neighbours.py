"""When the Estimator converter provably has nothing to do in a file with package neighbours, asked of `ast`.

A file whose package view holds other modules (`engine/package.py`) was read whole by the converter: LibCST,
its neighbours parsed and analysed again, only to find, in most such files, nothing to convert (tensor2tensor
1.14.0: 20 files import `trainer_lib.py`, whose Estimator program is blocked). Beyond what
`rules/idle.estimator_may_act` asks of the file alone, a neighbour lets the converter act here in two ways
only, each tested here wider than the converter reads it:

- this file calls a neighbour's Estimator helper (`built_elsewhere.helpers`: a top-level undecorated function
  whose body is one `return` of an Estimator call), so it names that helper;
- a neighbour's program takes a function of this module: its model_fn (`imported_model_fn.py`) or an input
  function (`input_side.py`), so that neighbour names this module and the function.

Kept free of LibCST. A wrong "may act" only costs the LibCST path; a wrong "idle" would lose a conversion,
so `tests/test_package_idle.py` checks on every package fixture that an idle file's rewrite is the same.
"""
from __future__ import annotations

import ast
import functools
import re

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ImportMap
from tf2migrate.rules.idle import estimator_may_act

_NAMESPACES = ("tf.estimator.", "tf.contrib.tpu.", "tf.keras.estimator.")


def may_act(tree, imports, text: str, package) -> bool:
    """Can the Estimator converter act in this module (`text`), given its package view (None: no neighbours)?"""
    if tree is None or estimator_may_act(tree, imports):
        return True
    if package is None:
        return False  # `model_to_estimator` alone wakes it only with neighbours (as before this module)
    if _calls_estimator(tree, imports):
        return True
    for _, _, other in package.modules:
        helpers = _helpers(other)
        if helpers is None:
            return True  # a neighbour `ast` cannot read: let the converter say what it makes of it
        if helpers and _words(helpers).search(text):  # called as `model.build_estimator` or imported by name
            return True
        if may_read(tree, package.name, other):
            return True
    return False


def may_have_helpers(text: str) -> bool:
    """May `builders.find` find an Estimator helper in this module (its text)? No when `ast` finds none."""
    return _helpers(text) != frozenset()


def may_read(tree, name: str, other: str) -> bool:
    """May the module `other` (its text) take a function of this one (`tree`, dotted `name`): does it name both?
    Its model_fn or input function is imported by name (`from trainer.model import model_fn`, `import *`) or
    used through the module (`model.model_fn`): either way the text names the module and the function."""
    own = _function_names(tree)
    return bool(own) and re.search(rf"\b{re.escape(name.rsplit('.', 1)[-1])}\b", other) is not None \
        and _words(own).search(other) is not None


def _calls_estimator(tree, imports) -> bool:
    """A call of an Estimator class or of `model_to_estimator` (what `analyze.is_estimator` accepts, and wider)."""
    for call in nodes(tree, ast.Call):
        canonical = imports.ast_canonical(call.func) or ""
        last = canonical.rsplit(".", 1)[-1]
        if canonical.startswith(_NAMESPACES) and (last[:1].isupper() or last == "model_to_estimator"):
            return True
    return False


@functools.lru_cache(maxsize=16)
def _helpers(text: str):
    """A neighbour's top-level functions that may be Estimator helpers (`builders.find`, wider: a string
    statement anywhere in the body is left out, and any Estimator-like callee counts), or None: unreadable."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    imports = ImportMap.from_ast(tree)
    out = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not stmt.decorator_list:
            body = [s for s in stmt.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                 and isinstance(s.value.value, str))]
            if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Call):
                canonical = imports.ast_canonical(body[0].value.func) or ""
                if canonical.startswith(_NAMESPACES):
                    out.add(stmt.name)
    return frozenset(out)


def _function_names(tree) -> frozenset:
    return frozenset(s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)))


@functools.lru_cache(maxsize=64)
def _words(names: frozenset):
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")
